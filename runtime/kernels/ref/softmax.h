// Softmax over one axis of a tensor viewed as [outer, axis_size, inner].
// Numerically stable (subtracts the row maximum); the output may alias the input.
#pragma once

#include <cstdint>

namespace npurt {

struct SoftmaxParams {
  int64_t outer = 1;
  int64_t axis_size = 1;
  int64_t inner = 1;
};

void f32_softmax__ref(const SoftmaxParams& params, const float* input, float* output);

}  // namespace npurt
