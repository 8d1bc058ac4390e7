// The conversion pipeline behind `npurt convert` (and the Python toolkit
// later): ONNX file -> import (with eager shape inference and constant
// folding) -> graph passes -> shape inference -> emit the model file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/emit/emitter.h"
#include "compiler/ir/graph.h"
#include "compiler/quant/quantize_graph.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

enum class BiasCorrection { kNone, kWeights, kEmpirical };
enum class WeightRounding { kNearest, kGptq };

struct CompileOptions {
  std::string target_platform = "rk3588";
  // Fixes dynamic or named input dims: input name -> full shape.
  std::map<std::string, Shape> input_shapes;
  // Cut a subgraph: these tensors become the inputs / outputs (empty: the model's own).
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  // Per input (in model input order), one value per channel; empty: none.
  std::vector<std::vector<float>> mean_values;
  std::vector<std::vector<float>> std_values;
  // Per input: reverse the channel order (RGB <-> BGR) in the runtime's input conversion.
  std::vector<bool> reorder_channels;
  // Per input: calibration images are decoded as BGR (rknn-toolkit2's quant_img_RGB2BGR); the model and
  // its input conversion are unchanged (DatasetSample::swap_red_blue).
  std::vector<bool> quant_img_rgb2bgr;
  std::string custom_string;
  // What float values are stored in (rknn-toolkit2's config(float_dtype)): kFloat16 as the NPU does -- float
  // weights, float inputs and every float op's output rounded to fp16, arithmetic inside an op in float32
  // (docs/design.md) -- for float models and the float layers of quantized ones; or kFloat32, ONNX Runtime's
  // numbers. `npurt convert` and the Python toolkit default to float16, as the board; this struct to
  // float32, for the parity harnesses and tools that compare with float32 references.
  DataType float_dtype = DataType::kFloat32;
  // rknn-toolkit2's config(remove_weight=True) (`--remove-weight`): the model leaves out its constants of
  // 1 KiB or more and takes them at rknn_init from a context of the model converted from the same weights
  // and settings without it (RKNN_FLAG_SHARE_WEIGHT_MEM); docs/c_api.md "Shared weights".
  bool remove_weight = false;
  // Op types that are custom ops in any domain, ONNX's own included (`--custom-op`; the Python toolkit's
  // reg_custom_op): what rknn-toolkit2 calls a non-ONNX-standard op. Nodes of non-ONNX domains are custom
  // ops without being named here.
  std::vector<std::string> custom_op_types;
  // Plugin libraries implementing custom ops (`--custom-op-plugin`; compiler/quant/custom_op_plugins.h): with
  // them a model with custom ops can be quantized (calibration runs them) and analysed.
  std::vector<std::string> custom_op_plugins;
  // rknn-toolkit2's rknn_batch_size (`--batch-size`): > 1 turns a batch-1 model into one that takes
  // this many frames per run; every output must then have it as its first dim. Calibration feeds each
  // sample to every batch slot.
  int64_t batch_size = 1;
  // rknn-toolkit2's dynamic_input (`--dynamic-input`): input shape sets, each one full shape per model
  // input in input order. The model is compiled once per set (weights shared) and the application picks a
  // set with rknn_set_input_shapes. Quantization calibrates on the largest set (most input elements), as
  // rknn-toolkit2 does, and every set uses its quantization parameters.
  std::vector<std::vector<Shape>> dynamic_input;

  // INT8 (`npurt convert --quantize`, rknn-toolkit2's build(do_quantization=True)):
  // calibrate on the dataset file (rknn-toolkit2 format, compiler/quant/dataset.h),
  // then quantize (compiler/quant/quantize_graph.h).
  bool quantize = false;
  std::string dataset;
  std::string quantized_algorithm = "normal";  // normal, mmse, kl_divergence
  std::string quantized_method = "channel";    // channel, layer
  std::vector<std::string> float_layers;       // node names kept in float
  std::vector<std::string> int16_layers;       // node names with int16 activations
  // npurt's default recipe (docs/quantization.md): smoothing, then int16 activations wherever the
  // layers reading them do at most kDefaultInt16MacBudget of the model's MACs. rknn-toolkit2's plain
  // w8a8 `normal` is smooth_activations = false, int16_mac_budget = 0, bias_correction = kNone,
  // weight_rounding = kNearest.
  double int16_mac_budget = 0.08;              // QuantizeOptions::int16_mac_budget
  bool smooth_activations = true;              // quant/smooth_activations.h, then recalibration
  // After quantizing, each Conv / ConvTranspose bias absorbs the mean error
  // per output channel that its layer adds on its own ("single" in
  // accuracy_analysis.h: weight rounding and input quantization together),
  // measured on the first kBiasCorrectionSamples calibration samples
  // (kEmpirical, the default); or the weights' rounding only, from the
  // calibrated input means (kWeights, QuantizeOptions::bias_correction); or
  // nothing (kNone).
  BiasCorrection bias_correction = BiasCorrection::kEmpirical;
  // Weights of Conv / Gemm / MatMul round with GPTQ on the calibration samples' inputs where they determine
  // it (kGptq, the default; quant/weight_rounding.h), or each to its nearest code (kNearest).
  WeightRounding weight_rounding = WeightRounding::kGptq;
  float int16_headroom = 1.0f;                 // QuantizeOptions::int16_headroom
  // > 0 (--auto-hybrid [THRESH], rknn-toolkit2's default 0.98): after
  // quantizing, every int8 layer whose "single" cosine (accuracy_analysis.h,
  // on the first kAutoHybridSamples calibration samples) is below the
  // threshold becomes an int16 layer; one still below after that becomes a
  // float layer. Repeated until nothing moves (at most kAutoHybridRounds).
  double auto_hybrid_threshold = 0.0;
  bool progress = false;                       // calibration progress bar on a terminal
};

// What Build did beyond emitting (zero-filled for float models).
struct BuildReport {
  bool quantized = false;
  // A QDQ model: quantized with its own QuantizeLinear / DequantizeLinear parameters (Build, whatever
  // options.quantize says, as rknn-toolkit2 builds a QAT model without do_quantization).
  bool model_params = false;
  size_t calibration_samples = 0;
  QuantizeReport quant;
  int smoothed_tensors = 0;  // --smooth-activations
  // The float32 model the quantized one was calibrated from: the graph after the
  // exact rewrites quantization makes (smoothing), so its tensors have the
  // same values as the quantized model's, up to quantization -- the reference
  // for layer-by-layer comparisons (npurt accuracy). For a float model built in
  // float16, the same graph in float32.
  std::vector<uint8_t> float_reference;
  // --auto-hybrid: the layers it moved, "name (single cosine)" in the order found.
  std::vector<std::string> auto_int16;
  std::vector<std::string> auto_float;
  // float16: the float constants with values beyond fp16's range (now +-inf), "'name' (N of M values)".
  std::vector<std::string> half_overflow_constants;
};

constexpr size_t kAutoHybridSamples = 4;
constexpr size_t kBiasCorrectionSamples = 16;
constexpr double kDefaultAutoHybridThreshold = 0.98;
constexpr int kAutoHybridRounds = 3;

// Converts an ONNX model file into npurt model file bytes. Errors name the
// problem (unsupported op with its type, name, opset and the supported list;
// a dynamic dim without --input-shapes naming the input; a corrupt file).
Status CompileOnnxFile(const std::string& onnx_path, const CompileOptions& options, std::vector<uint8_t>* model,
                       BuildReport* report = nullptr);

// The same, stopping before emission (for `npurt info`-style inspection and tests).
Status ImportAndOptimize(const std::string& onnx_path, const CompileOptions& options, Graph* graph);

// The last step of CompileOnnxFile: an optimized float graph to model-file
// bytes; with options.quantize, calibration and quantization first (the graph
// is rewritten to int8). `report` may be nullptr.
Status Build(const CompileOptions& options, Graph* graph, std::vector<uint8_t>* model, BuildReport* report);

}  // namespace compiler
}  // namespace npurt
