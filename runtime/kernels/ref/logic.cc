#include "runtime/kernels/ref/logic.h"

#include <cstring>

namespace npurt {
namespace {

template <typename T>
bool Compare(LogicOp op, T x, T y) {
  switch (op) {
    case LogicOp::kEqual: return x == y;
    case LogicOp::kGreater: return x > y;
    case LogicOp::kGreaterOrEqual: return x >= y;
    case LogicOp::kLess: return x < y;
    case LogicOp::kLessOrEqual: return x <= y;
    case LogicOp::kAnd: return (x != 0) && (y != 0);
    case LogicOp::kOr: return (x != 0) || (y != 0);
    case LogicOp::kXor: return (x != 0) != (y != 0);
  }
  return false;
}

// kTruth: the operands are bools, read as truth values (any nonzero byte is true).
template <typename T, bool kTruth = false>
void Apply(const LogicParams& p, const T* a, const T* b, uint8_t* out) {
  const int64_t n = p.plan.dims[p.plan.rank - 1];
  const int64_t sa = p.plan.strides[0][p.plan.rank - 1], sb = p.plan.strides[1][p.plan.rank - 1];
  const LogicOp op = p.op;
  ForEachBroadcastRow(p.plan, [&](const int64_t* offsets, int64_t out_offset) {
    const T* ra = a + offsets[0];
    const T* rb = b + offsets[1];
    for (int64_t i = 0; i < n; ++i) {
      const bool v = kTruth ? Compare<bool>(op, ra[i * sa] != 0, rb[i * sb] != 0) : Compare(op, ra[i * sa], rb[i * sb]);
      out[out_offset + i] = v ? 1 : 0;
    }
  });
}

}  // namespace

void logic__ref(const LogicParams& p, const void* a, const void* b, uint8_t* out) {
  if (BroadcastPlanSize(p.plan) == 0) return;
  switch (p.type) {
    case DataType::kInt32: Apply(p, static_cast<const int32_t*>(a), static_cast<const int32_t*>(b), out); break;
    case DataType::kInt64: Apply(p, static_cast<const int64_t*>(a), static_cast<const int64_t*>(b), out); break;
    case DataType::kBool:
      Apply<uint8_t, true>(p, static_cast<const uint8_t*>(a), static_cast<const uint8_t*>(b), out);
      break;
    default: Apply(p, static_cast<const float*>(a), static_cast<const float*>(b), out); break;
  }
}

void not__ref(int64_t count, const uint8_t* x, uint8_t* out) {
  for (int64_t i = 0; i < count; ++i) out[i] = x[i] == 0 ? 1 : 0;
}

void where__ref(const WhereParams& p, const uint8_t* condition, const void* x, const void* y, void* out) {
  if (BroadcastPlanSize(p.plan) == 0) return;
  const int64_t n = p.plan.dims[p.plan.rank - 1];
  const int64_t sc = p.plan.strides[0][p.plan.rank - 1], sx = p.plan.strides[1][p.plan.rank - 1],
                sy = p.plan.strides[2][p.plan.rank - 1];
  const size_t size = p.element_size;
  const uint8_t* bx = static_cast<const uint8_t*>(x);
  const uint8_t* by = static_cast<const uint8_t*>(y);
  uint8_t* bo = static_cast<uint8_t*>(out);
  ForEachBroadcastRow(p.plan, [&](const int64_t* offsets, int64_t out_offset) {
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* from = condition[offsets[0] + i * sc] != 0 ? bx + (offsets[1] + i * sx) * static_cast<int64_t>(size)
                                                                : by + (offsets[2] + i * sy) * static_cast<int64_t>(size);
      std::memcpy(bo + (out_offset + i) * static_cast<int64_t>(size), from, size);
    }
  });
}

}  // namespace npurt
