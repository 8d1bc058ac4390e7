#include "runtime/kernels/ref/resize.h"

namespace npurt {

void f32_resize_nearest__ref(const ResizeParams& p, const float* input, float* output) {
  const int64_t total = ResizeOutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  for (int64_t n = 0; n < total; ++n, ResizeNextIndex(p, coord)) output[n] = input[ResizeNearestOffset(p, coord)];
}

void f32_resize_linear__ref(const ResizeParams& p, const float* input, float* output) {
  const int64_t total = ResizeOutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  const auto value = [input](int64_t offset) { return input[offset]; };
  for (int64_t n = 0; n < total; ++n, ResizeNextIndex(p, coord)) output[n] = ResizeInterpolate(p, value, coord, 0, 0);
}

}  // namespace npurt
