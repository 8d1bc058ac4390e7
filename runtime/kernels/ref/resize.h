// N-D float32 resize. Each output index of each dim has been mapped ahead of
// time to input index(es) and a weight, so the kernels know nothing about
// coordinate transformation or rounding modes.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"

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

// int8: nearest copies the chosen code (requantized when the output's
// parameters differ from the input's); linear interpolates the dequantized
// values exactly as f32_resize_linear__ref does and quantizes the result
// (runtime/kernels/ref/quantize.h), i.e. "dequantize, float Resize, quantize".
struct S8ResizeParams {
  ResizeParams resize;
  float in_scale = 1.0f;
  int32_t in_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};

void s8_resize_nearest__ref(const S8ResizeParams& params, const int8_t* input, int8_t* output);
void s8_resize_linear__ref(const S8ResizeParams& params, const int8_t* input, int8_t* output);
// Either mode on int8 or int16 data (input and output of one type).
void quantized_resize__ref(const S8ResizeParams& params, bool linear, DataType type, const void* input, void* output);

// ---- The walk shared by the float and int8 kernels ----

inline int64_t ResizeOutputCount(const ResizeParams& p) {
  int64_t n = 1;
  for (int d = 0; d < p.rank; ++d) n *= p.out_shape[d];
  return n;
}

// Advances a row-major output index; the caller stops after the last one.
inline void ResizeNextIndex(const ResizeParams& p, int64_t* coord) {
  for (int d = p.rank - 1; d >= 0; --d) {
    if (++coord[d] < p.out_shape[d]) return;
    coord[d] = 0;
  }
}

// The input element offset of the nearest neighbour of output index `coord`.
inline int64_t ResizeNearestOffset(const ResizeParams& p, const int64_t* coord) {
  int64_t offset = 0;
  for (int d = 0; d < p.rank; ++d) offset += p.index0[d][coord[d]] * p.in_strides[d];
  return offset;
}

// Interpolates dims [d, rank) at output index `coord`, dims before d already
// resolved to input element offset `offset`; value(offset) reads one input
// element as float.
template <typename Value>
inline float ResizeInterpolate(const ResizeParams& p, const Value& value, const int64_t* coord, int d,
                               int64_t offset) {
  if (d == p.rank) return value(offset);
  const int64_t o = coord[d];
  const int64_t stride = p.in_strides[d];
  const float v0 = ResizeInterpolate(p, value, coord, d + 1, offset + p.index0[d][o] * stride);
  const float w1 = p.weight1[d][o];
  if (w1 == 0.0f || p.index1[d][o] == p.index0[d][o]) return v0;
  const float v1 = ResizeInterpolate(p, value, coord, d + 1, offset + p.index1[d][o] * stride);
  return (1.0f - w1) * v0 + w1 * v1;
}

}  // namespace npurt
