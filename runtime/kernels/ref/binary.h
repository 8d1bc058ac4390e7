// Elementwise binary ops with numpy broadcasting (ONNX Add, Sub, Mul, Div,
// Max, Min, Pow, PRelu). Operand a is the first ONNX input (PRelu: X), b the
// second (PRelu: slope). The output is contiguous and may alias an operand
// that has the output's shape.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/broadcast.h"

namespace npurt {

enum class BinaryOp { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow, kPRelu };

struct BinaryParams {
  BinaryOp op = BinaryOp::kAdd;
  BroadcastPlan plan;  // operand 0 = a, operand 1 = b
  bool relu = false;   // fused Relu on the result (Add only)
};

// Max/Min propagate NaN (numpy maximum/minimum). Pow computes in double.
void f32_binary__ref(const BinaryParams& params, const float* a, const float* b, float* out);
// Integers wrap on overflow; Div truncates toward zero, x / 0 gives 0 and
// INT_MIN / -1 gives INT_MIN (C would trap on both). Pow and PRelu are not
// integer ops.
void i32_binary__ref(const BinaryParams& params, const int32_t* a, const int32_t* b, int32_t* out);
void i64_binary__ref(const BinaryParams& params, const int64_t* a, const int64_t* b, int64_t* out);

// Pow with a float base and an integer exponent (params.op is ignored).
void f32_pow_i32__ref(const BinaryParams& params, const float* base, const int32_t* exponent, float* out);
void f32_pow_i64__ref(const BinaryParams& params, const float* base, const int64_t* exponent, float* out);

}  // namespace npurt
