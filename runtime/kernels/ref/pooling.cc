#include "runtime/kernels/ref/pooling.h"

#include <algorithm>
#include <limits>

#include "runtime/kernels/ref/pooling_walk.h"

namespace npurt {

void f32_pool__ref(const PoolParams& p, const float* input, float* output) {
  ForEachPoolWindow(p, input, output, [&p](const float* in, const PoolWindow& w, float* y) {
    if (p.kind == PoolKind::kMax) {
      float max = std::numeric_limits<float>::lowest();
      ForEachPoolTap(p, w, in, [&max](float v) { max = std::max(max, v); });
      *y = max;
      return;
    }
    float sum = 0.0f;
    ForEachPoolTap(p, w, in, [&sum](float v) { sum += v; });
    const int64_t count = w.count(p.count_include_pad);
    *y = count > 0 ? sum / static_cast<float>(count) : 0.0f;
  });
}

void f32_global_pool__ref(PoolKind kind, int64_t planes, int64_t plane_size, const float* input, float* output) {
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* in = input + plane * plane_size;
    if (kind == PoolKind::kMax) {
      float max = in[0];
      for (int64_t i = 1; i < plane_size; ++i) max = std::max(max, in[i]);
      output[plane] = max;
    } else {
      // Whole feature maps can be large: accumulate in double.
      double sum = 0.0;
      for (int64_t i = 0; i < plane_size; ++i) sum += in[i];
      output[plane] = static_cast<float>(sum / static_cast<double>(plane_size));
    }
  }
}

}  // namespace npurt
