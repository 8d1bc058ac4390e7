// Max and average pooling over NCHW planes. Windowed pooling runs 1-D and 2-D
// as 3-D (D, H, W) with unit leading spatial dims.
#pragma once

#include <cstdint>

namespace npurt {

enum class PoolKind { kMax, kAverage };

struct PoolParams {
  PoolKind kind = PoolKind::kMax;
  // Average only: divide by the taps inside the padded input (pads included)
  // instead of the taps inside the input. Taps past the end pad (ceil_mode) never count.
  bool count_include_pad = false;
  int64_t planes = 1;  // N * C
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
  int64_t pad_end[3] = {0, 0, 0};
};

// A window with no tap inside the input gives the lowest float (max, as ONNX
// Runtime) or 0 (average).
void f32_pool__ref(const PoolParams& p, const float* input, float* output);

// One value per plane of `plane_size` elements (GlobalMaxPool, GlobalAveragePool).
void f32_global_pool__ref(PoolKind kind, int64_t planes, int64_t plane_size, const float* input, float* output);

}  // namespace npurt
