// npurt._npurt's compiler half: the conversion settings of `npurt convert`
// (tools/npurt/convert_options.h: the same fields, the same YAML parser, the
// same checks), conversion to model-file bytes, and the layer-by-layer
// accuracy analysis of `npurt accuracy`. Long steps run without the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/quant/accuracy_analysis.h"
#include "compiler/quant/dataset.h"
#include "python/bindings/bindings.h"
#include "tools/npurt/convert_options.h"

namespace py = pybind11;

namespace npurt {
namespace python {
namespace {

using cli::ConvertArgs;
using cli::Failure;

py::bytes Bytes(const std::vector<uint8_t>& v) {
  return py::bytes(reinterpret_cast<const char*>(v.data()), v.size());
}

std::vector<uint8_t> Vector(const py::bytes& b) {
  const std::string s = b;
  return std::vector<uint8_t>(s.begin(), s.end());
}

// Runs a conversion step (without the GIL: it must not touch Python objects); its failure, or "".
template <typename F>
std::string Guarded(F&& step) {
  py::gil_scoped_release release;
  try {
    step();
  } catch (const Failure& f) {
    return f.message.empty() ? "conversion failed" : f.message;
  } catch (const std::exception& e) {
    return std::string("conversion failed: ") + e.what();
  }
  return "";
}

// The settings of a YAML config (rknn_convert's model_config.yml or npurt's flat keys).
ConvertArgs LoadConfig(const std::string& path, const std::string& command) {
  ConvertArgs args;
  args.config = path;
  try {
    return cli::MergeConfig(args, {}, command.c_str());
  } catch (const Failure& f) {
    RaiseError(f.message);
  } catch (const std::exception& e) {
    RaiseError("cannot read config '" + path + "': " + e.what());
  }
}

// Imports and optimizes the model (what load_onnx checks): its inputs and outputs.
py::dict ImportModel(const ConvertArgs& python_args) {
  const ConvertArgs args = python_args;  // read below without the GIL: a copy no other thread can change
  compiler::Graph graph;
  const std::string error = Guarded([&] {
    bool reorder_all = false;
    const compiler::CompileOptions options = cli::ToCompileOptions(args, &reorder_all);
    cli::ImportGraph(args.model, options, reorder_all, &graph);
  });
  if (!error.empty()) RaiseError(error);
  py::list inputs, outputs;
  for (const compiler::IrInput& in : graph.inputs()) {
    const compiler::IrTensor& t = graph.tensors()[static_cast<size_t>(in.tensor)];
    inputs.append(py::make_tuple(t.name, t.shape));
  }
  for (int o : graph.outputs()) outputs.append(graph.tensors()[static_cast<size_t>(o)].name);
  py::dict d;
  d["inputs"] = inputs;
  d["outputs"] = outputs;
  return d;
}

// Converts (and with args.quantize, calibrates and quantizes) the model: the model file's bytes and,
// quantized, the float model it was calibrated from (the accuracy analysis's reference).
py::dict Build(const ConvertArgs& python_args) {
  const ConvertArgs args = python_args;  // read below without the GIL: a copy no other thread can change
  std::vector<uint8_t> model;
  compiler::BuildReport report;
  const std::string error = Guarded([&] { cli::ConvertModel(args, &model, &report); });
  if (!error.empty()) RaiseError(error);
  py::dict d;
  d["model"] = Bytes(model);
  d["float_model"] = Bytes(report.float_reference);
  d["quantized"] = report.quantized;
  d["calibration_samples"] = report.calibration_samples;
  d["int8_nodes"] = report.quant.int8_nodes;
  d["float_nodes"] = report.quant.float_nodes;
  d["auto_int16"] = report.auto_int16;
  d["auto_float"] = report.auto_float;
  return d;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out) RaiseError("cannot write '" + path + "': " + std::strerror(errno));
}

py::dict Metrics(const compiler::ErrorMetrics& m) {
  py::dict d;
  d["cos"] = m.cosine;
  d["euc"] = m.euclidean;
  d["sqnr_db"] = m.sqnr_db;
  d["nonfinite"] = m.nonfinite;  // inf / NaN where float32 is finite (fp16 overflow)
  d["ref_min"] = m.ref_min;
  d["ref_max"] = m.ref_max;
  return d;
}

// `npurt accuracy` on models already built: `samples` hold one path per model input each (as a dataset
// line, but paths may contain blanks),
// the report goes to output_dir/error_analysis.{txt,csv,html}, the first sample's per-layer values to
// output_dir/golden/ and simulator/ (AccuracyOptions::dump_dir).
py::dict AnalyzeAccuracy(const py::bytes& float_model, const py::bytes& quant_model, size_t num_inputs,
                         const std::vector<std::vector<std::string>>& samples,
                         const std::vector<bool>& quant_img_rgb2bgr,
                         const std::string& output_dir, const std::string& title) {
  std::vector<compiler::DatasetSample> parsed;
  for (const std::vector<std::string>& paths : samples) {
    if (paths.size() != num_inputs) {
      RaiseError("a sample has " + std::to_string(paths.size()) + " path(s) for a model with " +
                 std::to_string(num_inputs) + " input(s)");
    }
    compiler::DatasetSample sample;
    sample.paths = paths;
    sample.swap_red_blue = quant_img_rgb2bgr;  // fed as calibration fed its samples
    parsed.push_back(std::move(sample));
  }
  const std::vector<uint8_t> reference = Vector(float_model), quantized = Vector(quant_model);
  compiler::AccuracyReport report;
  compiler::AccuracyOptions options;
  options.dump_dir = output_dir;  // golden/, simulator/, map_name_to_file.txt, as rknn-toolkit2 writes them
  Status s = Status::Ok();
  {
    py::gil_scoped_release release;
    s = compiler::AnalyzeAccuracy(reference, quantized, parsed, options, &report);
  }
  if (!s.ok()) RaiseError(s.message());
  std::error_code ec;
  std::filesystem::create_directories(output_dir, ec);
  if (ec) RaiseError("cannot create '" + output_dir + "': " + ec.message());
  const std::string dir = output_dir + "/";
  WriteFile(dir + "error_analysis.txt", compiler::FormatAccuracyText(report));
  WriteFile(dir + "error_analysis.csv", compiler::FormatAccuracyCsv(report));
  WriteFile(dir + "error_analysis.html", compiler::FormatAccuracyHtml(report, title, 10));
  py::list layers, outputs;
  for (const compiler::LayerAccuracy& l : report.layers) {
    py::dict d;
    d["node"] = l.node;
    d["op_type"] = l.op_type;
    d["tensor"] = l.tensor;
    d["precision"] = l.precision;
    d["entire"] = Metrics(l.entire);
    d["single"] = Metrics(l.single);
    layers.append(d);
  }
  for (const compiler::OutputAccuracy& o : report.outputs) {
    py::dict d = Metrics(o.metrics);
    d["name"] = o.name;
    outputs.append(d);
  }
  py::dict d;
  d["layers"] = layers;
  d["outputs"] = outputs;
  d["samples"] = report.samples;
  d["first_departures"] = compiler::DescribeFirstDepartures(report, compiler::kFp16CosineThreshold);
  return d;
}

}  // namespace

void BindCompiler(py::module_& m) {
  // The fields of `npurt convert`'s options, as strings and lists of strings parsed by the same code.
  py::class_<ConvertArgs>(m, "ConvertArgs", "The settings of `npurt convert` (tools/npurt/convert_options.h)")
      .def(py::init<>())
      .def_readwrite("model", &ConvertArgs::model)
      .def_readwrite("output", &ConvertArgs::output)
      .def_readwrite("name", &ConvertArgs::name)
      .def_readwrite("target_platform", &ConvertArgs::target_platform)
      .def_readwrite("input_shapes", &ConvertArgs::input_shapes)
      .def_readwrite("inputs", &ConvertArgs::inputs)
      .def_readwrite("outputs", &ConvertArgs::outputs)
      .def_readwrite("mean_values", &ConvertArgs::mean_values)
      .def_readwrite("std_values", &ConvertArgs::std_values)
      .def_readwrite("reorder_channels", &ConvertArgs::reorder_channels)
      .def_readwrite("quant_img_rgb2bgr", &ConvertArgs::quant_img_rgb2bgr)
      .def_readwrite("custom_string", &ConvertArgs::custom_string)
      .def_readwrite("custom_ops", &ConvertArgs::custom_ops)
      .def_readwrite("float_dtype", &ConvertArgs::float_dtype)
      .def_readwrite("batch_size", &ConvertArgs::batch_size)
      .def_readwrite("dynamic_input", &ConvertArgs::dynamic_input)
      .def_readwrite("quantize", &ConvertArgs::quantize)
      .def_readwrite("dataset", &ConvertArgs::dataset)
      .def_readwrite("quantized_algorithm", &ConvertArgs::quantized_algorithm)
      .def_readwrite("quantized_method", &ConvertArgs::quantized_method)
      .def_readwrite("float_layers", &ConvertArgs::float_layers)
      .def_readwrite("int16_layers", &ConvertArgs::int16_layers)
      .def_readwrite("auto_hybrid", &ConvertArgs::auto_hybrid)
      .def_readwrite("smooth_activations", &ConvertArgs::smooth_activations)
      .def_readwrite("bias_correction", &ConvertArgs::bias_correction)
      .def_readwrite("weight_rounding", &ConvertArgs::weight_rounding);
  m.def("load_config", &LoadConfig, py::arg("path"), py::arg("command") = "rknn_convert",
        "The settings of a YAML config file (rknn_convert's model_config.yml, or npurt convert --config's keys)");
  m.def("import_model", &ImportModel, py::arg("args"),
        "Imports and optimizes args.model: {'inputs': [(name, shape)], 'outputs': [name]}");
  m.def("build", &Build, py::arg("args"),
        "Converts args.model: {'model': bytes, 'float_model': bytes (quantized only), 'quantized', ...}");
  m.def("analyze_accuracy", &AnalyzeAccuracy, py::arg("float_model"), py::arg("quant_model"), py::arg("num_inputs"),
        py::arg("samples"), py::arg("quant_img_rgb2bgr"), py::arg("output_dir"), py::arg("title"),
        "Layer-by-layer comparison; writes output_dir/error_analysis.{txt,csv,html} and returns the metrics");
}

}  // namespace python
}  // namespace npurt
