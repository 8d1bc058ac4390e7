// Elementwise float32 activations and math functions (ONNX semantics), and
// their int8 form: a 256-entry lookup table built from the same scalar
// formulas. The output may alias the input.
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

enum class UnaryOp {
  kRelu,         // x < 0 ? 0 : x (NaN passes through)
  kClip,         // min(max(x, lo), hi); lo > hi gives hi, like numpy.clip
  kLeakyRelu,    // x < 0 ? alpha * x : x
  kSigmoid,      // 1 / (1 + exp(-x)), without overflow for large |x|
  kHardSigmoid,  // max(0, min(1, alpha * x + beta))
  kHardSwish,    // x * max(0, min(1, x / 6 + 0.5))
  kTanh,
  kExp,
  kLog,
  kSqrt,
  kErf,
};

struct UnaryParams {
  UnaryOp op = UnaryOp::kRelu;
  int64_t count = 0;
  float alpha = 0.0f;  // LeakyRelu, HardSigmoid
  float beta = 0.0f;   // HardSigmoid
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
  } else {
    static_assert(kOp == UnaryOp::kErf, "unknown unary op");
    return std::erf(v);
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
