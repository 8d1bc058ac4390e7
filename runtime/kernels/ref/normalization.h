// Inference-mode normalizations (ONNX BatchNormalization, LayerNormalization).
// Statistics and per-channel factors are computed in double. Outputs may alias X.
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
