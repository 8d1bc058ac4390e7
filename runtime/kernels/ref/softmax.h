// Softmax and LogSoftmax over one axis of a tensor viewed as [outer, axis_size,
// inner]. Numerically stable (subtracts the row maximum); the output may alias
// the input. LogSoftmax is (x - max) - log(sum exp(x - max)), never log of a
// rounded-to-zero softmax.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

struct SoftmaxParams {
  int64_t outer = 1;
  int64_t axis_size = 1;
  int64_t inner = 1;
  bool log = false;  // LogSoftmax
};

void f32_softmax__ref(const SoftmaxParams& params, const float* input, float* output);

// int8: dequantize, the float softmax above, quantize with the output's
// parameters -- the reference works in float32 on the real values (the
// exponentials in float, their sum in double, exactly as f32_softmax__ref), so
// it equals "dequantize, float Softmax, QuantizeValue" bit for bit. An
// optimized kernel may tabulate exp((q - max_q) * scale) per code difference
// and is held to one step of this.
struct S8SoftmaxParams {
  SoftmaxParams softmax;
  float in_scale = 1.0f;
  int32_t in_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};

void s8_softmax__ref(const S8SoftmaxParams& params, const int8_t* input, int8_t* output);
// Any mix of int8 / int16 input and output (the hybrid scheme).
void quantized_softmax__ref(const S8SoftmaxParams& params, DataType input_type, const void* input,
                            DataType output_type, void* output);

}  // namespace npurt
