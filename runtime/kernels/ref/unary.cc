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
#define NPURT_UNARY_CASE(name) \
  case UnaryOp::k##name: Map<UnaryOp::k##name>(p, x, y); break;
    NPURT_UNARY_OPS(NPURT_UNARY_CASE)
#undef NPURT_UNARY_CASE
  }
}

}  // namespace npurt
