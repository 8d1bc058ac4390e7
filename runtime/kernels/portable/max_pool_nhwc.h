// 2-D max pooling on channels-last (NHWC) tensors, for any CPU: per output
// position the window's taps are whole channel vectors, so the inner loop runs
// over contiguous channels (the reference walks one NCHW plane at a time, one
// tap at a time). Float, int8 and int16 codes (quantized input and output with
// the same parameters: the max of the codes); the taps are visited in the
// reference's order with its comparison (max < v ? v : max), so NaN never wins
// and of +0 and -0 the first stays: the reference's bits.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// A 2-D pooling window over channels-last images (the max pool's and the average pool's, avg_pool_nhwc.h).
struct PoolNhwcParams {
  int64_t batch = 1, channels = 1;
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};

// Output rows `rows` of the (batch * out_h) rows; a window with no tap inside the input gives the type's
// lowest value, as the reference.
void f32_max_pool__nhwc(const PoolNhwcParams& p, const float* input, float* output, WorkRange rows = {});
void s8_max_pool__nhwc(const PoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows = {});
void s16_max_pool__nhwc(const PoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows = {});

}  // namespace npurt
