#include "runtime/kernels/portable/global_pool_nhwc.h"

#include <algorithm>
#include <limits>

#include "runtime/kernels/ref/quantize.h"

namespace npurt {

namespace {

// Channels per pass: the accumulators stay on the stack, the pixel rows are read block by block.
constexpr int64_t kBlock = 256;

// Calls block(n, c0, c1, out_offset) for the output values [begin, end) cut at image and block edges.
template <typename BlockFn>
void ForEachChannelBlock(int64_t channels, int64_t planes, WorkRange range, BlockFn&& block) {
  const int64_t end = range.End(planes);
  for (int64_t o = range.Begin(planes); o < end;) {
    const int64_t n = o / channels, c0 = o % channels;
    const int64_t c1 = std::min({channels, c0 + kBlock, c0 + end - o});
    block(n, c0, c1);
    o += c1 - c0;
  }
}

}  // namespace

void f32_global_pool__nhwc(PoolKind kind, int64_t channels, int64_t planes, int64_t plane_size, const float* input,
                           float* output, WorkRange range) {
  ForEachChannelBlock(channels, planes, range, [&](int64_t n, int64_t c0, int64_t c1) {
    const float* image = input + n * plane_size * channels;
    const int64_t count = c1 - c0;
    float* y = output + n * channels + c0;
    if (kind == PoolKind::kMax) {
      std::copy(image + c0, image + c1, y);
      for (int64_t i = 1; i < plane_size; ++i) {
        const float* x = image + i * channels + c0;
        for (int64_t c = 0; c < count; ++c) y[c] = std::max(y[c], x[c]);
      }
      return;
    }
    double sum[kBlock] = {};
    for (int64_t i = 0; i < plane_size; ++i) {
      const float* x = image + i * channels + c0;
      for (int64_t c = 0; c < count; ++c) sum[c] += x[c];
    }
    for (int64_t c = 0; c < count; ++c) y[c] = static_cast<float>(sum[c] / static_cast<double>(plane_size));
  });
}

namespace {

template <typename T>
void QuantizedGlobalPool(const S8GlobalPoolParams& q, int64_t channels, const T* input, T* output, WorkRange range) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const bool same = q.in_scale == q.out_scale && q.in_zero_point == q.out_zero_point;
  ForEachChannelBlock(channels, q.planes, range, [&](int64_t n, int64_t c0, int64_t c1) {
    const T* image = input + n * q.plane_size * channels;
    const int64_t count = c1 - c0;
    T* y = output + n * channels + c0;
    if (q.kind == PoolKind::kMax) {
      std::copy(image + c0, image + c1, y);
      for (int64_t i = 1; i < q.plane_size; ++i) {
        const T* x = image + i * channels + c0;
        for (int64_t c = 0; c < count; ++c) y[c] = std::max(y[c], x[c]);
      }
      if (same) return;
      for (int64_t c = 0; c < count; ++c) {
        y[c] = static_cast<T>(QuantizeValue(DequantizeValue(y[c], q.in_scale, q.in_zero_point), q.out_scale,
                                            q.out_zero_point, kMin, kMax));
      }
      return;
    }
    int64_t acc[kBlock] = {};
    for (int64_t i = 0; i < q.plane_size; ++i) {
      const T* x = image + i * channels + c0;
      for (int64_t c = 0; c < count; ++c) acc[c] += static_cast<int32_t>(x[c]) - q.in_zero_point;
    }
    for (int64_t c = 0; c < count; ++c) {
      const float mean = static_cast<float>(static_cast<double>(acc[c]) / static_cast<double>(q.plane_size));
      y[c] = static_cast<T>(QuantizeValue(mean * q.in_scale, q.out_scale, q.out_zero_point, kMin, kMax));
    }
  });
}

}  // namespace

void quantized_global_pool__nhwc(const S8GlobalPoolParams& params, int64_t channels, DataType type,
                                 const void* input, void* output, WorkRange range) {
  if (type == DataType::kInt16) {
    QuantizedGlobalPool(params, channels, static_cast<const int16_t*>(input), static_cast<int16_t*>(output), range);
  } else {
    QuantizedGlobalPool(params, channels, static_cast<const int8_t*>(input), static_cast<int8_t*>(output), range);
  }
}

}  // namespace npurt
