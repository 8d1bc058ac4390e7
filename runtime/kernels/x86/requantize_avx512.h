// Requantization of int32 accumulator rows in AVX-512, bit-exact with the
// reference's Requantize (runtime/kernels/ref/quantize.h): per element
//   q = saturate(round_half_even(activation(float(acc) * acc_scale[c]) / out_scale) + zero_point)
// with acc = bias[c] + 256 * high + low (low may be absent), computed in int64
// and converted to float as the reference converts its accumulator, eight
// channels at a time. The kernels that sum int8 pieces in oneDNN (int16
// convolutions) finish here.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

struct RequantizeRowsParams {
  int64_t channels = 1;               // elements per row; channel c of every row uses acc_scale[c], bias[c]
  const int32_t* bias = nullptr;      // channels values, or nullptr
  const float* acc_scale = nullptr;   // channels values
  FusedActivationParams activation;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
  int32_t out_min = -128, out_max = 127;
  DataType out_type = DataType::kInt8;  // int8 or int16
};

// Rows `range` of high (and low, nullptr: none) into out (int8 or int16), all row-major with `channels` per row.
void requantize_rows__avx512(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                             WorkRange range);

}  // namespace npurt
