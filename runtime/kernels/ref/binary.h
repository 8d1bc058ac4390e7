// Elementwise binary ops with numpy broadcasting (ONNX Add, Sub, Mul, Div,
// Max, Min, Pow, PRelu). Operand a is the first ONNX input (PRelu: X), b the
// second (PRelu: slope). The output is contiguous and may alias an operand
// that has the output's shape.
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

enum class BinaryOp { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow, kPRelu };

struct BinaryParams {
  BinaryOp op = BinaryOp::kAdd;
  BroadcastPlan plan;  // operand 0 = a, operand 1 = b
  bool relu = false;   // fused Relu on the result (Add only)
};

// The real-valued formula of each op, written once: the float kernel applies
// it to the elements, the int8 kernel to the dequantized elements. Max/Min
// propagate NaN (numpy maximum/minimum); Pow computes in double.
template <BinaryOp kOp>
inline float BinaryValue(float x, float y) {
  if constexpr (kOp == BinaryOp::kAdd) {
    return x + y;
  } else if constexpr (kOp == BinaryOp::kSub) {
    return x - y;
  } else if constexpr (kOp == BinaryOp::kMul) {
    return x * y;
  } else if constexpr (kOp == BinaryOp::kDiv) {
    return x / y;
  } else if constexpr (kOp == BinaryOp::kMax) {
    return (x != x || x > y) ? x : y;
  } else if constexpr (kOp == BinaryOp::kMin) {
    return (x != x || x < y) ? x : y;
  } else if constexpr (kOp == BinaryOp::kPow) {
    return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  } else {
    static_assert(kOp == BinaryOp::kPRelu, "unknown binary op");
    return x < 0 ? x * y : x;
  }
}

// out[i] = fn(a[.], b[.]) over a broadcast plan (operand 0 = a, operand 1 = b).
template <typename A, typename B, typename T, typename Fn>
inline void BinaryBroadcastApply(const BroadcastPlan& plan, const A* a, const B* b, T* out, Fn fn) {
  const int64_t n = plan.dims[plan.rank - 1];
  const int64_t sa = plan.strides[0][plan.rank - 1];
  const int64_t sb = plan.strides[1][plan.rank - 1];
  ForEachBroadcastRow(plan, [&](const int64_t* offsets, int64_t out_offset) {
    const A* ra = a + offsets[0];
    const B* rb = b + offsets[1];
    T* ro = out + out_offset;
    for (int64_t i = 0; i < n; ++i) ro[i] = fn(ra[i * sa], rb[i * sb]);
  });
}

void f32_binary__ref(const BinaryParams& params, const float* a, const float* b, float* out);
// Integers wrap on overflow; Div truncates toward zero, x / 0 gives 0 and
// INT_MIN / -1 gives INT_MIN (C would trap on both). Pow and PRelu are not
// integer ops.
void i32_binary__ref(const BinaryParams& params, const int32_t* a, const int32_t* b, int32_t* out);
void i64_binary__ref(const BinaryParams& params, const int64_t* a, const int64_t* b, int64_t* out);

// Pow with a float base and an integer exponent (params.op is ignored).
void f32_pow_i32__ref(const BinaryParams& params, const float* base, const int32_t* exponent, float* out);
void f32_pow_i64__ref(const BinaryParams& params, const float* base, const int64_t* exponent, float* out);

// ---- Quantized (int8) -------------------------------------------------------
//
// Every operand and the output have their own scale and zero point. Per
// element, in float32 (runtime/kernels/ref/quantize.h):
//
//   out = QuantizeValue(activation(BinaryValue<op>(DequantizeValue(a), DequantizeValue(b))), out params)
//
// exactly what "dequantize the inputs, run the float op, quantize" gives. An
// optimized kernel may rescale in fixed point instead (Add/Sub: a common
// multiplier per operand and a shift; Mul: one multiplier) and is tested to
// stay within one quantization step of this reference.
struct S8BinaryParams {
  BinaryOp op = BinaryOp::kAdd;
  BroadcastPlan plan;  // operand 0 = a, operand 1 = b
  float a_scale = 1.0f;
  int32_t a_zero_point = 0;
  float b_scale = 1.0f;  // int8 b only
  int32_t b_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
  FusedActivationParams activation;  // on the real result, before quantization
};

void s8_binary__ref(const S8BinaryParams& params, const int8_t* a, const int8_t* b, int8_t* out);
// b is float32 and used as is (PRelu's slope, Pow's exponent); b_scale and
// b_zero_point are ignored.
void s8_binary_f32__ref(const S8BinaryParams& params, const int8_t* a, const float* b, int8_t* out);
// Any mix of int8 and int16 operands and output (b may also be float32, used
// as is): the hybrid scheme's tensors.
void quantized_binary__ref(const S8BinaryParams& params, DataType a_type, const void* a, DataType b_type,
                           const void* b, DataType out_type, void* out);

}  // namespace npurt
