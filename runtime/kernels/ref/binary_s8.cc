// int8 element-wise binary ops: dequantize, apply the float formula of
// binary.h, apply the fused activation, quantize (see binary.h).
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

// The real value of a b element: dequantized for an integer operand, as is for float.
struct DequantizeB {
  float scale;
  int32_t zero_point;
  template <typename B>
  float operator()(B v) const { return DequantizeValue(static_cast<int32_t>(v), scale, zero_point); }
};
struct FloatB {
  float operator()(float v) const { return v; }
};

// T is the activation storage type (int8 today; int16 would reuse this as is).
template <BinaryOp kOp, typename T, typename B, typename BReal>
void QuantizedBinary(const S8BinaryParams& p, const T* a, const B* b, T* out, BReal b_real) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const float a_scale = p.a_scale, out_scale = p.out_scale;
  const int32_t a_zp = p.a_zero_point, out_zp = p.out_zero_point;
  const FusedActivationParams act = p.activation;
  BinaryBroadcastApply(p.plan, a, b, out, [&](T x, B y) {
    const float real = BinaryValue<kOp>(DequantizeValue(x, a_scale, a_zp), b_real(y));
    return static_cast<T>(QuantizeValue(ApplyFusedActivation(act, real), out_scale, out_zp, kMin, kMax));
  });
}

template <typename T, typename B, typename BReal>
void Dispatch(const S8BinaryParams& p, const T* a, const B* b, T* out, BReal b_real) {
  switch (p.op) {
    case BinaryOp::kAdd: QuantizedBinary<BinaryOp::kAdd>(p, a, b, out, b_real); break;
    case BinaryOp::kSub: QuantizedBinary<BinaryOp::kSub>(p, a, b, out, b_real); break;
    case BinaryOp::kMul: QuantizedBinary<BinaryOp::kMul>(p, a, b, out, b_real); break;
    case BinaryOp::kDiv: QuantizedBinary<BinaryOp::kDiv>(p, a, b, out, b_real); break;
    case BinaryOp::kMax: QuantizedBinary<BinaryOp::kMax>(p, a, b, out, b_real); break;
    case BinaryOp::kMin: QuantizedBinary<BinaryOp::kMin>(p, a, b, out, b_real); break;
    case BinaryOp::kPow: QuantizedBinary<BinaryOp::kPow>(p, a, b, out, b_real); break;
    case BinaryOp::kPRelu: QuantizedBinary<BinaryOp::kPRelu>(p, a, b, out, b_real); break;
  }
}

}  // namespace

void s8_binary__ref(const S8BinaryParams& p, const int8_t* a, const int8_t* b, int8_t* out) {
  Dispatch(p, a, b, out, DequantizeB{p.b_scale, p.b_zero_point});
}

void s8_binary_f32__ref(const S8BinaryParams& p, const int8_t* a, const float* b, int8_t* out) {
  Dispatch(p, a, b, out, FloatB{});
}

}  // namespace npurt
