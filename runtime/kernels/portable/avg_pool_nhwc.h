// 2-D average pooling of int8 / int16 codes on channels-last (NHWC) tensors, for any CPU: per output
// position the window's taps are whole channel vectors, summed as exact integers over contiguous channels
// (the reference walks one NCHW plane at a time, one tap at a time, through the window walk), then each
// channel's mean quantized by the reference's own expression (QuantizePoolMean): its bits.
#pragma once

#include <cstdint>

#include "runtime/kernels/portable/max_pool_nhwc.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

struct AvgPoolNhwcParams {
  PoolNhwcParams window;
  int64_t pad_bottom = 0, pad_right = 0;  // taps past them never count, even with count_include_pad
  bool count_include_pad = false;
  float in_scale = 1.0f, out_scale = 1.0f;
  int32_t in_zero_point = 0, out_zero_point = 0;
};

// The windows whose sums fit int32 (the kernel sums the raw codes: taps * 32768 <= 2^30).
constexpr int64_t kAvgPoolNhwcMaxTaps = 32768;

// Output rows `rows` of the (batch * out_h) rows.
void s8_avg_pool__nhwc(const AvgPoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows = {});
void s16_avg_pool__nhwc(const AvgPoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows = {});

}  // namespace npurt
