// Rewrites an optimized float graph into an int8 graph (w8a8, the scheme of
// rknn-toolkit2's default `quantized_dtype`):
//   - activations: int8, asymmetric, per tensor, range chosen from the
//     calibration statistics (range_estimator.h);
//   - weights of Conv / ConvTranspose / Gemm / MatMul: int8, symmetric, per
//     output channel (or per tensor); biases: int32 at scale_x * scale_w[c];
//   - every other op runs in int8 when the runtime's int8 path accepts it
//     (asked through the op's own shape function), else in float, with
//     explicit QuantizeLinear / DequantizeLinear at the boundaries: never a
//     silent mix;
//   - ops that only move data (Reshape, Transpose, Slice, MaxPool, ...) keep
//     their input's parameters, so they stay byte copies;
//   - graph inputs feeding int8 ops become int8 (the runtime quantizes the
//     application's images on the fly, after mean/std); graph outputs
//     produced in int8 stay int8 (`want_float` dequantizes), as on the board.
#pragma once

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/quant/calibrator.h"
#include "compiler/quant/range_estimator.h"
#include "compiler/quant/weight_rounding.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

struct QuantizeOptions {
  QuantAlgorithm algorithm = QuantAlgorithm::kNormal;
  bool per_channel = true;  // rknn-toolkit2 quantized_method 'channel' (else 'layer')
  // Node names kept in float (rknn-toolkit2's hybrid quantization).
  std::set<std::string> float_layers;
  // Node names whose activations (inputs and outputs) are stored in int16
  // (symmetric, per tensor): more precise tensors at little cost where the
  // node does few multiply-accumulates. Weights stay int8.
  std::set<std::string> int16_layers;
  // > 0: beyond int16_layers, every quantized node without multiply-
  // accumulates is an int16 layer, and so are nodes with MACs, cheapest
  // first, while their MACs stay within this share of the model's. The
  // others (the multiply-heavy layers) read int8.
  double int16_mac_budget = 0.0;
  // int16 ranges: this many times the calibrated one (Int16ActivationQuantInfo).
  float int16_headroom = 1.0f;
  // Bias correction of the weights (Nagel et al. 2019, "Data-Free
  // Quantization"): rounding the weights of a Conv / ConvTranspose to int8
  // shifts each output channel's mean by sum(dW * E[x]) over its inputs; the
  // bias takes the opposite, with E[x] per input channel from calibration
  // (TensorStats::ChannelMean). Off by default: npurt's default corrects
  // measured errors instead (compile.h, BiasCorrection::kEmpirical).
  bool bias_correction = false;
  // Give every Conv / ConvTranspose without bias a zero bias (exact), so that
  // a correction after quantization has an int32 bias to move. Implied by
  // bias_correction.
  bool zero_biases = false;
  // Conv weights of the nodes found here round with GPTQ (weight_rounding.h) instead of to nearest; the
  // scales are the same. Not owned; nullptr: nearest rounding everywhere.
  const std::map<std::string, RoundingSystem>* rounding = nullptr;
};

struct QuantizeReport {
  int int8_nodes = 0;
  int float_nodes = 0;         // compute nodes left in float (not counting Q/DQ)
  int boundary_nodes = 0;      // QuantizeLinear / DequantizeLinear inserted
  int int16_nodes = 0;         // quantized nodes reading (or, moving data, writing) int16 tensors
  int gptq_nodes = 0;          // nodes whose weights took GPTQ codes (QuantizeOptions::rounding)
  int weight_nodes = 0;        // nodes with int8 weights
  int64_t int8_macs = 0;       // multiply-accumulates of Conv/ConvTranspose/Gemm/MatMul
  int64_t int16_macs = 0;      // ... of those reading an int16 activation
  int64_t float_macs = 0;
  std::vector<std::string> float_reasons;  // "node 'x' (LayerNormalization): no int8 kernel"
};

// `graph` must have shapes. `stats` holds the calibration statistics of its
// float tensors by name (Calibrate on the float model emitted from this graph).
// Unknown names in options.float_layers are an error (kParamInvalid) naming them.
Status QuantizeGraph(const std::map<std::string, TensorStats>& stats, const QuantizeOptions& options, Graph* graph,
                     QuantizeReport* report);

// How `--quantize` stores an op type's tensors, for `npurt ops`: "int8, int16" when the quantizer
// has an integer form for it (its activations int8, or int16 for the hybrid scheme's layers), else
// "float" (kept in float, its inputs dequantized and its outputs quantized at the boundary). A node
// of an integer op type may still stay float (a non-constant weight, a form the runtime refuses).
const char* QuantizedStorage(const std::string& op_type);

// The weight layout of a Conv ([M, C/g, k...]) or ConvTranspose ([C, M/g, k...]) with `group` groups:
// f(m, c, index) for every weight element, by output channel m and input channel c. False (f not called)
// for a shape that is not such a weight.
template <typename F>
bool ForEachConvWeight(bool transposed, const Shape& shape, int64_t group, F&& f) {
  if (shape.size() < 2 || group < 1) return false;
  const int64_t in_channels = transposed ? shape[0] : shape[1] * group;
  const int64_t maps = transposed ? shape[1] * group : shape[0];
  if (in_channels % group != 0 || maps % group != 0) return false;
  int64_t taps = 1;
  for (size_t d = 2; d < shape.size(); ++d) taps *= shape[d];
  const int64_t group_in = in_channels / group, group_out = maps / group;
  for (int64_t m = 0; m < maps; ++m) {
    const int64_t g = m / group_out, j = m % group_out;
    for (int64_t ci = 0; ci < group_in; ++ci) {
      const int64_t c = g * group_in + ci;
      const int64_t first = transposed ? (c * group_out + j) * taps : (m * group_in + ci) * taps;
      for (int64_t t = 0; t < taps; ++t) f(m, c, static_cast<size_t>(first + t));
    }
  }
  return true;
}

// The bound every quantized accumulator keeps (|bias code| + max|x - zp| * sum|weight codes|), with a margin
// for the rounding of the scales; the runtime checks the exact int32 range at rknn_init.
constexpr double kAccumulatorLimit = 2147483647.0 * 0.999;

// That bound for one output channel: its bias code, the largest |x - zero point| of its input (255 for int8,
// 0 for int16, which accumulates in int64) and the sum of its |weight codes|. False for NaN.
inline bool FitsAccumulator(double bias_code, double max_input, double abs_weight_codes) {
  return std::fabs(bias_code) + max_input * abs_weight_codes <= kAccumulatorLimit;
}

// Multiply-accumulates of one node (0 for ops that are not Conv, ConvTranspose, Gemm or MatMul).
int64_t NodeMacs(const Graph& graph, const IrNode& node);

}  // namespace compiler
}  // namespace npurt
