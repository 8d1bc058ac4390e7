// int8 element-wise functions of one input: a 256-entry table per op, built
// from the float formulas of unary.h, then one lookup per element.
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/unary.h"

namespace npurt {
namespace {

constexpr int32_t kMin = std::numeric_limits<int8_t>::min();
constexpr int32_t kMax = std::numeric_limits<int8_t>::max();
static_assert(kMax - kMin + 1 == kS8TableSize, "one entry per int8 code");

template <UnaryOp kOp>
void Tabulate(const UnaryParams& p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp, int8_t* table) {
  for (int32_t q = kMin; q <= kMax; ++q) {
    const float y = UnaryValue<kOp>(p, DequantizeValue(q, in_scale, in_zp));
    table[q - kMin] = static_cast<int8_t>(QuantizeValue(y, out_scale, out_zp, kMin, kMax));
  }
}

}  // namespace

void BuildS8UnaryTable(const UnaryParams& p, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                       int8_t* table) {
  switch (p.op) {
#define NPURT_UNARY_CASE(name) \
  case UnaryOp::k##name: Tabulate<UnaryOp::k##name>(p, in_scale, in_zp, out_scale, out_zp, table); break;
    NPURT_UNARY_OPS(NPURT_UNARY_CASE)
#undef NPURT_UNARY_CASE
  }
}

namespace {

template <UnaryOp kOp, typename In, typename Out>
void Compute(const QuantizedUnaryParams& q, const In* x, Out* y) {
  constexpr int32_t kOutMin = std::numeric_limits<Out>::min(), kOutMax = std::numeric_limits<Out>::max();
  for (int64_t i = 0; i < q.unary.count; ++i) {
    const float v = UnaryValue<kOp>(q.unary, DequantizeValue(x[i], q.in_scale, q.in_zero_point));
    y[i] = static_cast<Out>(QuantizeValue(v, q.out_scale, q.out_zero_point, kOutMin, kOutMax));
  }
}

template <typename In, typename Out>
void ComputeTyped(const QuantizedUnaryParams& q, const In* x, Out* y) {
  switch (q.unary.op) {
#define NPURT_UNARY_CASE(name) \
  case UnaryOp::k##name: Compute<UnaryOp::k##name>(q, x, y); break;
    NPURT_UNARY_OPS(NPURT_UNARY_CASE)
#undef NPURT_UNARY_CASE
  }
}

}  // namespace

void quantized_unary__ref(const QuantizedUnaryParams& q, DataType in_type, const void* x, DataType out_type, void* y) {
  const bool in16 = in_type == DataType::kInt16, out16 = out_type == DataType::kInt16;
  if (in16 && out16) {
    ComputeTyped(q, static_cast<const int16_t*>(x), static_cast<int16_t*>(y));
  } else if (in16) {
    ComputeTyped(q, static_cast<const int16_t*>(x), static_cast<int8_t*>(y));
  } else if (out16) {
    ComputeTyped(q, static_cast<const int8_t*>(x), static_cast<int16_t*>(y));
  } else {
    ComputeTyped(q, static_cast<const int8_t*>(x), static_cast<int8_t*>(y));
  }
}

void s8_lookup__ref(const S8LookupParams& p, const int8_t* x, int8_t* y) {
  const int8_t* table = p.table;
  for (int64_t i = 0; i < p.count; ++i) y[i] = table[static_cast<int32_t>(x[i]) - kMin];
}

}  // namespace npurt
