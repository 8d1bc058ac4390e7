#include "runtime/kernels/ref/binary.h"

#include <cmath>
#include <type_traits>

namespace npurt {
namespace {

// Signed overflow is undefined in C++; do the arithmetic in the unsigned type.
template <typename T>
T WrapAdd(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
}
template <typename T>
T WrapSub(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
}
template <typename T>
T WrapMul(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
}
template <typename T>
T SafeDiv(T x, T y) {
  if (y == 0) return 0;
  if (y == -1) return WrapSub<T>(0, x);  // INT_MIN / -1 traps on x86
  return x / y;
}

template <typename T>
void IntegerBinary(const BinaryParams& p, const T* a, const T* b, T* out) {
  switch (p.op) {
    case BinaryOp::kAdd: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return WrapAdd(x, y); }); break;
    case BinaryOp::kSub: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return WrapSub(x, y); }); break;
    case BinaryOp::kMul: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return WrapMul(x, y); }); break;
    case BinaryOp::kDiv: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return SafeDiv(x, y); }); break;
    case BinaryOp::kMax: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return x > y ? x : y; }); break;
    case BinaryOp::kMin: BinaryBroadcastApply(p.plan, a, b, out, [](T x, T y) { return x < y ? x : y; }); break;
    case BinaryOp::kPow:
    case BinaryOp::kPRelu: return;  // rejected by the op
  }
  if (p.relu) {
    const int64_t count = BroadcastPlanSize(p.plan);
    for (int64_t i = 0; i < count; ++i) out[i] = out[i] < 0 ? 0 : out[i];
  }
}

template <typename E>
void PowWithExponent(const BinaryParams& p, const float* base, const E* exponent, float* out) {
  BinaryBroadcastApply(p.plan, base, exponent, out, [](float x, E y) {
    return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  });
}

}  // namespace

void f32_binary__ref(const BinaryParams& p, const float* a, const float* b, float* out) {
  switch (p.op) {
    case BinaryOp::kAdd: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kAdd>); break;
    case BinaryOp::kSub: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kSub>); break;
    case BinaryOp::kMul: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kMul>); break;
    case BinaryOp::kDiv: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kDiv>); break;
    case BinaryOp::kMax: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kMax>); break;
    case BinaryOp::kMin: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kMin>); break;
    case BinaryOp::kPow: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kPow>); break;
    case BinaryOp::kPRelu: BinaryBroadcastApply(p.plan, a, b, out, BinaryValue<BinaryOp::kPRelu>); break;
  }
  if (p.relu) {
    // x < 0 keeps NaN, like ONNX Relu in unary.cc.
    const int64_t count = BroadcastPlanSize(p.plan);
    for (int64_t i = 0; i < count; ++i) out[i] = out[i] < 0 ? 0.0f : out[i];
  }
}

void i32_binary__ref(const BinaryParams& p, const int32_t* a, const int32_t* b, int32_t* out) {
  IntegerBinary(p, a, b, out);
}

void i64_binary__ref(const BinaryParams& p, const int64_t* a, const int64_t* b, int64_t* out) {
  IntegerBinary(p, a, b, out);
}

void f32_pow_i32__ref(const BinaryParams& p, const float* base, const int32_t* exponent, float* out) {
  PowWithExponent(p, base, exponent, out);
}

void f32_pow_i64__ref(const BinaryParams& p, const float* base, const int64_t* exponent, float* out) {
  PowWithExponent(p, base, exponent, out);
}

}  // namespace npurt
