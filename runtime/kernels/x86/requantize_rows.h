// Parameters of the requantization of accumulator rows (the x86 kernels that
// finish a convolution whose sums a library computed: requantize_avx512.h,
// requantize_avx2.h), bit-exact with the reference's Requantize
// (runtime/kernels/ref/quantize.h): per element
//   q = saturate(round_half_even(activation(float(acc) * acc_scale[c]) / out_scale) + zero_point).
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/fused_activation.h"

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

}  // namespace npurt
