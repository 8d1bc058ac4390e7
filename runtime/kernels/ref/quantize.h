// Affine quantization: the arithmetic every integer kernel of npurt shares,
// defined once here.
//
//   real = scale * (q - zero_point)
//   q    = saturate(round(real / scale) + zero_point)
//
// `round` is to nearest with ties to even (ONNX QuantizeLinear, ONNX Runtime's
// MLAS and oneDNN all round this way), computed in float32 so that optimized
// kernels can match the reference exactly. `saturate` clamps to the integer
// type's range. Requantizing an int32 accumulator (a convolution's sum of
// products) to an output scale uses one float multiplier per output channel:
//
//   q_out = saturate(round(acc * multiplier) + zero_point_out),
//   multiplier = scale_in * scale_weight / scale_out   (computed in double, stored as float)
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

// Round to nearest, ties to even (the default floating-point rounding mode,
// which npurt never changes).
inline float RoundHalfToEven(float x) { return std::nearbyint(x); }

// Integer range of the quantized types (int8, uint8, int16, uint16, int32).
struct QuantRange {
  int64_t min;
  int64_t max;
};
bool QuantizedRange(DataType type, QuantRange* range);

inline int32_t Requantize(int32_t acc, float multiplier, int32_t zero_point, int32_t qmin, int32_t qmax) {
  const float scaled = RoundHalfToEven(static_cast<float>(acc) * multiplier);
  // Clamp in float first: the product can exceed the int32 range.
  const float lo = static_cast<float>(qmin - zero_point), hi = static_cast<float>(qmax - zero_point);
  return static_cast<int32_t>(scaled < lo ? lo : scaled > hi ? hi : scaled) + zero_point;
}

// A tensor viewed as [outer, axis_size, inner]: one scale and zero point per
// index along the quantization axis (axis_size 1 for per-tensor parameters).
struct QuantizeParams {
  DataType type;  // the quantized type
  int64_t outer;
  int64_t axis_size;
  int64_t inner;
};

// y = saturate(round(x / scale) + zero_point). `zero_points` holds
// axis_size values of `params.type`, or is nullptr for zero.
void quantize__ref(const QuantizeParams& params, const float* x, const float* scales, const void* zero_points, void* y);

// y = (x - zero_point) * scale.
void dequantize__ref(const QuantizeParams& params, const void* x, const float* scales, const void* zero_points,
                     float* y);

}  // namespace npurt
