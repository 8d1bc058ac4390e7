// From calibration statistics to quantization parameters: the clipping range
// of each activation (rknn-toolkit2's `quantized_algorithm`), the int8
// parameters of a range, and symmetric int8 weights.
//
// Ranges. Every algorithm returns a range [min, max] that
// ActivationQuantInfo then extends to include 0. mmse and kl_divergence work
// on the tensor's histogram (TensorStats, kHistogramBins equal bins over the
// observed [hist_min, hist_max], values assumed uniform within a bin) and
// choose both ends among the bin edges e_k = hist_min + k * w (k = 0..B;
// e_B = hist_max exactly):
//   - lo is an edge below 0 (or hist_min when hist_min >= 0: the 0 extension
//     makes it irrelevant), hi an edge above 0 (or hist_max when <= 0);
//   - the quantizer evaluated for a candidate is the real one: scale and zero
//     point from ActivationQuantInfo(lo, hi), so the grid includes 0, its ends
//     are qlo = scale * (-128 - zp), qhi = scale * (127 - zp) (within one step
//     of lo and hi after the zero point is rounded), and a value x maps to
//     QuantizeValue(x, scale, zp, -128, 127);
//   - search: coordinate descent from the full range [hist_min, hist_max].
//     A round moves both ends inwards or outwards by the same number of bins
//     (when the histogram has both signs: the shared scale couples the two
//     ends, so moving them together converges in a few rounds where one end
//     at a time would creep), then chooses the best hi for that lo, then the
//     best lo for that hi; rounds repeat until one moves nothing (at most
//     16). Each of these line searches evaluates every 32nd candidate (plus
//     the last), then every 4th within 31 of the best so far, then every one
//     within 3 of the best; a candidate replaces the current choice only when
//     its cost is lower by more than 1e-9 (relative, plus 1e-9 absolute; the
//     MSE is counted in squared bin widths so this does not depend on the
//     tensor's scale), so ties and rounding noise keep the wider range, and
//     the result is deterministic. A candidate costs O(non-empty bins); a tensor takes
//     well under 1 ms for a peaked histogram and a few ms for a dense one
//     (B = 2048).
//   normal: [min, max] as observed (no histogram needed).
//   mmse: minimizes the expected squared error of quantize-dequantize over the
//     histogram, computed exactly for values uniform within each bin: rounding
//     error inside [qlo, qhi] (the integral of the squared distance to the
//     nearest grid point) plus clipping error (x - qhi)^2 above and
//     (qlo - x)^2 below. Any range at least one bin wide is a candidate.
//   kl_divergence: TensorRT's entropy calibration (Migacz, "8-bit Inference
//     with TensorRT", GTC 2017), adapted to asymmetric ranges. For the slice of
//     bins [i, j) of a candidate: P = the histogram on the slice with the
//     counts of the bins below i added to bin i and of those at or above j
//     added to bin j-1 (clipped values pile up at the ends); Q = the slice
//     (without those outliers) quantized: each bin goes to the level of its
//     centre, each level's total count is spread evenly over the level's bins
//     where P is non-zero; a level with no count of its own but clipped
//     outliers in P gets 1e-4 counts per such bin (TensorRT's smoothing
//     epsilon). Cost = KL(P || Q) = sum p ln(p / q) over the normalized
//     distributions. Before all this, the bin holding 0 keeps at most the
//     mean count of its neighbours: a spike of exact zeros (ReLU, HardSwish)
//     costs nothing to quantize, 0 being on every grid, but smeared by Q over
//     its level it would dominate the divergence and drive the range to the
//     narrowest candidate (NVIDIA's pytorch-quantization sets bins[0] =
//     bins[1] for the same reason). Candidates must span at least min(256, B) bins (one bin
//     per level at the narrowest, as TensorRT starts at 128 bins for 128
//     levels), so the histogram's resolution bounds how far KL can clip.
//     Where this departs from TensorRT: TensorRT histograms |x|, searches one
//     symmetric threshold for 128 levels and merges a fixed whole number of
//     bins per level (the remainder into the last); here both ends are
//     searched, the levels are the 256 codes of the asymmetric grid including
//     its 0 extension and zero-point rounding (a bin belongs to the code its
//     centre quantizes to, so a level holds 8 or 9 bins at full range), and
//     the empty-level epsilon replaces TensorRT's smoothing of both P and Q.
// A constant tensor (min == max) keeps [min, max] with every algorithm.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/quant/calibrator.h"
#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {
namespace compiler {

enum class QuantAlgorithm { kNormal, kMmse, kKlDivergence };  // rknn-toolkit2's 'normal', 'mmse', 'kl_divergence'

// "normal", "mmse" or "kl_divergence" (rknn-toolkit2's names); else kParamInvalid
// "unknown quantized algorithm 'x' (known: normal, mmse, kl_divergence)".
Status ParseQuantAlgorithm(const std::string& name, QuantAlgorithm* out);
const char* QuantAlgorithmName(QuantAlgorithm algorithm);

// The clipping range to quantize a tensor with (see the header comment).
// Errors (kParamInvalid): no finite value recorded (count 0); mmse or
// kl_divergence without a histogram (calibrated with histograms off).
Status ChooseRange(const TensorStats& stats, QuantAlgorithm algorithm, float* min, float* max);

// The expected squared error per value of int8 quantize-dequantize with the
// parameters of ActivationQuantInfo(lo, hi), over the histogram (values
// uniform within each bin): what mmse minimizes. 0 for an empty histogram.
double ExpectedQuantizationMse(const TensorStats& stats, float lo, float hi);

// int8 asymmetric activation parameters (per tensor, axis -1) for [min, max]:
// the range is first extended to include 0 (lo = min(min, 0), hi = max(max,
// 0)) so that real 0 is exactly representable; scale = (hi - lo) / 255,
// zero_point = round(-128 - lo / scale) (half to even, as QuantizeValue
// rounds) clamped to [-128, 127]. Special cases: a degenerate range (hi == lo,
// i.e. both 0) or a non-finite bound gets scale 1 and zero point -128 (the
// formula for lo = 0: real 0 is q = -128); a scale below FLT_MIN (denormal)
// becomes FLT_MIN; one above FLT_MAX (range wider than the float range) becomes
// FLT_MAX.
QuantInfo ActivationQuantInfo(float min, float max);

// int16 activations (the hybrid scheme): symmetric, zero point 0, scale =
// headroom * max(|min|, |max|) / 32767 (FLT_MIN for an all-zero range). A
// headroom above 1 spends bits of the 15 on inputs beyond the calibration
// set's range (a blurred photo when the set held sharp pages) instead of
// clipping them; 1 keeps every bit (measured: PP-OCRv4 rec loses 3 points of
// exact match at headroom 2, det's worst photo gains mask IoU at 8).
QuantInfo Int16ActivationQuantInfo(float min, float max, float headroom = 1.0f);

// Symmetric int8 weights: per output channel along `axis` (scale = max|w| /
// 127 over the channel, zero point 0) or per tensor (axis < 0; QuantInfo
// axis -1). An all-zero channel gets scale 1; a channel whose scale would be
// below FLT_MIN (a normal float) gets FLT_MIN (no denormal scales; its codes
// are then small or 0). Non-finite weights are ignored for the scale and
// quantize as QuantizeValue does (NaN as 0, +-inf saturated). `codes` gets
// one value per weight, QuantizeValue(w, scale, 0, -127, 127) (the narrow
// symmetric range: -128 is never used). An `axis` >= rank gives an empty
// QuantInfo and no codes (a caller error).
QuantInfo QuantizeWeights(const float* w, const Shape& shape, int axis, std::vector<int8_t>* codes);

}  // namespace compiler
}  // namespace npurt
