#include "runtime/kernels/ref/normalization.h"

#include <cmath>

namespace npurt {

void f32_batch_norm__ref(const BatchNormParams& p, const float* x, const float* scale, const float* bias,
                         const float* mean, const float* var, float* y) {
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t c = 0; c < p.channels; ++c) {
      const double factor = scale[c] / std::sqrt(static_cast<double>(var[c]) + p.epsilon);
      const double m = mean[c], b = bias[c];
      const int64_t base = (n * p.channels + c) * p.spatial;
      for (int64_t i = 0; i < p.spatial; ++i) y[base + i] = static_cast<float>((x[base + i] - m) * factor + b);
    }
  }
}

void f32_layer_norm__ref(const LayerNormParams& p, const float* x, const float* scale, const float* bias, float* y) {
  for (int64_t r = 0; r < p.outer; ++r) {
    const float* xr = x + r * p.size;
    float* yr = y + r * p.size;
    double mean = 0.0;
    for (int64_t i = 0; i < p.size; ++i) mean += xr[i];
    mean /= static_cast<double>(p.size);
    double var = 0.0;  // two passes: no cancellation from E[x^2] - E[x]^2
    for (int64_t i = 0; i < p.size; ++i) var += (xr[i] - mean) * (xr[i] - mean);
    var /= static_cast<double>(p.size);
    const double inv_std = 1.0 / std::sqrt(var + p.epsilon);
    for (int64_t i = 0; i < p.size; ++i) {
      double v = (xr[i] - mean) * inv_std * scale[i * p.scale_stride];
      if (bias != nullptr) v += bias[i * p.bias_stride];
      yr[i] = static_cast<float>(v);
    }
  }
}

}  // namespace npurt
