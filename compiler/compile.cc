#include "compiler/compile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>

#include "compiler/emit/target_platform.h"
#include "compiler/onnx/onnx_importer.h"
#include "compiler/passes/pass_pipeline.h"
#include "compiler/passes/passes.h"
#include "compiler/quant/accuracy_analysis.h"
#include "compiler/quant/calibrator.h"
#include "compiler/quant/custom_op_plugins.h"
#include "compiler/quant/dataset.h"
#include "compiler/quant/smooth_activations.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "runtime/kernels/dispatch.h"

namespace npurt {
namespace compiler {

namespace {

// Expands one --mean-values / --std-values list to the input's channel count
// (a single value applies to every channel).
Status PerChannel(const char* what, const IrTensor& t, const std::vector<float>& values, std::vector<float>* out) {
  if (t.shape.size() != 4) {
    return NPURT_ERROR(kParamInvalid, "%s given for input '%s' of shape %s; they apply to 4-D (image) inputs only",
                       what, t.name.c_str(), ShapeToString(t.shape).c_str());
  }
  const size_t channels = static_cast<size_t>(t.shape[1]);
  if (values.size() != channels && values.size() != 1) {
    return NPURT_ERROR(kParamInvalid, "%s for input '%s': %zu values given, the input has %zu channels", what,
                       t.name.c_str(), values.size(), channels);
  }
  for (float v : values) {
    if (!std::isfinite(v)) return NPURT_ERROR(kParamInvalid, "%s for input '%s': value %g", what, t.name.c_str(), v);
  }
  out->assign(channels, values[0]);
  if (values.size() == channels) *out = values;
  return Status::Ok();
}

// mean/std/channel reorder of CompileOptions -> the graph inputs' IrInput records.
Status ApplyInputPreprocessing(const CompileOptions& options, Graph* graph) {
  const size_t n = graph->inputs().size();
  const struct {
    const char* what;
    size_t count;
  } lists[] = {{"mean values", options.mean_values.size()},
               {"std values", options.std_values.size()},
               {"channel reorder flags", options.reorder_channels.size()}};
  for (const auto& l : lists) {
    if (l.count > n) {
      return NPURT_ERROR(kParamInvalid, "%s given for %zu inputs, the model has %zu", l.what, l.count, n);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    IrInput& in = graph->inputs()[i];
    const IrTensor& t = graph->tensors()[in.tensor];
    if (i < options.mean_values.size() && !options.mean_values[i].empty()) {
      NPURT_RETURN_IF_ERROR(PerChannel("mean values", t, options.mean_values[i], &in.mean));
    }
    if (i < options.std_values.size() && !options.std_values[i].empty()) {
      NPURT_RETURN_IF_ERROR(PerChannel("std values", t, options.std_values[i], &in.std));
      for (float s : in.std) {
        if (s == 0.0f) return NPURT_ERROR(kParamInvalid, "std values for input '%s' contain 0", t.name.c_str());
      }
    }
    if (i < options.reorder_channels.size() && options.reorder_channels[i]) {
      if (t.shape.size() != 4) {
        return NPURT_ERROR(kParamInvalid, "channel reorder given for input '%s' of shape %s; it applies to 4-D inputs",
                           t.name.c_str(), ShapeToString(t.shape).c_str());
      }
      in.channel_order.clear();
      for (int64_t c = t.shape[1]; c-- > 0;) in.channel_order.push_back(static_cast<int>(c));
    }
    if ((!in.mean.empty() || !in.std.empty() || !in.channel_order.empty()) && t.dtype != DataType::kFloat32) {
      return NPURT_ERROR(kParamInvalid, "input '%s' has type %s; mean/std/reorder need a float input", t.name.c_str(),
                         DataTypeName(t.dtype));
    }
  }
  return Status::Ok();
}

// A model whose graph fixes batch 1 somewhere (a Reshape to [1, -1], ...) would mix the frames of a
// batch silently; its outputs then lose the batch dim, which is what this catches.
Status CheckBatchedOutputs(int64_t batch_size, const Graph& graph) {
  if (batch_size <= 1) return Status::Ok();
  for (int id : graph.outputs()) {
    const IrTensor& t = graph.tensors()[id];
    if (t.shape.empty() || t.shape[0] != batch_size) {
      return NPURT_ERROR(kParamInvalid,
                         "--batch-size %lld: output '%s' has shape %s, not %lld frames; the model fixes its batch "
                         "to 1 somewhere (e.g. a Reshape to [1, -1]): export the ONNX model with a batch dim "
                         "that follows the input",
                         static_cast<long long>(batch_size), t.name.c_str(), ShapeToString(t.shape).c_str(),
                         static_cast<long long>(batch_size));
    }
  }
  return Status::Ok();
}

// ImportAndOptimize with the inputs' shapes given by position (a dynamic_input shape set).
Status ImportWithShapes(const std::string& onnx_path, const CompileOptions& options,
                        const std::vector<Shape>& input_shape_list, Graph* graph) {
  ImportOptions import;
  import.input_shapes = options.input_shapes;
  import.input_shape_list = input_shape_list;
  import.inputs = options.inputs;
  import.outputs = options.outputs;
  import.batch_size = options.batch_size;
  import.custom_op_types = options.custom_op_types;
  NPURT_RETURN_IF_ERROR(ImportOnnxFile(onnx_path, import, graph));
  NPURT_RETURN_IF_ERROR(ApplyInputPreprocessing(options, graph));
  NPURT_RETURN_IF_ERROR(RunPasses(PassOptions(), graph));
  NPURT_RETURN_IF_ERROR(graph->InferShapes());
  return CheckBatchedOutputs(options.batch_size, *graph);
}

}  // namespace

Status ImportAndOptimize(const std::string& onnx_path, const CompileOptions& options, Graph* graph) {
  return ImportWithShapes(onnx_path, options, {}, graph);
}


namespace {

// --auto-hybrid: quantize a copy, measure each layer's own error, move the
// layers below the threshold up one precision (int8 -> int16 -> float), repeat.
Status ChooseHybridLayers(const CompileOptions& options, const Graph& graph, const EmitOptions& emit,
                          const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                          const std::map<std::string, TensorStats>& stats, QuantizeOptions* quant,
                          BuildReport* report) {
  const std::vector<DatasetSample> probe(samples.begin(),
                                         samples.begin() + static_cast<std::ptrdiff_t>(std::min(samples.size(), kAutoHybridSamples)));
  AccuracyOptions analysis;
  analysis.entire = false;
  for (int round = 0; round < kAutoHybridRounds; ++round) {
    Graph trial = graph;
    QuantizeReport unused;
    NPURT_RETURN_IF_ERROR(QuantizeGraph(stats, *quant, &trial, &unused));
    std::vector<uint8_t> trial_model;
    NPURT_RETURN_IF_ERROR(EmitModel(trial, emit, &trial_model));
    AccuracyReport accuracy;
    NPURT_RETURN_IF_ERROR(AnalyzeAccuracy(float_model, trial_model, probe, analysis, &accuracy));
    bool moved = false;
    for (const LayerAccuracy& layer : accuracy.layers) {
      if (layer.op_type == "QuantizeLinear" || layer.op_type == "DequantizeLinear") continue;
      if (!(layer.single.cosine < options.auto_hybrid_threshold) || quant->float_layers.count(layer.node)) continue;
      char entry[256];
      std::snprintf(entry, sizeof(entry), "%s (%.5f)", layer.node.c_str(), layer.single.cosine);
      if (quant->int16_layers.count(layer.node) || layer.precision == "int16") {
        quant->int16_layers.erase(layer.node);
        quant->float_layers.insert(layer.node);
        report->auto_float.push_back(entry);
      } else {
        quant->int16_layers.insert(layer.node);
        report->auto_int16.push_back(entry);
      }
      moved = true;
    }
    if (!moved) break;
  }
  return Status::Ok();
}

// BiasCorrection::kEmpirical on the quantized graph: measure each layer's own mean error per output channel,
// then move its int32 bias codes by minus that error (in bias steps), where the int32 accumulator bound still
// holds. With a fused activation the error is measured after it; the bias moves before it, which is exact
// where the activation is the identity and an approximation elsewhere.
Status CorrectBiasEmpirically(const EmitOptions& emit, const std::vector<uint8_t>& float_model,
                              const std::vector<DatasetSample>& samples, Graph* graph) {
  std::vector<uint8_t> quant_model;
  NPURT_RETURN_IF_ERROR(EmitModel(*graph, emit, &quant_model));
  const std::vector<DatasetSample> probe(
      samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(std::min(samples.size(), kBiasCorrectionSamples)));
  AccuracyOptions analysis;
  analysis.entire = false;
  analysis.channel_bias = true;
  AccuracyReport accuracy;
  NPURT_RETURN_IF_ERROR(AnalyzeAccuracy(float_model, quant_model, probe, analysis, &accuracy));
  Graph& g = *graph;
  for (const LayerAccuracy& layer : accuracy.layers) {
    if ((layer.op_type != "Conv" && layer.op_type != "ConvTranspose") || layer.single_channel_bias.empty()) continue;
    auto node = std::find_if(g.nodes().begin(), g.nodes().end(), [&](const IrNode& n) { return n.name == layer.node; });
    if (node == g.nodes().end() || node->inputs.size() < 3 || node->inputs[2] < 0) continue;
    IrTensor& bias = g.tensors()[node->inputs[2]];
    const IrTensor& w = g.tensors()[node->inputs[1]];
    const size_t maps = layer.single_channel_bias.size();
    if (bias.dtype != DataType::kInt32 || w.dtype != DataType::kInt8 || bias.data.size() != maps * 4 ||
        (bias.quant.scale.size() != 1 && bias.quant.scale.size() != maps)) {
      continue;
    }
    // Σ|weight codes| per output channel, for the int32 accumulator bound (as the quantizer keeps it).
    int64_t group = 1;
    if (!node->attrs.GetInt("group", 1, &group).ok()) continue;
    const int8_t* codes = reinterpret_cast<const int8_t*>(w.data.data());
    std::vector<double> abs_codes(maps, 0.0);
    bool fits = true;
    const bool ok = ForEachConvWeight(layer.op_type == "ConvTranspose", w.shape, group, [&](int64_t m, int64_t, size_t at) {
      if (static_cast<size_t>(m) >= maps || at >= w.data.size()) {
        fits = false;
      } else {
        abs_codes[static_cast<size_t>(m)] += std::abs(codes[at]);
      }
    });
    if (!ok || !fits) continue;
    const double max_input = g.tensors()[node->inputs[0]].dtype == DataType::kInt8 ? 255.0 : 0.0;
    for (size_t m = 0; m < maps; ++m) {
      int32_t code = 0;
      std::memcpy(&code, &bias.data[m * 4], 4);
      const double scale = bias.quant.scale[bias.quant.scale.size() == 1 ? 0 : m];
      const double moved = static_cast<double>(code) - std::nearbyint(layer.single_channel_bias[m] / scale);
      if (!FitsAccumulator(moved, max_input, abs_codes[m])) continue;
      code = static_cast<int32_t>(moved);
      std::memcpy(&bias.data[m * 4], &code, 4);
    }
  }
  return Status::Ok();
}

// What the convolutions' epilogues take over, run last (passes.h): residual adds first (they need a Conv
// without an activation), then the affines after an activation.
void FuseConvolutionEpilogues(Graph* graph) {
  FuseResidualAdds(graph);
  FuseOutputAffines(graph);
}

// The runtime's prepare checks what shape functions cannot (weight axes, accumulator bounds): a quantized
// or dynamic-shape model (`what`) that would not initialize is a conversion error, not a surprise at rknn_init.
Status CheckInitializes(const std::vector<uint8_t>& model, const char* what) {
  std::shared_ptr<const Model> loaded;
  std::unique_ptr<Context> context;
  Status s = Model::Load(model.data(), model.size(), &loaded);
  if (s.ok()) s = Context::Create(loaded, ContextOptions(), &context);
  if (!s.ok()) return NPURT_ERROR(kFail, "internal error: the %s model does not initialize: %s", what, s.message().c_str());
  return Status::Ok();
}

// rknn-toolkit2's remove_weight: `full` again without its shareable constants (emitted from the same final
// graphs), checked to initialize with a context of `full` lending them, as RKNN_FLAG_SHARE_WEIGHT_MEM will.
// `emit_graphs` emits the final graph(s) with the options it is given.
Status RemoveWeights(const CompileOptions& options,
                     const std::function<Status(const EmitOptions&, std::vector<uint8_t>*)>& emit_graphs,
                     std::vector<uint8_t>* model) {
  EmitOptions emit;
  emit.target_platform = options.target_platform;
  emit.custom_string = options.custom_string;
  emit.float_dtype = options.float_dtype == DataType::kFloat16 ? DataType::kFloat16 : DataType::kFloat32;
  std::vector<uint8_t> same;
  NPURT_RETURN_IF_ERROR(emit_graphs(emit, &same));
  if (same != *model) return NPURT_ERROR(kFail, "internal error: remove_weight: the model does not emit again the same");
  emit.remove_weight = true;
  std::vector<uint8_t> weightless;
  NPURT_RETURN_IF_ERROR(emit_graphs(emit, &weightless));
  std::shared_ptr<const Model> full_model, weightless_model;
  std::unique_ptr<Context> owner, sharer;
  Status s = Model::Load(model->data(), model->size(), &full_model);
  if (s.ok()) s = Model::Load(weightless.data(), weightless.size(), &weightless_model);
  if (s.ok()) s = Context::Create(full_model, ContextOptions(), &owner);
  ContextOptions shares;
  shares.weights_from = owner.get();
  if (s.ok()) s = Context::Create(weightless_model, shares, &sharer);
  if (!s.ok()) return NPURT_ERROR(kFail, "internal error: the remove_weight model does not initialize: %s", s.message().c_str());
  *model = std::move(weightless);
  return Status::Ok();
}

// The model file Build returns: with float16, the float constants rounded first (they are not needed in
// float32 afterwards) and the runtime told to round every float op's output.
Status EmitFinal(DataType float_dtype, const EmitOptions& emit, Graph* graph, std::vector<uint8_t>* model,
                 BuildReport* report) {
  if (float_dtype != DataType::kFloat16) return EmitModel(*graph, emit, model);
  RoundFloatConstantsToHalf(graph, &report->half_overflow_constants);
  EmitOptions half = emit;
  half.float_dtype = DataType::kFloat16;
  return EmitModel(*graph, half, model);
}

Status EmitQuantizedModel(DataType float_dtype, const EmitOptions& emit, Graph* graph, std::vector<uint8_t>* model,
                          BuildReport* report) {
  NPURT_RETURN_IF_ERROR(EmitFinal(float_dtype, emit, graph, model, report));
  return CheckInitializes(*model, "quantized");
}

// A QDQ model (compiler/passes/extract_qdq_params.cc): its own scales and zero points, plain w8a8 (no int16
// layers, smoothing, bias correction or GPTQ: each would move the parameters the model was trained or
// tuned with). A dataset, when given, calibrates the tensors the model leaves without parameters; without
// one such tensors stay float.
Status BuildWithModelParams(const CompileOptions& options, const EmitOptions& emit, QuantizeOptions quant,
                            Graph* graph, std::vector<uint8_t>* model, BuildReport* report) {
  if (!options.int16_layers.empty() || options.auto_hybrid_threshold > 0.0) {
    return NPURT_ERROR(kParamInvalid,
                       "the model is quantized (QuantizeLinear / DequantizeLinear pairs) and keeps its own int8 "
                       "parameters: int16 layers and --auto-hybrid do not apply (--float-layers does)");
  }
  std::vector<uint8_t> float_model;
  NPURT_RETURN_IF_ERROR(EmitModel(*graph, emit, &float_model));
  std::map<std::string, TensorStats> stats;
  if (!options.dataset.empty()) {
    std::vector<DatasetSample> samples;
    NPURT_RETURN_IF_ERROR(ReadDatasetFile(options.dataset, graph->inputs().size(), &samples));
    for (DatasetSample& sample : samples) sample.swap_red_blue = options.quant_img_rgb2bgr;
    CalibrationOptions calibration;
    calibration.histograms = quant.algorithm != QuantAlgorithm::kNormal;
    calibration.progress = options.progress;
    NPURT_RETURN_IF_ERROR(Calibrate(float_model, samples, calibration, &stats));
    report->calibration_samples = samples.size();
  }
  NPURT_RETURN_IF_ERROR(QuantizeGraph(stats, quant, graph, &report->quant));
  // Fusions skip every tensor the model rounds (GraphIndex::SoleConsumer): a residual Add after a
  // convolution whose output has a QDQ pair stays an op (on a QDQ MobileNetV2, 97.3 % of the first residual
  // block's codes equal ONNX Runtime's with the fusion, 99.99 % without).
  FuseConvolutionEpilogues(graph);
  report->float_reference = std::move(float_model);
  report->quantized = true;
  report->model_params = true;
  return EmitQuantizedModel(options.float_dtype, emit, graph, model, report);
}

}  // namespace

namespace {

Status BuildFull(const CompileOptions& options, Graph* graph, std::vector<uint8_t>* model, BuildReport* report) {
  // Calibration, hybrid choices and bias correction run the model through the runtime: on the reference
  // kernels, so that a conversion gives the same file on every machine (optimized kernels differ by the
  // CPU's ISA in their float sums; int8 is the reference's bits on every target, but calibration reads float too).
  const ScopedCpuTargetCap reference_kernels(CpuTarget::kRef);
  BuildReport local;
  if (report == nullptr) report = &local;
  *report = BuildReport();
  EmitOptions emit;
  emit.target_platform = options.target_platform;
  emit.custom_string = options.custom_string;
  const bool model_params = HasModelActivationParams(*graph);
  for (const std::string& path : options.custom_op_plugins) NPURT_RETURN_IF_ERROR(UseCustomOpPlugin(path));
  if (options.float_dtype != DataType::kFloat32 && options.float_dtype != DataType::kFloat16) {
    return NPURT_ERROR(kParamInvalid, "float type %s: float16 or float32 only", DataTypeName(options.float_dtype));
  }
  if (!options.quantize && !model_params) {
    FuseConvolutionEpilogues(graph);
    if (options.float_dtype == DataType::kFloat16) NPURT_RETURN_IF_ERROR(EmitModel(*graph, emit, &report->float_reference));
    return EmitFinal(options.float_dtype, emit, graph, model, report);
  }

  for (const IrNode& n : graph->nodes()) {
    // Calibration runs the float model: a custom op's code must be at hand.
    std::string type;
    if (n.op_type != "Custom" || model_params || !n.attrs.GetString(kCustomOpTypeAttr, "", &type).ok()) continue;
    if (!HasCustomOpImplementation(type)) {
      return NPURT_ERROR(kParamInvalid,
                         "node '%s' is a custom op ('%s'): calibration runs the model, so the converter needs its "
                         "code: give a plugin library exporting get_rknn_custom_op() (--custom-op-plugin), or "
                         "convert this model in float (without --quantize)",
                         n.name.c_str(), type.c_str());
    }
  }
  QuantizeOptions quant;
  NPURT_RETURN_IF_ERROR(ParseQuantAlgorithm(options.quantized_algorithm, &quant.algorithm));
  if (options.quantized_method != "channel" && options.quantized_method != "layer") {
    return NPURT_ERROR(kParamInvalid, "unknown quantized method '%s' (known: channel, layer)",
                       options.quantized_method.c_str());
  }
  quant.per_channel = options.quantized_method == "channel";
  quant.float_layers.insert(options.float_layers.begin(), options.float_layers.end());
  if (model_params) return BuildWithModelParams(options, emit, quant, graph, model, report);
  quant.int16_layers.insert(options.int16_layers.begin(), options.int16_layers.end());
  quant.int16_mac_budget = options.int16_mac_budget;
  quant.int16_headroom = options.int16_headroom;
  quant.bias_correction = options.bias_correction == BiasCorrection::kWeights;
  quant.zero_biases = options.bias_correction == BiasCorrection::kEmpirical;
  if (options.dataset.empty()) {
    return NPURT_ERROR(kParamInvalid, "quantization needs a calibration dataset (--dataset dataset.txt)");
  }
  std::vector<DatasetSample> samples;
  NPURT_RETURN_IF_ERROR(ReadDatasetFile(options.dataset, graph->inputs().size(), &samples));
  for (DatasetSample& sample : samples) sample.swap_red_blue = options.quant_img_rgb2bgr;
  // Calibration runs the float model through the runtime, exactly as it will be fed.
  std::vector<uint8_t> float_model;
  NPURT_RETURN_IF_ERROR(EmitModel(*graph, emit, &float_model));
  CalibrationOptions calibration;
  calibration.histograms = quant.algorithm != QuantAlgorithm::kNormal;
  calibration.progress = options.progress;
  std::map<std::string, TensorStats> stats;
  NPURT_RETURN_IF_ERROR(Calibrate(float_model, samples, calibration, &stats));
  if (options.smooth_activations) {
    NPURT_RETURN_IF_ERROR(SmoothActivations(stats, graph, &report->smoothed_tensors));
    if (report->smoothed_tensors > 0) {  // the rewritten tensors' ranges changed
      NPURT_RETURN_IF_ERROR(EmitModel(*graph, emit, &float_model));
      NPURT_RETURN_IF_ERROR(Calibrate(float_model, samples, calibration, &stats));
    }
  }
  std::map<std::string, RoundingSystem> rounding;
  if (options.weight_rounding == WeightRounding::kGptq) {
    NPURT_RETURN_IF_ERROR(CollectRoundingSystems(float_model, samples, &rounding));
    quant.rounding = &rounding;
  }
  if (options.auto_hybrid_threshold > 0.0) {
    NPURT_RETURN_IF_ERROR(ChooseHybridLayers(options, *graph, emit, float_model, samples, stats, &quant, report));
  }
  NPURT_RETURN_IF_ERROR(QuantizeGraph(stats, quant, graph, &report->quant));
  if (options.bias_correction == BiasCorrection::kEmpirical) {
    NPURT_RETURN_IF_ERROR(CorrectBiasEmpirically(emit, float_model, samples, graph));
  }
  // After everything that measures the quantized ops one by one (see passes.h).
  FuseConvolutionEpilogues(graph);
  report->float_reference = std::move(float_model);
  report->quantized = true;
  report->calibration_samples = samples.size();
  return EmitQuantizedModel(options.float_dtype, emit, graph, model, report);
}

}  // namespace

Status Build(const CompileOptions& options, Graph* graph, std::vector<uint8_t>* model, BuildReport* report) {
  NPURT_RETURN_IF_ERROR(BuildFull(options, graph, model, report));  // leaves in `graph` what it emitted last
  if (!options.remove_weight) return Status::Ok();
  return RemoveWeights(
      options, [graph](const EmitOptions& o, std::vector<uint8_t>* file) { return EmitModel(*graph, o, file); }, model);
}

namespace {

constexpr size_t kMaxShapeSets = 512;  // RKNN_MAX_DYNAMIC_SHAPE_NUM

int64_t InputElements(const std::vector<Shape>& set) {
  int64_t n = 0;
  for (const Shape& s : set) n += NumElements(s);
  return n;
}

// Bit for bit: both come from the same ONNX attribute unless a shape changed them.
bool SameAttribute(const Attribute& a, const Attribute& b) {
  return a.name == b.name && a.type == b.type && a.i == b.i && std::memcmp(&a.f, &b.f, sizeof(float)) == 0 &&
         a.ints == b.ints && a.floats.size() == b.floats.size() &&
         (a.floats.empty() || std::memcmp(a.floats.data(), b.floats.data(), a.floats.size() * sizeof(float)) == 0) &&
         a.s == b.s;
}

// Set k can run the largest set's quantized graph only if the two float imports are the same graph
// but for shapes: the same nodes with the same attributes, and the same constants byte for byte. A
// value computed from the input shape at conversion (a folded Shape -> Gather -> Mul, a Resize size)
// differs between the imports and would be silently wrong in set k.
Status CheckSameGraphButShapes(const Graph& largest, const Graph& float_k, size_t k) {
  auto refuse = [k](const std::string& what) {
    return NPURT_ERROR(kParamInvalid,
                       "dynamic input set %zu: %s differs from the largest set's (a value computed from the input "
                       "shape); quantize each shape as its own model",
                       k, what.c_str());
  };
  if (largest.nodes().size() != float_k.nodes().size()) return refuse("the graph");
  for (size_t i = 0; i < largest.nodes().size(); ++i) {
    const IrNode& a = largest.nodes()[i];
    const IrNode& b = float_k.nodes()[i];
    bool same = a.op_type == b.op_type && a.name == b.name && a.attrs.list().size() == b.attrs.list().size() &&
                a.inputs.size() == b.inputs.size();
    for (size_t j = 0; same && j < a.attrs.list().size(); ++j) same = SameAttribute(a.attrs.list()[j], b.attrs.list()[j]);
    for (size_t j = 0; same && j < a.inputs.size(); ++j) {
      const int ta = a.inputs[j], tb = b.inputs[j];
      if (ta < 0 || tb < 0) {
        same = ta == tb;
        continue;
      }
      const IrTensor& x = largest.tensors()[ta];
      const IrTensor& y = float_k.tensors()[tb];
      same = x.name == y.name && x.is_constant == y.is_constant && (!x.is_constant || (x.shape == y.shape && x.data == y.data));
    }
    if (!same) return refuse("node '" + a.name + "'");
  }
  return Status::Ok();
}

// The quantized graph of the largest shape set, with set k's input shapes: every tensor the float
// import of set k also has must come out with the same shape, or a shape is baked into the graph
// (a folded constant) and the set cannot share the quantized graph.
Status ReshapeQuantizedGraph(const Graph& quantized, const Graph& float_k, size_t k, Graph* out) {
  *out = quantized;
  for (size_t i = 0; i < out->inputs().size(); ++i) {
    out->tensors()[out->inputs()[i].tensor].shape = float_k.tensors()[float_k.inputs()[i].tensor].shape;
  }
  Status s = out->InferShapes();
  if (!s.ok()) return NPURT_ERROR(kParamInvalid, "dynamic input set %zu: %s", k, s.message().c_str());
  std::map<std::string, const IrTensor*> float_tensors;
  for (const IrNode& n : float_k.nodes()) {
    for (int o : n.outputs) float_tensors[float_k.tensors()[o].name] = &float_k.tensors()[o];
  }
  // The tensors the nodes write (fusion leaves dead tensors behind, with their old shapes).
  for (const IrNode& n : out->nodes()) {
    for (int o : n.outputs) {
      const IrTensor& t = out->tensors()[o];
      auto it = float_tensors.find(t.name);
      if (it == float_tensors.end() || it->second->shape == t.shape) continue;
      return NPURT_ERROR(kParamInvalid,
                         "dynamic input set %zu: tensor '%s' would be %s in the quantized model but is %s in this "
                         "set's float model (a shape computed at conversion); quantize each shape as its own model",
                         k, t.name.c_str(), ShapeToString(t.shape).c_str(), ShapeToString(it->second->shape).c_str());
    }
  }
  return Status::Ok();
}

Status CompileDynamic(const std::string& onnx_path, const CompileOptions& options, std::vector<uint8_t>* model,
                      BuildReport* report) {
  const std::vector<std::vector<Shape>>& sets = options.dynamic_input;
  if (sets.size() > kMaxShapeSets) {
    return NPURT_ERROR(kParamInvalid, "%zu dynamic input sets, at most %zu", sets.size(), kMaxShapeSets);
  }
  size_t largest = 0;
  for (size_t k = 0; k < sets.size(); ++k) {
    for (size_t j = 0; j < k; ++j) {
      if (sets[j] == sets[k]) return NPURT_ERROR(kParamInvalid, "dynamic input sets %zu and %zu are the same", j, k);
    }
    if (InputElements(sets[k]) > InputElements(sets[largest])) largest = k;
  }
  std::vector<Graph> graphs(sets.size());
  for (size_t k = 0; k < sets.size(); ++k) {
    Status s = ImportWithShapes(onnx_path, options, sets[k], &graphs[k]);
    if (!s.ok()) return Status(s.code(), "dynamic input set " + std::to_string(k) + ": " + s.message());
  }
  for (const IrNode& n : graphs[largest].nodes()) {
    if (n.op_type == "Custom") {  // its outputs' shapes are the one set the ONNX file declares
      return NPURT_ERROR(kParamInvalid, "node '%s' is a custom op, whose output shapes the model declares once: "
                                        "dynamic input shapes are not supported with custom ops",
                         n.name.c_str());
    }
  }
  EmitOptions emit;
  emit.target_platform = options.target_platform;
  emit.custom_string = options.custom_string;
  if (options.quantize) {
    for (size_t k = 0; k < sets.size(); ++k) {
      if (k != largest) NPURT_RETURN_IF_ERROR(CheckSameGraphButShapes(graphs[largest], graphs[k], k));
    }
    // Build quantizes the largest set's graph in place (its own emitted file is not needed).
    std::vector<uint8_t> largest_model;
    NPURT_RETURN_IF_ERROR(Build(options, &graphs[largest], &largest_model, report));
    for (size_t k = 0; k < sets.size(); ++k) {
      if (k == largest) continue;
      Graph q;
      NPURT_RETURN_IF_ERROR(ReshapeQuantizedGraph(graphs[largest], graphs[k], k, &q));
      graphs[k] = std::move(q);
    }
  } else {
    for (Graph& g : graphs) FuseConvolutionEpilogues(&g);  // as Build does: every set keeps one node list
  }
  if (options.float_dtype == DataType::kFloat16) {
    // The same bytes in every set, so still stored once; the sets share their constants, so the largest's
    // overflows are every set's (a quantized largest set was rounded in Build already: nothing new).
    for (size_t k = 0; k < graphs.size(); ++k) {
      RoundFloatConstantsToHalf(&graphs[k], k == largest && report != nullptr ? &report->half_overflow_constants
                                                                             : nullptr);
    }
    emit.float_dtype = DataType::kFloat16;
  }
  NPURT_RETURN_IF_ERROR(EmitDynamicModel(graphs, largest, emit, model));
  NPURT_RETURN_IF_ERROR(CheckInitializes(*model, "dynamic-shape"));
  if (!options.remove_weight) return Status::Ok();
  return RemoveWeights(
      options, [&](const EmitOptions& o, std::vector<uint8_t>* file) { return EmitDynamicModel(graphs, largest, o, file); },
      model);
}

}  // namespace

Status CompileOnnxFile(const std::string& onnx_path, const CompileOptions& options, std::vector<uint8_t>* model,
                       BuildReport* report) {
  if (FindTargetPlatform(options.target_platform) == nullptr) {
    std::string names;
    for (const std::string& n : TargetPlatformNames()) names += (names.empty() ? "" : ", ") + n;
    return NPURT_ERROR(kParamInvalid, "unknown target platform '%s' (known: %s)", options.target_platform.c_str(),
                       names.c_str());
  }
  if (!options.dynamic_input.empty()) return CompileDynamic(onnx_path, options, model, report);
  Graph graph;
  NPURT_RETURN_IF_ERROR(ImportAndOptimize(onnx_path, options, &graph));
  return Build(options, &graph, model, report);
}

}  // namespace compiler
}  // namespace npurt
