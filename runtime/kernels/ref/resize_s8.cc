// int8 Resize (see resize.h).
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/resize.h"

namespace npurt {
namespace {

template <typename T>
void QuantizedNearest(const S8ResizeParams& q, const T* input, T* output) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const ResizeParams& p = q.resize;
  const bool same = q.in_scale == q.out_scale && q.in_zero_point == q.out_zero_point;
  const int64_t total = ResizeOutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  for (int64_t n = 0; n < total; ++n, ResizeNextIndex(p, coord)) {
    const T code = input[ResizeNearestOffset(p, coord)];
    output[n] = same ? code
                     : static_cast<T>(QuantizeValue(DequantizeValue(code, q.in_scale, q.in_zero_point), q.out_scale,
                                                    q.out_zero_point, kMin, kMax));
  }
}

template <typename T>
void QuantizedLinear(const S8ResizeParams& q, const T* input, T* output) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const ResizeParams& p = q.resize;
  const float in_scale = q.in_scale;
  const int32_t in_zp = q.in_zero_point;
  const auto value = [input, in_scale, in_zp](int64_t offset) {
    return DequantizeValue(input[offset], in_scale, in_zp);
  };
  const int64_t total = ResizeOutputCount(p);
  int64_t coord[kResizeMaxRank] = {};
  for (int64_t n = 0; n < total; ++n, ResizeNextIndex(p, coord)) {
    const float real = ResizeInterpolate(p, value, coord, 0, 0);
    output[n] = static_cast<T>(QuantizeValue(real, q.out_scale, q.out_zero_point, kMin, kMax));
  }
}

}  // namespace

void s8_resize_nearest__ref(const S8ResizeParams& params, const int8_t* input, int8_t* output) {
  QuantizedNearest(params, input, output);
}

void s8_resize_linear__ref(const S8ResizeParams& params, const int8_t* input, int8_t* output) {
  QuantizedLinear(params, input, output);
}

void quantized_resize__ref(const S8ResizeParams& params, bool linear, DataType type, const void* input, void* output) {
  if (type == DataType::kInt16) {
    const int16_t* in = static_cast<const int16_t*>(input);
    int16_t* out = static_cast<int16_t*>(output);
    linear ? QuantizedLinear(params, in, out) : QuantizedNearest(params, in, out);
  } else {
    const int8_t* in = static_cast<const int8_t*>(input);
    int8_t* out = static_cast<int8_t*>(output);
    linear ? QuantizedLinear(params, in, out) : QuantizedNearest(params, in, out);
  }
}

}  // namespace npurt
