// N-D float32 resize. Each output index of each dim has been mapped ahead of
// time to input index(es) and a weight, so the kernels know nothing about
// coordinate transformation or rounding modes.
#pragma once

#include <cstdint>

namespace npurt {

constexpr int kResizeMaxRank = 8;

struct ResizeParams {
  int rank;  // <= kResizeMaxRank
  const int64_t* out_shape;
  const int64_t* in_strides;     // in elements
  const int64_t* const* index0;  // per dim, per output index: nearest input index / lower linear neighbour
  const int64_t* const* index1;  // linear only: upper neighbour
  const float* const* weight1;   // linear only: weight of index1 (index0 gets 1 - weight1)
};

void f32_resize_nearest__ref(const ResizeParams& params, const float* input, float* output);
// Separable N-D linear (linear, bilinear, trilinear, ...): a dim whose weight
// is 0 costs nothing, so unresized dims add no work.
void f32_resize_linear__ref(const ResizeParams& params, const float* input, float* output);

}  // namespace npurt
