#include "runtime/kernels/ref/quantize.h"

#include <cstdint>

namespace npurt {
namespace {

template <typename T>
void Quantize(const QuantizeParams& p, const float* x, const float* scales, const T* zero_points, T* y) {
  QuantRange range{};
  QuantizedRange(p.type, &range);
  const int32_t qmin = static_cast<int32_t>(range.min), qmax = static_cast<int32_t>(range.max);
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t a = 0; a < p.axis_size; ++a) {
      const float scale = scales[a];
      const int32_t zp = zero_points != nullptr ? static_cast<int32_t>(zero_points[a]) : 0;
      const int64_t base = (o * p.axis_size + a) * p.inner;
      for (int64_t i = 0; i < p.inner; ++i) y[base + i] = static_cast<T>(QuantizeValue(x[base + i], scale, zp, qmin, qmax));
    }
  }
}

template <typename T>
void Dequantize(const QuantizeParams& p, const T* x, const float* scales, const T* zero_points, float* y) {
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t a = 0; a < p.axis_size; ++a) {
      const float scale = scales[a];
      const int32_t zp = zero_points != nullptr ? static_cast<int32_t>(zero_points[a]) : 0;
      const int64_t base = (o * p.axis_size + a) * p.inner;
      for (int64_t i = 0; i < p.inner; ++i) y[base + i] = DequantizeValue(static_cast<int32_t>(x[base + i]), scale, zp);
    }
  }
}

}  // namespace

void quantize__ref(const QuantizeParams& p, const float* x, const float* scales, const void* zero_points, void* y) {
  switch (p.type) {
    case DataType::kInt8:
      Quantize(p, x, scales, static_cast<const int8_t*>(zero_points), static_cast<int8_t*>(y));
      break;
    case DataType::kUint8:
      Quantize(p, x, scales, static_cast<const uint8_t*>(zero_points), static_cast<uint8_t*>(y));
      break;
    case DataType::kInt16:
      Quantize(p, x, scales, static_cast<const int16_t*>(zero_points), static_cast<int16_t*>(y));
      break;
    case DataType::kUint16:
      Quantize(p, x, scales, static_cast<const uint16_t*>(zero_points), static_cast<uint16_t*>(y));
      break;
    default: break;  // the op's prepare admits only the types above
  }
}

void dequantize__ref(const QuantizeParams& p, const void* x, const float* scales, const void* zero_points,
                     float* y) {
  switch (p.type) {
    case DataType::kInt8:
      Dequantize(p, static_cast<const int8_t*>(x), scales, static_cast<const int8_t*>(zero_points), y);
      break;
    case DataType::kUint8:
      Dequantize(p, static_cast<const uint8_t*>(x), scales, static_cast<const uint8_t*>(zero_points), y);
      break;
    case DataType::kInt16:
      Dequantize(p, static_cast<const int16_t*>(x), scales, static_cast<const int16_t*>(zero_points), y);
      break;
    case DataType::kUint16:
      Dequantize(p, static_cast<const uint16_t*>(x), scales, static_cast<const uint16_t*>(zero_points), y);
      break;
    case DataType::kInt32:
      Dequantize(p, static_cast<const int32_t*>(x), scales, static_cast<const int32_t*>(zero_points), y);
      break;
    default: break;
  }
}

}  // namespace npurt
