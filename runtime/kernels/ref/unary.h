// Elementwise float32 activations and math functions (ONNX semantics), and
// their int8 form: a 256-entry lookup table built from the same scalar
// formulas. The output may alias the input.
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

// Every elementwise function of one input, listed once: the enum, the kernels' dispatch and the ops'
// definitions (runtime/ops/unary.cc) are generated from it. UnaryValue below holds each formula.
#define NPURT_UNARY_OPS(X)                                                                                  \
  X(Relu) X(Clip) X(LeakyRelu) X(Sigmoid) X(HardSigmoid) X(HardSwish) X(Tanh) X(Exp) X(Log) X(Sqrt) X(Erf) \
  X(Sin) X(Cos) X(Tan) X(Asin) X(Acos) X(Atan) X(Sinh) X(Cosh) X(Asinh) X(Acosh) X(Atanh) X(Elu) X(Selu)   \
  X(Celu) X(ThresholdedRelu) X(Softplus) X(Softsign) X(Mish) X(Abs) X(Floor) X(Ceil) X(Round) X(Sign)

enum class UnaryOp {
#define NPURT_UNARY_ENUM(name) k##name,
  NPURT_UNARY_OPS(NPURT_UNARY_ENUM)
#undef NPURT_UNARY_ENUM
};

struct UnaryParams {
  UnaryOp op = UnaryOp::kRelu;
  int64_t count = 0;
  float alpha = 0.0f;  // LeakyRelu, HardSigmoid, Elu, Selu, Celu, ThresholdedRelu
  float beta = 0.0f;   // HardSigmoid
  float gamma = 0.0f;  // Selu
  float lo = 0.0f;     // Clip
  float hi = 0.0f;     // Clip
};

inline float UnaryClamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// The scalar formula of each op, written once: the float kernel maps it over
// the elements, the int8 path tabulates it (BuildS8UnaryTable).
template <UnaryOp kOp>
inline float UnaryValue(const UnaryParams& p, float v) {
  if constexpr (kOp == UnaryOp::kRelu) {
    return v < 0.0f ? 0.0f : v;
  } else if constexpr (kOp == UnaryOp::kClip) {
    v = v < p.lo ? p.lo : v;
    return v > p.hi ? p.hi : v;
  } else if constexpr (kOp == UnaryOp::kLeakyRelu) {
    return v < 0.0f ? p.alpha * v : v;
  } else if constexpr (kOp == UnaryOp::kSigmoid) {
    // exp of a non-positive argument never overflows.
    if (v >= 0) return 1.0f / (1.0f + std::exp(-v));
    const float e = std::exp(v);
    return e / (1.0f + e);
  } else if constexpr (kOp == UnaryOp::kHardSigmoid) {
    return UnaryClamp01(p.alpha * v + p.beta);
  } else if constexpr (kOp == UnaryOp::kHardSwish) {
    return v * UnaryClamp01(v / 6.0f + 0.5f);
  } else if constexpr (kOp == UnaryOp::kTanh) {
    return std::tanh(v);
  } else if constexpr (kOp == UnaryOp::kExp) {
    return std::exp(v);
  } else if constexpr (kOp == UnaryOp::kLog) {
    return std::log(v);
  } else if constexpr (kOp == UnaryOp::kSqrt) {
    return std::sqrt(v);
  } else if constexpr (kOp == UnaryOp::kErf) {
    return std::erf(v);
  } else if constexpr (kOp == UnaryOp::kSin) {
    return std::sin(v);
  } else if constexpr (kOp == UnaryOp::kCos) {
    return std::cos(v);
  } else if constexpr (kOp == UnaryOp::kTan) {
    return std::tan(v);
  } else if constexpr (kOp == UnaryOp::kAsin) {
    return std::asin(v);
  } else if constexpr (kOp == UnaryOp::kAcos) {
    return std::acos(v);
  } else if constexpr (kOp == UnaryOp::kAtan) {
    return std::atan(v);
  } else if constexpr (kOp == UnaryOp::kSinh) {
    return std::sinh(v);
  } else if constexpr (kOp == UnaryOp::kCosh) {
    return std::cosh(v);
  } else if constexpr (kOp == UnaryOp::kAsinh) {
    return std::asinh(v);
  } else if constexpr (kOp == UnaryOp::kAcosh) {
    return std::acosh(v);
  } else if constexpr (kOp == UnaryOp::kAtanh) {
    return std::atanh(v);
  } else if constexpr (kOp == UnaryOp::kElu) {  // x < 0 ? alpha (e^x - 1) : x
    return v < 0.0f ? p.alpha * std::expm1(v) : v;
  } else if constexpr (kOp == UnaryOp::kSelu) {  // gamma (x <= 0 ? alpha (e^x - 1) : x)
    return p.gamma * (v <= 0.0f ? p.alpha * std::expm1(v) : v);
  } else if constexpr (kOp == UnaryOp::kCelu) {  // max(0, x) + min(0, alpha (e^(x / alpha) - 1))
    return v > 0.0f ? v : p.alpha * std::expm1(v / p.alpha);
  } else if constexpr (kOp == UnaryOp::kThresholdedRelu) {
    return v > p.alpha ? v : 0.0f;
  } else if constexpr (kOp == UnaryOp::kSoftplus) {  // log(1 + e^x), without overflow for large x
    return v > 0.0f ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
  } else if constexpr (kOp == UnaryOp::kSoftsign) {
    return v / (1.0f + std::fabs(v));
  } else if constexpr (kOp == UnaryOp::kMish) {  // x tanh(softplus(x))
    return v * std::tanh(UnaryValue<UnaryOp::kSoftplus>(p, v));
  } else if constexpr (kOp == UnaryOp::kAbs) {
    return std::fabs(v);
  } else if constexpr (kOp == UnaryOp::kFloor) {
    return std::floor(v);
  } else if constexpr (kOp == UnaryOp::kCeil) {
    return std::ceil(v);
  } else if constexpr (kOp == UnaryOp::kRound) {  // halves to even
    return std::nearbyint(v);
  } else {
    static_assert(kOp == UnaryOp::kSign, "unknown unary op");
    return v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : v;  // 0 and NaN stay
  }
}

void f32_unary__ref(const UnaryParams& params, const float* input, float* output);

// ---- Quantized (int8) -------------------------------------------------------

// The int8 table of op `params.op` (params.count is ignored): for every code q,
//   table[q + 128] = QuantizeValue(UnaryValue(DequantizeValue(q, in_scale, in_zero_point)), out_scale, out_zero_point)
// in float32 (runtime/kernels/ref/quantize.h): exactly "dequantize, run the
// float op, quantize", whatever the op. Built once in prepare.
constexpr int kS8TableSize = 256;
void BuildS8UnaryTable(const UnaryParams& params, float in_scale, int32_t in_zero_point, float out_scale,
                       int32_t out_zero_point, int8_t* table);

struct S8LookupParams {
  int64_t count = 0;
  const int8_t* table = nullptr;  // kS8TableSize entries, indexed by code + 128
};

// y[i] = table[x[i] + 128]: every int8 element-wise function of one input.
void s8_lookup__ref(const S8LookupParams& params, const int8_t* input, int8_t* output);

// Any other mix of int8 / int16 input and output (the hybrid scheme): the
// float formula per element, dequantized in and quantized out -- exactly what
// the int8 table holds for each of its 256 codes.
struct QuantizedUnaryParams {
  UnaryParams unary;  // the function and the element count
  float in_scale = 1.0f;
  int32_t in_zero_point = 0;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};
void quantized_unary__ref(const QuantizedUnaryParams& params, DataType in_type, const void* input,
                          DataType out_type, void* output);

}  // namespace npurt
