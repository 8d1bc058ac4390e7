#include "runtime/kernels/ref/softmax.h"

#include <cmath>
#include <limits>

namespace npurt {

void f32_softmax__ref(const SoftmaxParams& p, const float* x, float* y) {
  const int64_t n = p.axis_size, stride = p.inner;
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t i = 0; i < p.inner; ++i) {
      const int64_t base = o * n * stride + i;
      float max = -std::numeric_limits<float>::infinity();
      for (int64_t k = 0; k < n; ++k) max = x[base + k * stride] > max ? x[base + k * stride] : max;
      double sum = 0.0;
      for (int64_t k = 0; k < n; ++k) {
        const float e = std::exp(x[base + k * stride] - max);
        y[base + k * stride] = e;
        sum += e;
      }
      if (p.log) {
        const float log_sum = static_cast<float>(std::log(sum));
        for (int64_t k = 0; k < n; ++k) y[base + k * stride] = (x[base + k * stride] - max) - log_sum;
        continue;
      }
      const float scale = static_cast<float>(1.0 / sum);
      for (int64_t k = 0; k < n; ++k) y[base + k * stride] *= scale;
    }
  }
}

}  // namespace npurt
