#include "runtime/kernels/ref/resize.h"

namespace npurt {
namespace {

int64_t OutputCount(const ResizeParams& p) {
  int64_t n = 1;
  for (int d = 0; d < p.rank; ++d) n *= p.out_shape[d];
  return n;
}

// Advances a row-major output index; the caller stops after the last one.
void Next(const ResizeParams& p, int64_t* coord) {
  for (int d = p.rank - 1; d >= 0; --d) {
    if (++coord[d] < p.out_shape[d]) return;
    coord[d] = 0;
  }
}

// Interpolates dims [d, rank) at output index `coord`, dims before d already
// resolved to input element offset `offset`.
float Interpolate(const ResizeParams& p, const float* in, const int64_t* coord, int d, int64_t offset) {
  if (d == p.rank) return in[offset];
  const int64_t o = coord[d];
  const int64_t stride = p.in_strides[d];
  const float v0 = Interpolate(p, in, coord, d + 1, offset + p.index0[d][o] * stride);
  const float w1 = p.weight1[d][o];
  if (w1 == 0.0f || p.index1[d][o] == p.index0[d][o]) return v0;
  const float v1 = Interpolate(p, in, coord, d + 1, offset + p.index1[d][o] * stride);
  return (1.0f - w1) * v0 + w1 * v1;
}

}  // namespace

void f32_resize_nearest__ref(const ResizeParams& p, const float* input, float* output) {
  const int64_t total = OutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  for (int64_t n = 0; n < total; ++n, Next(p, coord)) {
    int64_t offset = 0;
    for (int d = 0; d < p.rank; ++d) offset += p.index0[d][coord[d]] * p.in_strides[d];
    output[n] = input[offset];
  }
}

void f32_resize_linear__ref(const ResizeParams& p, const float* input, float* output) {
  const int64_t total = OutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  for (int64_t n = 0; n < total; ++n, Next(p, coord)) output[n] = Interpolate(p, input, coord, 0, 0);
}

}  // namespace npurt
