// Elementwise float32 activations and math functions (ONNX semantics). The
// output may alias the input.
#pragma once

#include <cstdint>

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

void f32_unary__ref(const UnaryParams& params, const float* input, float* output);

}  // namespace npurt
