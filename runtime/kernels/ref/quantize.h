// Affine quantization: the arithmetic every integer kernel of npurt shares,
// defined once here.
//
//   real = scale * (q - zero_point)
//   q    = saturate(round(real / scale) + zero_point)
//
// `round` is to nearest with ties to even (ONNX QuantizeLinear, ONNX Runtime's
// MLAS and oneDNN all round this way), in float32. `saturate` clamps to the
// integer type's range.
//
// An integer kernel accumulates sum((x - zp_x) * w) + bias in int32, where the
// accumulator's real value is acc * acc_scale with acc_scale = scale_x *
// scale_w (per output channel for per-channel weights). Its output is
//
//   q_out = saturate(round(activation(acc * acc_scale) / scale_out) + zp_out)
//
// with the fused activation applied to the real value in float32. Optimized
// kernels match it to the last bit: they compute the same float operations in
// the same order (runtime/kernels/x86/requantize_rows.h), on exact sums.
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

// Round to nearest, ties to even (the default floating-point rounding mode,
// which npurt never changes).
inline float RoundHalfToEven(float x) { return std::nearbyint(x); }

// saturate(round(real / scale) + zero_point); NaN quantizes as 0.0 does.
inline int32_t QuantizeValue(float real, float scale, int32_t zero_point, int32_t qmin, int32_t qmax) {
  float q = RoundHalfToEven(real / scale);
  if (!(q == q)) q = 0.0f;
  // Clamp in float: the quotient can exceed the int32 range.
  const float lo = static_cast<float>(qmin) - static_cast<float>(zero_point);
  const float hi = static_cast<float>(qmax) - static_cast<float>(zero_point);
  return static_cast<int32_t>(q < lo ? lo : q > hi ? hi : q) + zero_point;
}

inline float DequantizeValue(int32_t q, float scale, int32_t zero_point) {
  return static_cast<float>(static_cast<int64_t>(q) - zero_point) * scale;
}

// An accumulator of output channel `channel` to the output type (see the header comment). int16
// activations accumulate in int64 (|x - zp| reaches 65535, so K products can
// leave the int32 range); the float conversion is the same.
template <typename Acc>
inline int32_t Requantize(Acc acc, float acc_scale, const FusedActivationParams& activation, float out_scale,
                          int32_t out_zero_point, int32_t qmin, int32_t qmax, int64_t channel = 0) {
  const float real = ApplyFusedActivation(activation, static_cast<float>(acc) * acc_scale, channel);
  return QuantizeValue(real, out_scale, out_zero_point, qmin, qmax);
}

// The same with a residual's real value (a Conv's fused Add) joining the accumulator's before the activation.
template <typename Acc>
inline int32_t RequantizeWithResidual(Acc acc, float acc_scale, float residual, const FusedActivationParams& activation,
                                      float out_scale, int32_t out_zero_point, int32_t qmin, int32_t qmax,
                                      int64_t channel) {
  const float real = ApplyFusedActivation(activation, static_cast<float>(acc) * acc_scale + residual, channel);
  return QuantizeValue(real, out_scale, out_zero_point, qmin, qmax);
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

// Calls f with a typed null pointer for a quantized activation's storage type
// (int16_t* for INT16, int8_t* otherwise), so one generic lambda serves every
// combination of int8 / int16 operands in the kernels' type dispatch.
template <typename F>
void WithActivationType(DataType type, F&& f) {
  if (type == DataType::kInt16) {
    f(static_cast<int16_t*>(nullptr));
  } else {
    f(static_cast<int8_t*>(nullptr));
  }
}

}  // namespace npurt
