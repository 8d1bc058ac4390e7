// Max and average pooling over NCHW planes. Windowed pooling runs 1-D and 2-D
// as 3-D (D, H, W) with unit leading spatial dims.
#pragma once

#include <cstdint>
#include <limits>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/quantize.h"

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

// An average pool's output code: the mean of `count` values whose offsets from the input zero point add
// up to `acc` (real: acc / count * in_scale, each step rounded to float), quantized with the output's
// parameters; an empty window (count 0) averages to real 0. Shared by the reference and the NHWC kernel.
template <typename T>
inline T QuantizePoolMean(int64_t acc, int64_t count, float in_scale, float out_scale, int32_t out_zp) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const float real = count > 0 ? static_cast<float>(acc) / static_cast<float>(count) * in_scale : 0.0f;
  return static_cast<T>(QuantizeValue(real, out_scale, out_zp, kMin, kMax));
}

// A window with no tap inside the input gives the lowest float (max, as ONNX
// Runtime) or 0 (average).
void f32_pool__ref(const PoolParams& p, const float* input, float* output);

// MaxPool with its Indices output: `output` as f32_pool__ref (max), and `indices` the position of
// the window's first largest value in the whole input, planes included (ONNX, as ONNX Runtime).
// Spatial positions count the last of the `spatial_dims` fastest (storage_order 0) or the first
// fastest (`column_major`, storage_order 1). T is float, or int8 / int16 codes whose output keeps
// the input's parameters (the largest code is the largest value). A window without a tap inside the
// input gives the lowest value and index -1. `index_base` is added to every index (the position of
// `input` in the whole tensor when a thread runs a slice of the planes).
template <typename T>
void max_pool_with_indices__ref(const PoolParams& p, int spatial_dims, bool column_major, int64_t index_base, const T* input,
                                T* output, int64_t* indices);

// One value per plane of `plane_size` elements (GlobalMaxPool, GlobalAveragePool).
void f32_global_pool__ref(PoolKind kind, int64_t planes, int64_t plane_size, const float* input, float* output);

// ---- Quantized (int8) -------------------------------------------------------
//
// Input and output each have one scale and zero point (real = scale * (q - zp)).
//   Max:     the largest code of the window (quantization is monotonic, so it
//            holds the largest real value), requantized to the output's
//            parameters when they differ; a window with no tap inside the input
//            gives the lowest code, as the float kernel's lowest float would.
//   Average: acc = sum of (q - zp) over the taps inside the input, exact in
//            int64 (padding is real 0, so count_include_pad only changes the
//            divisor); real = float(acc) / float(count) * scale, then
//            QuantizeValue with the output's parameters (runtime/kernels/ref/quantize.h).
//            "Average of the real values, then quantize": it can differ from
//            averaging dequantized floats by float rounding only, so an
//            oracle built that way agrees within one step.
struct S8PoolParams {
  PoolParams pool;
  float in_scale = 1.0f;
  int32_t in_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};

void s8_pool__ref(const S8PoolParams& params, const int8_t* input, int8_t* output);

struct S8GlobalPoolParams {
  PoolKind kind = PoolKind::kMax;
  int64_t planes = 1;
  int64_t plane_size = 1;
  float in_scale = 1.0f;
  int32_t in_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};

// As s8_pool__ref with one window covering each whole plane (the average
// divides in double, as the float kernel does: planes can be large).
void s8_global_pool__ref(const S8GlobalPoolParams& params, const int8_t* input, int8_t* output);

// The same two on int8 or int16 data (input and output of one type; the
// hybrid scheme's int16 tensors).
void quantized_pool__ref(const S8PoolParams& params, DataType type, const void* input, void* output);
void quantized_global_pool__ref(const S8GlobalPoolParams& params, DataType type, const void* input, void* output);

}  // namespace npurt
