// Layer-by-layer accuracy of a quantized model against its float model
// (rknn-toolkit2's accuracy_analysis, `npurt accuracy`).
//
// Both models come from the same optimized graph (compile.h: the float model
// is Build without quantize, the quantized one Build with it), so every
// tensor the quantizer kept has the same name in both. Quantized ops keep
// their node and output names; a QuantizeLinear / DequantizeLinear boundary
// the quantizer inserted ('<t>:quantize' -> '<t>:int8', '<t>:dequantize' ->
// '<t>:float') is compared with its input's counterpart, i.e. with '<t>'.
//
// Per sample, three runs through the runtime (Context::Run with an observer):
//   1. the float model: every tensor an op reads or writes is kept by name
//      (the references);
//   2. "entire": the quantized model as it runs for an application; each op
//      output, dequantized, against its reference. Errors accumulate from
//      layer to layer.
//   3. "single": the quantized model again, but before each op its
//      activation inputs are overwritten with their references (quantized
//      with that input tensor's own parameters when it is int8), so each
//      op's output error is the error that op alone adds: its own
//      quantization of weights, arithmetic and output rounding. One run of
//      the whole model instead of one per op: the observer rewrites the
//      arena just before the op reads it.
// A layer's "single" error thus also contains its output's rounding, which
// an int16 or float version of it would not have, so "single" ranks the
// layers worth keeping in higher precision (--auto-hybrid).
//
// Metrics of a tensor x against its reference r (n values, in double):
//   cosine    = Σ r·x / (|r| |x|)  -- 1 when both are all zero, 0 when only one is;
//   euclidean = sqrt(Σ (r − x)²);
//   sqnr_db   = 10·log10(Σ r² / Σ (r − x)²) -- +inf when x == r exactly.
// With several samples, cosine and euclidean are the mean of the per-sample
// values; SQNR pools the energies of every sample (Σ over samples of Σ r²
// over Σ over samples of Σ (r − x)²), so one exact sample cannot make it
// infinite.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "compiler/quant/dataset.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

struct ErrorMetrics {
  double cosine = 1.0;
  double euclidean = 0.0;
  double sqnr_db = 0.0;
  // Values that are inf or NaN where the reference is finite (an fp16 overflow, or what one led to), and
  // the reference's range (over every sample; 0 and 0 for no values).
  int64_t nonfinite = 0;
  double ref_min = 0.0, ref_max = 0.0;
};

// Running sums of one comparison, so that values of several tensors or
// samples can be pooled before the metrics are taken.
struct ErrorSums {
  double dot = 0.0;     // Σ r·x
  double ref_sq = 0.0;  // Σ r²
  double x_sq = 0.0;    // Σ x²
  double err_sq = 0.0;  // Σ (r − x)²
  int64_t nonfinite = 0;  // x not finite where r is
  double ref_min = std::numeric_limits<double>::infinity(), ref_max = -std::numeric_limits<double>::infinity();

  void Add(const float* ref, const float* x, int64_t n);
  ErrorMetrics Metrics() const;
};

// The metrics of `x` against `ref` (n values each), as defined above.
ErrorMetrics CompareValues(const float* ref, const float* x, int64_t n);

// 10·log10(ref_sq / err_sq): +inf for err_sq == 0 (also when ref_sq == 0).
double SqnrDb(double ref_sq, double err_sq);

struct LayerAccuracy {
  int op_index = 0;       // position in the quantized model's execution order
  std::string node;       // op name in the quantized model
  std::string op_type;    // runtime op ("Conv", "QuantizeLinear", ...)
  std::string tensor;     // the output compared (ops with several outputs get one entry per output)
  std::string reference;  // its counterpart in the float model
  std::string precision;  // the type the op writes its output in: "int8", "float32", ...
  int64_t macs = 0;       // multiply-accumulates (Conv, ConvTranspose, Gemm, MatMul; else 0)
  ErrorMetrics entire;
  ErrorMetrics single;
  // With AccuracyOptions::channel_bias: per channel (axis 1) of a rank >= 3 output, the mean of
  // (quantized - float) in the "single" run, over samples and positions; else empty.
  std::vector<double> single_channel_bias;
};

struct OutputAccuracy {
  std::string name;      // model output tensor
  ErrorMetrics metrics;  // the quantized model's output (dequantized) against the float model's
};

struct AccuracyReport {
  std::vector<LayerAccuracy> layers;  // in execution order
  std::vector<OutputAccuracy> outputs;  // in model output order
  size_t samples = 0;
};

struct AccuracyOptions {
  bool entire = true;  // run 2 above; --auto-hybrid needs only "single"
  bool single = true;  // run 3 above
  bool channel_bias = false;  // with single: LayerAccuracy::single_channel_bias (empirical bias correction)
  // Not empty (with entire): rknn-toolkit2's per-layer dumps of the first sample, float32 .npy in each
  // tensor's own (ONNX) layout: DIR/golden/ the float model's values, DIR/simulator/ the quantized
  // model's (dequantized), and DIR/map_name_to_file.txt ("tensor file" per compared layer).
  std::string dump_dir;
};

// Compares `quant_model` with `float_model` (npurt model-file bytes) on
// `samples`, fed as calibration feeds them (calibrator.h FeedSample).
// Metrics not computed (options) are left at their defaults. Errors name the
// problem: an empty model or sample list, models whose inputs differ in count
// or shape, a sample that cannot be fed ("sample 2: input 0 'x': cannot
// decode 'a.png': ..."), a failing op, a tensor whose size differs from its
// reference.
Status AnalyzeAccuracy(const std::vector<uint8_t>& float_model, const std::vector<uint8_t>& quant_model,
                       const std::vector<DatasetSample>& samples, const AccuracyOptions& options,
                       AccuracyReport* report);

// The report files, formatted in accuracy_report.cc (rknn-toolkit2's error_analysis.txt shape, plus CSV and a
// self-contained HTML page with an SVG chart of entire and single cosine per
// layer and the `worst` layers by single cosine highlighted). Return the text.
std::string FormatAccuracyText(const AccuracyReport& report);
std::string FormatAccuracyCsv(const AccuracyReport& report);
std::string FormatAccuracyHtml(const AccuracyReport& report, const std::string& title, size_t worst);

// Where an fp16 (or int8) model first departs from its float32 reference, in execution order: the
// first layer whose "entire" output has nonfinite values, and the first whose "entire" cosine is below
// `threshold` (NaN counts as below); -1: none.
int FirstNonFiniteLayer(const AccuracyReport& report);
int FirstLayerBelow(const AccuracyReport& report, double threshold);
// Those two as lines for people ("" when neither exists), e.g.
// "first overflow: layer 'mm' (MatMul, float16): 12 values inf or NaN; float32 range [-7.1e+04, 7.3e+04]".
std::string DescribeFirstDepartures(const AccuracyReport& report, double threshold);
constexpr double kFp16CosineThreshold = 0.999;

// Indices into report.layers of the `count` lowest single cosines, worst first
// (ties keep execution order).
std::vector<size_t> WorstLayers(const AccuracyReport& report, size_t count);

}  // namespace compiler
}  // namespace npurt
