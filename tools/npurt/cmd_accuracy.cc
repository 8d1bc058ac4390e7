// `npurt accuracy model.onnx --dataset d.txt --input SAMPLE -o DIR`:
// rknn-toolkit2's accuracy_analysis. Builds the float and the int8 model as
// `npurt convert --quantize` does (same options, same --config file), runs
// both on each --input sample and compares them layer by layer
// (compiler/quant/accuracy_analysis.h). Writes DIR/error_analysis.{txt,csv,html}
// and prints the worst layers by "single" cosine and the outputs' cosine.
// Without --dataset: a QDQ model's own int8, or the float model in float16 (the
// default --float-dtype), against float32 -- naming the first layer that
// overflowed fp16 and the first below cosine 0.999.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/quant/accuracy_analysis.h"
#include "compiler/quant/dataset.h"
#include "tools/npurt/commands.h"
#include "tools/npurt/convert_options.h"

namespace npurt {
namespace cli {
namespace {

struct AccuracyArgs {
  ConvertArgs convert;
  std::vector<std::string> samples;  // one dataset line each
  std::string output_dir = "snapshot";  // rknn-toolkit2's default output_dir
  size_t worst = 10;
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) throw Failure{"cannot write '" + path + "': " + std::strerror(errno)};
}

int Accuracy(AccuracyArgs a, const std::vector<std::string>& given) {
  try {
    const auto start = std::chrono::steady_clock::now();
    ConvertArgs args = MergeConfig(a.convert, given, "accuracy");
    // With a dataset: the int8 model. Without: a QDQ model's own int8 (Build quantizes it anyway), or the
    // float model as converted by default, in float16 -- each against the float32 model.
    args.quantize = !args.dataset.empty();
    if (args.model.empty()) {
      throw Failure{"no model given (npurt accuracy MODEL.onnx --dataset DATASET.txt --input SAMPLE -o DIR)"};
    }
    if (a.samples.empty()) {
      throw Failure{"no --input sample given (an image or .npy path per model input, as one line of a dataset file)"};
    }
    if (a.output_dir.empty()) throw Failure{"-o: empty output directory"};
    if (a.worst == 0) throw Failure{"--worst must be at least 1"};
    bool reorder_all = false;
    compiler::CompileOptions options = ToCompileOptions(args, &reorder_all);
    options.remove_weight = false;  // the analysis runs the model: it needs its weights
    compiler::Graph graph;
    ImportGraph(args.model, options, reorder_all, &graph);

    // Samples are checked before the (slow) calibration.
    std::vector<compiler::DatasetSample> samples;
    for (const std::string& line : a.samples) {
      compiler::DatasetSample sample;
      const Status s = compiler::ParseDatasetLine(line, "", graph.inputs().size(), &sample);
      if (!s.ok()) throw Failure{"--input '" + line + "': " + s.message()};
      sample.swap_red_blue = options.quant_img_rgb2bgr;  // fed as calibration fed its samples
      samples.push_back(std::move(sample));
    }

    // The reference is the float model the quantizer calibrated (after its exact rewrites).
    std::vector<uint8_t> quant_model;
    compiler::BuildReport build;
    Status s = compiler::Build(options, &graph, &quant_model, &build);
    if (!s.ok()) throw Failure{s.message()};
    const std::vector<uint8_t>& float_model = build.float_reference;
    if (float_model.empty()) {
      throw Failure{"nothing to compare with float32: give --dataset to analyse the int8 model, or analyse the float "
                    "model in float16 (the default --float-dtype)"};
    }
    const bool half = !build.quantized;  // a float model built in float16
    const double build_s = Seconds(start);

    const auto analysis_start = std::chrono::steady_clock::now();
    compiler::AccuracyReport report;
    s = compiler::AnalyzeAccuracy(float_model, quant_model, samples, compiler::AccuracyOptions(), &report);
    if (!s.ok()) throw Failure{s.message()};
    const double analysis_s = Seconds(analysis_start);

    std::error_code ec;
    std::filesystem::create_directories(a.output_dir, ec);
    if (ec) throw Failure{"cannot create '" + a.output_dir + "': " + ec.message()};
    const std::string dir = a.output_dir + "/";
    WriteFile(dir + "error_analysis.txt", compiler::FormatAccuracyText(report));
    WriteFile(dir + "error_analysis.csv", compiler::FormatAccuracyCsv(report));
    WriteFile(dir + "error_analysis.html",
              compiler::FormatAccuracyHtml(report, "npurt accuracy: " + args.model, a.worst));

    const compiler::QuantizeReport& q = build.quant;
    char what[256];
    if (half) {
      std::snprintf(what, sizeof(what), "float16 (weights, inputs and every op's output in fp16)");
    } else if (build.model_params) {
      std::snprintf(what, sizeof(what), "int8 (the model's own QuantizeLinear / DequantizeLinear parameters)");
    } else {
      std::snprintf(what, sizeof(what), "int8 (%s, %s; calibrated on %zu samples)", options.quantized_algorithm.c_str(),
                    options.quantized_method.c_str(), build.calibration_samples);
    }
    std::printf("Accuracy of %s, %s against float32, on %zu sample%s%s\n", args.model.c_str(), what, report.samples,
                report.samples == 1 ? "" : "s", report.samples > 1 ? " (metrics averaged)" : "");
    if (half) {
      std::printf("  %zu layer%s compared\n", report.layers.size(), report.layers.size() == 1 ? "" : "s");
    } else {
      std::printf("  %zu layer%s compared; %d ops int8, %d float, %d Quantize/Dequantize\n", report.layers.size(),
                  report.layers.size() == 1 ? "" : "s", q.int8_nodes, q.float_nodes, q.boundary_nodes);
    }
    const std::string departures = compiler::DescribeFirstDepartures(report, compiler::kFp16CosineThreshold);
    for (size_t start = 0; start < departures.size();) {
      const size_t end = departures.find('\n', start);
      std::printf("  %s", departures.substr(start, end + 1 - start).c_str());
      start = end + 1;
    }
    for (const compiler::OutputAccuracy& o : report.outputs) {
      std::printf("  output '%s': cosine %.6f, euclidean %.5g, SQNR %.2f dB\n", o.name.c_str(), o.metrics.cosine,
                  o.metrics.euclidean, o.metrics.sqnr_db);
    }
    const std::vector<size_t> worst = compiler::WorstLayers(report, a.worst);
    std::printf("  worst %zu layer%s by single cosine (the error each adds alone):\n", worst.size(),
                worst.size() == 1 ? "" : "s");
    std::printf("    %5s  %-40s %-18s %-9s %-10s %-10s %s\n", "#", "layer", "op", "precision", "single", "entire",
                "single SQNR dB");
    for (size_t i : worst) {
      const compiler::LayerAccuracy& l = report.layers[i];
      std::printf("    %5zu  %-40s %-18s %-9s %-10.6f %-10.6f %.2f\n", i, l.node.c_str(), l.op_type.c_str(),
                  l.precision.c_str(), l.single.cosine, l.entire.cosine, l.single.sqnr_db);
    }
    std::printf("  wrote %serror_analysis.txt, .csv, .html (build %.1f s, analysis %.1f s)\n", dir.c_str(), build_s,
                analysis_s);
    return 0;
  } catch (const Failure& f) {
    std::fprintf(stderr, "npurt accuracy: %s\n", f.message.c_str());
    return 1;
  }
}

}  // namespace

void AddAccuracyCommand(CLI::App& app, int* exit_code) {
  static AccuracyArgs args;
  CLI::App* cmd = app.add_subcommand(
      "accuracy", "Compare the int8 model (with --dataset, or a QDQ model's) or the float16 model with the float32 "
                  "model layer by layer on sample inputs (rknn-toolkit2's accuracy_analysis)");
  cmd->add_option("model", args.convert.model, "ONNX model file (.onnx)");
  cmd->add_option("--input", args.samples,
                  "A sample to analyse: one image (jpg/png/bmp) or .npy path per model input, separated by spaces, "
                  "as one line of a dataset file; repeat for several samples (metrics are averaged)")
      ->allow_extra_args(false);
  cmd->add_option("-o,--output-dir", args.output_dir,
                  "Directory for error_analysis.txt, .csv and .html (created if needed; default: snapshot)");
  cmd->add_option("--worst", args.worst, "How many of the worst layers to list and highlight (default 10)");
  AddConversionOptions(cmd, &args.convert, /*quantize_flag=*/false);
  cmd->callback([cmd, exit_code]() {
    AccuracyArgs a = args;
    a.convert = FixBareReorderChannels(*cmd, args.convert);
    *exit_code = Accuracy(a, GivenConversionOptions(*cmd));
  });
}

}  // namespace cli
}  // namespace npurt
