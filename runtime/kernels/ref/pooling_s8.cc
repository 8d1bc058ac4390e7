// int8 pooling (see pooling.h): max over codes, average over exact integer sums.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/pooling.h"
#include "runtime/kernels/ref/pooling_walk.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

// The output code of input code q: q itself when the parameters agree.
template <typename T>
T RequantizeCode(T q, bool same, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
  if (same) return q;
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  return static_cast<T>(QuantizeValue(DequantizeValue(q, in_scale, in_zp), out_scale, out_zp, kMin, kMax));
}

template <typename T>
void QuantizedPool(const S8PoolParams& q, const T* input, T* output) {
  const PoolParams& p = q.pool;
  const bool same = q.in_scale == q.out_scale && q.in_zero_point == q.out_zero_point;
  ForEachPoolWindow(p, input, output, [&](const T* in, const PoolWindow& w, T* y) {
    if (p.kind == PoolKind::kMax) {
      T max = std::numeric_limits<T>::lowest();  // also the answer for a window of padding only
      ForEachPoolTap(p, w, in, [&max](T v) { max = std::max(max, v); });
      *y = w.inside() > 0 ? RequantizeCode(max, same, q.in_scale, q.in_zero_point, q.out_scale, q.out_zero_point)
                          : std::numeric_limits<T>::lowest();
      return;
    }
    int64_t acc = 0;
    const int32_t zp = q.in_zero_point;
    ForEachPoolTap(p, w, in, [&acc, zp](T v) { acc += static_cast<int32_t>(v) - zp; });
    *y = QuantizePoolMean<T>(acc, w.count(p.count_include_pad), q.in_scale, q.out_scale, q.out_zero_point);
  });
}

template <typename T>
void QuantizedGlobalPool(const S8GlobalPoolParams& q, const T* input, T* output) {
  const bool same = q.in_scale == q.out_scale && q.in_zero_point == q.out_zero_point;
  for (int64_t plane = 0; plane < q.planes; ++plane) {
    const T* in = input + plane * q.plane_size;
    if (q.kind == PoolKind::kMax) {
      T max = in[0];
      for (int64_t i = 1; i < q.plane_size; ++i) max = std::max(max, in[i]);
      output[plane] = RequantizeCode(max, same, q.in_scale, q.in_zero_point, q.out_scale, q.out_zero_point);
    } else {
      int64_t acc = 0;
      for (int64_t i = 0; i < q.plane_size; ++i) acc += static_cast<int32_t>(in[i]) - q.in_zero_point;
      constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
      const float mean = static_cast<float>(static_cast<double>(acc) / static_cast<double>(q.plane_size));
      output[plane] = static_cast<T>(QuantizeValue(mean * q.in_scale, q.out_scale, q.out_zero_point, kMin, kMax));
    }
  }
}

}  // namespace

void s8_pool__ref(const S8PoolParams& params, const int8_t* input, int8_t* output) {
  QuantizedPool(params, input, output);
}

void s8_global_pool__ref(const S8GlobalPoolParams& params, const int8_t* input, int8_t* output) {
  QuantizedGlobalPool(params, input, output);
}

void quantized_pool__ref(const S8PoolParams& params, DataType type, const void* input, void* output) {
  if (type == DataType::kInt16) {
    QuantizedPool(params, static_cast<const int16_t*>(input), static_cast<int16_t*>(output));
  } else {
    QuantizedPool(params, static_cast<const int8_t*>(input), static_cast<int8_t*>(output));
  }
}

void quantized_global_pool__ref(const S8GlobalPoolParams& params, DataType type, const void* input, void* output) {
  if (type == DataType::kInt16) {
    QuantizedGlobalPool(params, static_cast<const int16_t*>(input), static_cast<int16_t*>(output));
  } else {
    QuantizedGlobalPool(params, static_cast<const int8_t*>(input), static_cast<int8_t*>(output));
  }
}

}  // namespace npurt
