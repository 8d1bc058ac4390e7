// Inference-mode normalizations (ONNX BatchNormalization, LayerNormalization, InstanceNormalization,
// GroupNormalization, MeanVarianceNormalization, LpNormalization, LRN).
// Statistics and per-channel factors are computed in double. Outputs may alias X (not LRN's).
#pragma once

#include <cstdint>

namespace npurt {

// X is [batch, channels, spatial...]; scale, bias, mean, var have `channels` values.
// y = (x - mean) / sqrt(var + epsilon) * scale + bias
struct BatchNormParams {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t spatial = 1;
  float epsilon = 1e-5f;
};

void f32_batch_norm__ref(const BatchNormParams& params, const float* x, const float* scale, const float* bias,
                         const float* mean, const float* var, float* y);

// X is [outer, size]; each row is normalized with its own mean and variance,
// then y = normalized * scale[i * scale_stride] + bias[i * bias_stride].
// A stride of 0 broadcasts one value; bias may be nullptr (no bias).
struct LayerNormParams {
  int64_t outer = 0;
  int64_t size = 0;
  int64_t scale_stride = 1;
  int64_t bias_stride = 1;
  float epsilon = 1e-5f;
};

void f32_layer_norm__ref(const LayerNormParams& params, const float* x, const float* scale, const float* bias,
                         float* y);

}  // namespace npurt

namespace npurt {

// X is [batch, channels, spatial...], channels split into `groups` of channels / groups; each
// (sample, group) is normalized with its own mean and variance (two passes, in double), then
// y = normalized * scale[.] + bias[.], indexed per channel (`per_channel_affine`) or per group.
// InstanceNormalization is groups = channels; GroupNormalization (opset 18) has per-group scale and bias.
struct GroupNormParams {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t spatial = 1;
  int64_t groups = 1;
  bool per_channel_affine = true;
  float epsilon = 1e-5f;
};

void f32_group_norm__ref(const GroupNormParams& params, const float* x, const float* scale, const float* bias,
                         float* y);

// MeanVarianceNormalization: X viewed as [outer, reduced..., inner] is not contiguous in general, so
// the statistics of each kept index are gathered by walking X once: `group_of[i]` is element i's
// group (the flat index of its kept coordinates), `sums` and `squares` have `groups` entries each
// (the caller's scratch). y = (x - mean) / sqrt(variance + 1e-9), the ONNX function's epsilon.
struct MeanVarianceParams {
  int64_t count = 0;   // elements of X
  int64_t groups = 0;  // kept positions
  int64_t per_group = 1;
};

void f32_mean_variance_norm__ref(const MeanVarianceParams& params, const float* x, const int64_t* group_of,
                                 double* sums, double* squares, float* y);

// LpNormalization: X as [outer, axis_size, inner]; each vector along the axis divided by its L1
// (p = 1) or L2 (p = 2) norm, computed in double.
struct LpNormParams {
  int64_t outer = 1;
  int64_t axis_size = 1;
  int64_t inner = 1;
  int p = 2;
};

void f32_lp_norm__ref(const LpNormParams& params, const float* x, float* y);

// LRN across channels of X [batch, channels, spatial...]:
// y = x / (bias + alpha / size * sum of x^2 over channels [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)])^beta.
struct LrnParams {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t spatial = 1;
  int64_t size = 1;
  float alpha = 1e-4f;
  float beta = 0.75f;
  float bias = 1.0f;
};

void f32_lrn__ref(const LrnParams& params, const float* x, float* y);

}  // namespace npurt
