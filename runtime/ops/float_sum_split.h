// Exact float sums of quantized codes. Without VNNI the quantized convolutions and matrix products sum
// d = code - zero point times the int8 weights in a float32 library kernel: exact -- the reference's int32
// accumulator -- while every partial sum is an integer within 2^24, whatever order the library adds in.
// With |d| <= d_max and the weights of each output channel summing to at most W in absolute value, every
// partial sum is within d_max * W. Where that bound passes 2^24 (int16 codes; int8 ones over long
// reductions), d is cut into two pieces, d = high * 2^shift + low (0 <= low < 2^shift), each summed alone
// and joined in double by the requantization (requantize_float_rows__avx2). Where two pieces are not
// enough, the layer keeps its reference kernel: a wrong answer is worse than a slow one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "runtime/core/types.h"

namespace npurt {

struct FloatSumSplit {
  int pieces = 1;  // 1: d as it is; 2: high and low
  int shift = 0;   // with two pieces: low holds the bottom `shift` bits of d
};

// The largest sum of |w| over the weights of one output channel, for weights laid out [outer][channels][inner]
// whose output channel is the middle index (Conv: 1 x M x K; ConvTranspose: C x M/g x kH*kW, an upper bound
// with groups; Gemm B: K x N x 1, or transposed 1 x N x K).
inline int64_t MaxAbsWeightSum(const int8_t* w, int64_t outer, int64_t channels, int64_t inner) {
  int64_t largest = 0;
  for (int64_t m = 0; m < channels; ++m) {
    int64_t sum = 0;
    for (int64_t o = 0; o < outer; ++o) {
      const int8_t* row = w + (o * channels + m) * inner;
      for (int64_t k = 0; k < inner; ++k) sum += std::abs(static_cast<int32_t>(row[k]));
    }
    largest = std::max(largest, sum);
  }
  return largest;
}

// How codes of `type` (int8 or int16) with `zero_point` sum exactly against weights of largest absolute
// sum `weight_sum`; false when two pieces are not enough.
inline bool ChooseFloatSumSplit(DataType type, int32_t zero_point, int64_t weight_sum, FloatSumSplit* out) {
  constexpr int64_t kExact = int64_t{1} << 24;
  const bool wide = type == DataType::kInt16;
  const int64_t d_max = wide ? std::max<int64_t>(32767 - zero_point, zero_point + 32768)
                             : std::max<int64_t>(127 - zero_point, zero_point + 128);
  if (d_max * weight_sum <= kExact) {
    *out = FloatSumSplit{1, 0};
    return true;
  }
  // |low| < 2^shift and |high| <= ceil(d_max / 2^shift): the shift that makes the larger of the two least.
  int best_shift = 0;
  int64_t best = INT64_MAX;
  for (int shift = 1; shift <= 15; ++shift) {
    const int64_t factor = int64_t{1} << shift;
    const int64_t piece = std::max(factor - 1, (d_max + factor - 1) / factor);
    if (piece < best) best = piece, best_shift = shift;
  }
  if (best * weight_sum > kExact) return false;
  *out = FloatSumSplit{2, best_shift};
  return true;
}

}  // namespace npurt
