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

namespace npurt {

void f32_group_norm__ref(const GroupNormParams& p, const float* x, const float* scale, const float* bias, float* y) {
  const int64_t per_group = p.channels / p.groups;
  const int64_t size = per_group * p.spatial;
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t g = 0; g < p.groups; ++g) {
      const int64_t base = (n * p.channels + g * per_group) * p.spatial;
      double mean = 0.0;
      for (int64_t i = 0; i < size; ++i) mean += x[base + i];
      mean /= static_cast<double>(size);
      double var = 0.0;
      for (int64_t i = 0; i < size; ++i) var += (x[base + i] - mean) * (x[base + i] - mean);
      var /= static_cast<double>(size);
      const double inv_std = 1.0 / std::sqrt(var + p.epsilon);
      for (int64_t c = 0; c < per_group; ++c) {
        const int64_t affine = p.per_channel_affine ? g * per_group + c : g;
        const double s = scale[affine], b = bias[affine];
        for (int64_t i = 0; i < p.spatial; ++i) {
          const int64_t at = base + c * p.spatial + i;
          y[at] = static_cast<float>((x[at] - mean) * inv_std * s + b);
        }
      }
    }
  }
}

void f32_mean_variance_norm__ref(const MeanVarianceParams& p, const float* x, const int64_t* group_of, double* sums,
                                 double* squares, float* y) {
  for (int64_t g = 0; g < p.groups; ++g) sums[g] = squares[g] = 0.0;
  for (int64_t i = 0; i < p.count; ++i) sums[group_of[i]] += x[i];
  for (int64_t g = 0; g < p.groups; ++g) sums[g] /= static_cast<double>(p.per_group);  // the means
  for (int64_t i = 0; i < p.count; ++i) {
    const double d = x[i] - sums[group_of[i]];
    squares[group_of[i]] += d * d;
  }
  for (int64_t g = 0; g < p.groups; ++g) squares[g] = 1.0 / std::sqrt(squares[g] / static_cast<double>(p.per_group) + 1e-9);
  for (int64_t i = 0; i < p.count; ++i) {
    const int64_t g = group_of[i];
    y[i] = static_cast<float>((x[i] - sums[g]) * squares[g]);
  }
}

void f32_lp_norm__ref(const LpNormParams& p, const float* x, float* y) {
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t i = 0; i < p.inner; ++i) {
      const int64_t base = o * p.axis_size * p.inner + i;
      double norm = 0.0;
      for (int64_t k = 0; k < p.axis_size; ++k) {
        const double v = x[base + k * p.inner];
        norm += p.p == 1 ? std::fabs(v) : v * v;
      }
      if (p.p == 2) norm = std::sqrt(norm);
      for (int64_t k = 0; k < p.axis_size; ++k) y[base + k * p.inner] = static_cast<float>(x[base + k * p.inner] / norm);
    }
  }
}

void f32_lrn__ref(const LrnParams& p, const float* x, float* y) {
  const int64_t before = (p.size - 1) / 2, after = p.size - 1 - before;
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t c = 0; c < p.channels; ++c) {
      const int64_t lo = c - before < 0 ? 0 : c - before;
      const int64_t hi = c + after >= p.channels ? p.channels - 1 : c + after;
      for (int64_t i = 0; i < p.spatial; ++i) {
        double square_sum = 0.0;
        for (int64_t k = lo; k <= hi; ++k) {
          const double v = x[(n * p.channels + k) * p.spatial + i];
          square_sum += v * v;
        }
        const int64_t at = (n * p.channels + c) * p.spatial + i;
        const double denominator = std::pow(p.bias + p.alpha / static_cast<double>(p.size) * square_sum, p.beta);
        y[at] = static_cast<float>(x[at] / denominator);
      }
    }
  }
}

}  // namespace npurt
