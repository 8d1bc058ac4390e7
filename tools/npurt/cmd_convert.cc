// `npurt convert model.onnx -o model.rknn`: the ONNX compiler, with the
// settings of rknn-toolkit2's config()/load_onnx() as options or as a YAML file
// (--config). Command-line options override the file. Without quantization the
// result is a float32 model.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/core/model.h"
#include "tools/npurt/commands.h"
#include "tools/npurt/convert_options.h"

namespace npurt {
namespace cli {
namespace {

std::string DefaultOutput(const std::string& model) {
  const size_t slash = model.rfind('/');
  const size_t dot = model.rfind('.');
  const std::string stem = dot != std::string::npos && (slash == std::string::npos || dot > slash) ? model.substr(0, dot) : model;
  return stem + ".rknn";
}

std::string DescribeIo(const std::vector<TensorDesc>& tensors, const std::vector<IoDesc>& list) {
  std::string s;
  for (const IoDesc& io : list) {
    const TensorDesc& t = tensors[io.tensor];
    s += (s.empty() ? "" : ", ") + t.name + ShapeToString(t.shape);
  }
  return s;
}

int Convert(ConvertArgs args, const std::vector<std::string>& given) {
  try {
    // The file first, then whatever the command line sets.
    args = MergeConfig(args, given, "convert");
    if (args.model.empty()) throw Failure{"no model given (npurt convert MODEL.onnx -o MODEL.rknn)"};
    if (args.output.empty()) args.output = args.name.empty() ? DefaultOutput(args.model) : args.name + ".rknn";

    std::vector<uint8_t> bytes;
    compiler::BuildReport report;
    const compiler::CompileOptions o = ConvertModel(args, &bytes, &report);
    std::shared_ptr<const Model> m;
    Status s = Model::Load(bytes.data(), bytes.size(), &m);
    if (!s.ok()) throw Failure{"internal error: the converted model does not load: " + s.message()};

    std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
    if (!out) throw Failure{"cannot write '" + args.output + "': " + std::strerror(errno)};
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw Failure{"cannot write '" + args.output + "': " + std::strerror(errno)};

    std::printf("Converted %s -> %s (%s, %s)\n", args.model.c_str(), args.output.c_str(),
                m->target_platform().c_str(),
                report.quantized ? "int8" : (m->float_dtype() == DataType::kFloat16 ? "float16" : "float32"));
    std::printf("  inputs:  %s\n", DescribeIo(m->tensors(), m->inputs()).c_str());
    std::printf("  outputs: %s\n", DescribeIo(m->tensors(), m->outputs()).c_str());
    for (size_t k = 0; k < m->shape_sets().size(); ++k) {
      const ModelGraph& g = m->shape_sets()[k];
      std::printf("  shape set %zu: inputs %s, outputs %s, arena %.1f KiB\n", k,
                  DescribeIo(g.tensors, g.inputs).c_str(), DescribeIo(g.tensors, g.outputs).c_str(),
                  g.arena_size / 1024.0);
    }
    std::printf("  %zu operators, weights %.1f KiB, arena %.1f KiB, file %.1f KiB\n", m->ops().size(),
                m->weights_size() / 1024.0, m->arena_size() / 1024.0, bytes.size() / 1024.0);
    for (const std::string& c : report.half_overflow_constants) {
      std::printf("  warning: float16: constant %s beyond fp16's range (|x| > 65504), stored as +-inf; "
                  "--float-dtype float32 keeps it\n", c.c_str());
    }
    if (report.quantized) {
      const compiler::QuantizeReport& q = report.quant;
      const double macs = static_cast<double>(q.int8_macs + q.int16_macs + q.float_macs);
      auto share = [macs](int64_t part) { return macs > 0 ? 100.0 * static_cast<double>(part) / macs : 0.0; };
      char how[160];
      if (report.model_params) {
        std::snprintf(how, sizeof(how), "with the model's own QuantizeLinear / DequantizeLinear parameters (%zu "
                      "calibration samples for the other tensors)", report.calibration_samples);
      } else {
        std::snprintf(how, sizeof(how), "(%s, %s) on %zu calibration samples", o.quantized_algorithm.c_str(),
                      o.quantized_method.c_str(), report.calibration_samples);
      }
      std::printf("  quantized %s: %d ops int8, %d int16, %d float, "
                  "%d Quantize/Dequantize; MACs %.1f%% int8, %.1f%% int16, %.1f%% float\n",
                  how, q.int8_nodes, q.int16_nodes, q.float_nodes, q.boundary_nodes, macs > 0 ? share(q.int8_macs) : 100.0,
                  share(q.int16_macs), share(q.float_macs));
      for (const std::string& r : q.float_reasons) std::printf("    float: %s\n", r.c_str());
      if (report.smoothed_tensors > 0) std::printf("    smoothed %d tensors into their readers' weights\n", report.smoothed_tensors);
      if (report.quant.gptq_nodes > 0) {
        std::printf("    GPTQ weight rounding in %d of %d layers with weights (nearest in the others)\n",
                    report.quant.gptq_nodes, report.quant.weight_nodes);
      }
      for (const std::string& r : report.auto_int16) std::printf("    auto-hybrid int16: %s\n", r.c_str());
      for (const std::string& r : report.auto_float) std::printf("    auto-hybrid float: %s\n", r.c_str());
    }
    return 0;
  } catch (const Failure& f) {
    std::fprintf(stderr, "npurt convert: %s\n", f.message.c_str());
    return 1;
  }
}

}  // namespace

void AddConvertCommand(CLI::App& app, int* exit_code) {
  static ConvertArgs args;
  CLI::App* cmd = app.add_subcommand("convert", "Convert an ONNX model into an npurt model file (float32, or int8 with --quantize)");
  cmd->add_option("model", args.model, "ONNX model file (.onnx)");
  cmd->add_option("-o,--output", args.output, "Model file to write (default: the model's name with .rknn)");
  AddConversionOptions(cmd, &args, /*quantize_flag=*/true);
  cmd->callback([cmd, exit_code]() {
    // A bare --reorder-channels reorders every input; it may have taken the
    // model path that followed it as its value.
    const ConvertArgs a = FixBareReorderChannels(*cmd, args);
    const std::vector<std::string> given = GivenConversionOptions(*cmd);
    *exit_code = Convert(a, given);
  });
}

}  // namespace cli
}  // namespace npurt
