// int8 element-wise binary ops: dequantize, apply the float formula of
// binary.h, apply the fused activation, quantize (see binary.h).
#include <cstdint>
#include <limits>
#include <type_traits>

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

// A, B and Out are the storage types (int8 or int16; B may be float).
template <BinaryOp kOp, typename A, typename B, typename Out, typename BReal>
void QuantizedBinary(const S8BinaryParams& p, const A* a, const B* b, Out* out, BReal b_real) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min(), kMax = std::numeric_limits<Out>::max();
  const float a_scale = p.a_scale, out_scale = p.out_scale;
  const int32_t a_zp = p.a_zero_point, out_zp = p.out_zero_point;
  const FusedActivationParams act = p.activation;
  BinaryBroadcastApply(p.plan, a, b, out, [&](A x, B y) {
    const float real = BinaryValue<kOp>(DequantizeValue(x, a_scale, a_zp), b_real(y));
    return static_cast<Out>(QuantizeValue(ApplyFusedActivation(act, real), out_scale, out_zp, kMin, kMax));
  });
}

template <typename A, typename B, typename Out, typename BReal>
void Dispatch(const S8BinaryParams& p, const A* a, const B* b, Out* out, BReal b_real) {
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

template <typename A, typename B>
void DispatchOut(const S8BinaryParams& p, const A* a, const B* b, DataType out_type, void* out) {
  if constexpr (std::is_same_v<B, float>) {
    if (out_type == DataType::kInt16) {
      Dispatch(p, a, b, static_cast<int16_t*>(out), FloatB{});
    } else {
      Dispatch(p, a, b, static_cast<int8_t*>(out), FloatB{});
    }
  } else {
    const DequantizeB b_real{p.b_scale, p.b_zero_point};
    if (out_type == DataType::kInt16) {
      Dispatch(p, a, b, static_cast<int16_t*>(out), b_real);
    } else {
      Dispatch(p, a, b, static_cast<int8_t*>(out), b_real);
    }
  }
}

template <typename A>
void DispatchB(const S8BinaryParams& p, const A* a, DataType b_type, const void* b, DataType out_type, void* out) {
  switch (b_type) {
    case DataType::kFloat32: DispatchOut(p, a, static_cast<const float*>(b), out_type, out); break;
    case DataType::kInt16: DispatchOut(p, a, static_cast<const int16_t*>(b), out_type, out); break;
    default: DispatchOut(p, a, static_cast<const int8_t*>(b), out_type, out); break;
  }
}

}  // namespace

void quantized_binary__ref(const S8BinaryParams& p, DataType a_type, const void* a, DataType b_type, const void* b,
                           DataType out_type, void* out) {
  if (a_type == DataType::kInt16) {
    DispatchB(p, static_cast<const int16_t*>(a), b_type, b, out_type, out);
  } else {
    DispatchB(p, static_cast<const int8_t*>(a), b_type, b, out_type, out);
  }
}

void s8_binary__ref(const S8BinaryParams& p, const int8_t* a, const int8_t* b, int8_t* out) {
  Dispatch(p, a, b, out, DequantizeB{p.b_scale, p.b_zero_point});
}

void s8_binary_f32__ref(const S8BinaryParams& p, const int8_t* a, const float* b, int8_t* out) {
  Dispatch(p, a, b, out, FloatB{});
}

}  // namespace npurt
