// Data-aware rounding of convolution weights to int8 (GPTQ: Frantar et al.
// 2022, the Optimal Brain Quantizer update of Frantar & Alistarh 2022).
//
// Rounding every weight to its nearest code minimizes each weight's own error;
// what the network sees is the error of the layer's output, sum_k (w_k - q_k)
// x_k, over the inputs the layer gets. GPTQ rounds the K weights of one output
// channel one at a time and moves each rounding error onto the weights not yet
// rounded, in proportion to how their inputs correlate:
//
//   H = E[x x^T] over the K inputs of one output channel (im2col patches) +
//       damping (1 % of the mean diagonal), U = upper Cholesky factor of H^-1;
//   for i in order: q_i = clamp(round(w_i / s), -127, 127);
//                   e = (w_i - q_i s) / U_ii;  w_j -= e U_ij for every later j.
//
// Columns are rounded in decreasing order of H's diagonal (the inputs with the
// most energy first, GPTQ's "act order"). The scale s of each channel stays the
// quantizer's (max |w| / 127, or wider for the int32 accumulator bound): only the rounding direction changes, so the
// codes are as wide as nearest rounding's. With uncorrelated inputs (diagonal
// H) the result is nearest rounding.
//
// H comes from the float model on the calibration samples: the inputs each
// output position of a Conv / ConvTranspose reads (its window; for a strided
// ConvTranspose, the taps that reach that position) and Gemm's / MatMul's
// input rows, at most kRoundingPositions
// output positions per sample (an even stride through them), one K x K system
// per group (depthwise: K = the kernel volume, one per channel).
//
// A node whose H sums fewer than kMinRowsPerTap windows per tap keeps nearest
// rounding: with few windows (and the windows of one image overlap and
// correlate) H is nearly singular, and GPTQ hides rounding errors in
// directions the calibration set does not excite but other inputs do.
// Measured on PP-OCRv4 rec (50 calibration lines; its late layers see 40
// positions per line): CER 9.50 / 9.16 / 8.57 / 8.15 % at 16 / 32 / 64 / 128
// windows per tap (nearest rounding everywhere: 8.66 %); det is the same at 64
// and 128 (docs/quantization.md).

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/quant/dataset.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

constexpr int64_t kRoundingPositions = 2048;
// Larger systems keep nearest rounding (H would take more than 128 MiB).
constexpr int64_t kMaxRoundingTaps = 4096;
constexpr uint64_t kMinRowsPerTap = 128;

struct RoundingSystem {  // one per Conv / ConvTranspose / Gemm / MatMul node, by node name
  int64_t groups = 0;
  int64_t taps = 0;  // K: inputs of one output channel (C / groups * kernel volume)
  // Per group: the columns in rounding order, and U (K x K, row-major, in that order).
  // A group whose H could not be factored has an empty order (its weights round to nearest).
  std::vector<std::vector<int32_t>> order;
  std::vector<std::vector<double>> factor;
};

// The second moments behind one node's system: per group, sum over the sampled windows (rows) of x x^T,
// taps x taps, row-major, symmetric.
struct InputMoments {
  int64_t groups = 0;
  int64_t taps = 0;
  std::vector<double> sums;  // groups x taps x taps
  uint64_t rows = 0;         // windows (or rows) summed, over all samples
};

// Runs the float model (model-file bytes) on the samples and sums every Conv's / ConvTranspose's input
// windows and every Gemm's / MatMul's (with a constant 2-D weight) input rows, by node name. Errors name
// the sample.
Status CollectInputMoments(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                           std::map<std::string, InputMoments>* moments);

// CollectInputMoments, then FactorRoundingSystem for every group.
Status CollectRoundingSystems(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                              std::map<std::string, RoundingSystem>* systems);

// Builds one group's order and factor from its K x K second-moment matrix (row-major, symmetric).
// False when the damped matrix is not positive definite (then order and factor are left empty).
bool FactorRoundingSystem(std::vector<double> moments, int64_t taps, std::vector<int32_t>* order,
                          std::vector<double>* factor);

// Rounds the `taps` weights of one output channel of group `group` with `scale` into codes in
// [-127, 127], as described above; nearest rounding when the group has no factor.
void RoundChannel(const RoundingSystem& system, int64_t group, const float* weights, float scale, int8_t* codes);

}  // namespace compiler
}  // namespace npurt
