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

template <typename T>
void max_pool_with_indices__ref(const PoolParams& p, int spatial_dims, bool column_major, int64_t index_base, const T* input,
                                T* output, int64_t* indices) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  // Index strides of the (D, H, W) slots; 1-D and 2-D pools use the trailing slots.
  int64_t stride[3] = {p.in[1] * p.in[2], p.in[2], 1};
  if (column_major) {
    const int first = 3 - spatial_dims;
    int64_t s = 1;
    for (int i = first; i < 3; ++i) {
      stride[i] = s;
      s *= p.in[i];
    }
  }
  ForEachPoolWindow(p, input, output, [&](const T* in, const PoolWindow& w, T* y) {
    const int64_t plane = (in - input) / in_plane;
    T max = std::numeric_limits<T>::lowest();
    int64_t best = -1;
    for (int64_t jd = w.first[0]; jd < w.first[0] + w.taps[0]; ++jd) {
      const int64_t d = w.start[0] + jd * p.dilation[0];
      for (int64_t jh = w.first[1]; jh < w.first[1] + w.taps[1]; ++jh) {
        const int64_t h = w.start[1] + jh * p.dilation[1];
        for (int64_t jw = w.first[2]; jw < w.first[2] + w.taps[2]; ++jw) {
          const int64_t x = w.start[2] + jw * p.dilation[2];
          const T v = in[(d * p.in[1] + h) * p.in[2] + x];
          if (best < 0 || v > max) {
            max = v;
            best = d * stride[0] + h * stride[1] + x * stride[2];
          }
        }
      }
    }
    *y = max;
    indices[y - output] = best < 0 ? -1 : index_base + plane * in_plane + best;
  });
}

template void max_pool_with_indices__ref<float>(const PoolParams&, int, bool, int64_t, const float*, float*, int64_t*);
template void max_pool_with_indices__ref<int8_t>(const PoolParams&, int, bool, int64_t, const int8_t*, int8_t*, int64_t*);
template void max_pool_with_indices__ref<int16_t>(const PoolParams&, int, bool, int64_t, const int16_t*, int16_t*, int64_t*);

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
