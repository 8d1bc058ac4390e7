#include "runtime/kernels/ref/unary.h"

#include <cmath>

namespace npurt {
namespace {

template <typename Fn>
void Map(int64_t count, const float* x, float* y, Fn fn) {
  for (int64_t i = 0; i < count; ++i) y[i] = fn(x[i]);
}

float Sigmoid(float x) {
  // exp of a non-positive argument never overflows.
  if (x >= 0) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

float Clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

}  // namespace

void f32_unary__ref(const UnaryParams& p, const float* x, float* y) {
  const int64_t n = p.count;
  switch (p.op) {
    case UnaryOp::kRelu: Map(n, x, y, [](float v) { return v < 0.0f ? 0.0f : v; }); break;
    case UnaryOp::kClip: {
      const float lo = p.lo, hi = p.hi;
      Map(n, x, y, [lo, hi](float v) {
        v = v < lo ? lo : v;
        return v > hi ? hi : v;
      });
      break;
    }
    case UnaryOp::kLeakyRelu: {
      const float alpha = p.alpha;
      Map(n, x, y, [alpha](float v) { return v < 0.0f ? alpha * v : v; });
      break;
    }
    case UnaryOp::kSigmoid: Map(n, x, y, Sigmoid); break;
    case UnaryOp::kHardSigmoid: {
      const float alpha = p.alpha, beta = p.beta;
      Map(n, x, y, [alpha, beta](float v) { return Clamp01(alpha * v + beta); });
      break;
    }
    case UnaryOp::kHardSwish: Map(n, x, y, [](float v) { return v * Clamp01(v / 6.0f + 0.5f); }); break;
    case UnaryOp::kTanh: Map(n, x, y, [](float v) { return std::tanh(v); }); break;
    case UnaryOp::kExp: Map(n, x, y, [](float v) { return std::exp(v); }); break;
    case UnaryOp::kLog: Map(n, x, y, [](float v) { return std::log(v); }); break;
    case UnaryOp::kSqrt: Map(n, x, y, [](float v) { return std::sqrt(v); }); break;
    case UnaryOp::kErf: Map(n, x, y, [](float v) { return std::erf(v); }); break;
  }
}

}  // namespace npurt
