#include "runtime/kernels/ref/unary.h"

namespace npurt {
namespace {

template <UnaryOp kOp>
void Map(const UnaryParams& params, const float* x, float* y) {
  const UnaryParams p = params;  // a local copy: the stores to y cannot change the parameters
  for (int64_t i = 0; i < p.count; ++i) y[i] = UnaryValue<kOp>(p, x[i]);
}

}  // namespace

void f32_unary__ref(const UnaryParams& p, const float* x, float* y) {
  switch (p.op) {
    case UnaryOp::kRelu: Map<UnaryOp::kRelu>(p, x, y); break;
    case UnaryOp::kClip: Map<UnaryOp::kClip>(p, x, y); break;
    case UnaryOp::kLeakyRelu: Map<UnaryOp::kLeakyRelu>(p, x, y); break;
    case UnaryOp::kSigmoid: Map<UnaryOp::kSigmoid>(p, x, y); break;
    case UnaryOp::kHardSigmoid: Map<UnaryOp::kHardSigmoid>(p, x, y); break;
    case UnaryOp::kHardSwish: Map<UnaryOp::kHardSwish>(p, x, y); break;
    case UnaryOp::kTanh: Map<UnaryOp::kTanh>(p, x, y); break;
    case UnaryOp::kExp: Map<UnaryOp::kExp>(p, x, y); break;
    case UnaryOp::kLog: Map<UnaryOp::kLog>(p, x, y); break;
    case UnaryOp::kSqrt: Map<UnaryOp::kSqrt>(p, x, y); break;
    case UnaryOp::kErf: Map<UnaryOp::kErf>(p, x, y); break;
  }
}

}  // namespace npurt
