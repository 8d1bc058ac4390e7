// Index arithmetic for numpy-style (multidirectional) broadcasting, shared by
// elementwise kernels. A plan merges the output dims into as few as possible
// and gives every operand an element stride per merged dim (0 where that
// operand is broadcast), so kernels walk rows with additions only.
#pragma once

#include <cstdint>
#include <utility>

#include "runtime/core/types.h"

namespace npurt {

// Merged dims are all >= 2 (size-1 dims are dropped) and the element count
// fits in int64, so a non-empty output never needs more than 63 of them.
constexpr int kMaxBroadcastRank = 64;
constexpr int kMaxBroadcastOperands = 3;

struct BroadcastPlan {
  int rank = 1;                  // merged rank, >= 1
  int64_t dims[kMaxBroadcastRank] = {1};
  // strides[k][d]: elements to step in operand k when dim d advances by one.
  int64_t strides[kMaxBroadcastOperands][kMaxBroadcastRank] = {};
};

// Numpy broadcast of two shapes (right-aligned; each dim pair equal or one
// of them 1). False when incompatible.
inline bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out) {
  const size_t rank = a.size() > b.size() ? a.size() : b.size();
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    result[i] = da == 1 ? db : da;
  }
  *out = std::move(result);
  return true;
}

// True when `from` broadcasts to `to` without changing `to` (ONNX
// unidirectional broadcasting).
inline bool BroadcastsTo(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

// Plans the walk of `out` for operands that each broadcast to it. False when
// an operand does not broadcast to `out` or the sizes exceed the limits above.
inline bool MakeBroadcastPlan(const Shape& out, const Shape* const* operands, int num_operands,
                              BroadcastPlan* plan) {
  if (num_operands < 1 || num_operands > kMaxBroadcastOperands) return false;
  for (int k = 0; k < num_operands; ++k) {
    if (!BroadcastsTo(*operands[k], out)) return false;
  }
  *plan = BroadcastPlan();
  bool full[kMaxBroadcastOperands][kMaxBroadcastRank] = {};  // operand spans the dim (not broadcast)
  int rank = 0;
  const size_t out_rank = out.size();
  for (size_t d = 0; d < out_rank; ++d) {
    const int64_t n = out[d];
    if (n == 0) {  // empty output: a single row of length 0
      plan->rank = 1;
      plan->dims[0] = 0;
      return true;
    }
    if (n == 1) continue;
    bool pattern[kMaxBroadcastOperands] = {};
    for (int k = 0; k < num_operands; ++k) {
      const Shape& s = *operands[k];
      const size_t lead = out_rank - s.size();
      pattern[k] = d >= lead && s[d - lead] == n;
    }
    bool same = rank > 0;
    for (int k = 0; k < num_operands && same; ++k) same = full[k][rank - 1] == pattern[k];
    if (same) {  // contiguous with the previous dim in every operand: merge
      plan->dims[rank - 1] *= n;
      continue;
    }
    if (rank == kMaxBroadcastRank) return false;
    plan->dims[rank] = n;
    for (int k = 0; k < num_operands; ++k) full[k][rank] = pattern[k];
    ++rank;
  }
  if (rank == 0) {  // every dim is 1: one element
    plan->rank = 1;
    plan->dims[0] = 1;
    return true;
  }
  plan->rank = rank;
  for (int k = 0; k < num_operands; ++k) {
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      plan->strides[k][d] = full[k][d] ? stride : 0;
      if (full[k][d]) stride *= plan->dims[d];
    }
  }
  return true;
}

inline int64_t BroadcastPlanSize(const BroadcastPlan& plan) {
  int64_t n = 1;
  for (int d = 0; d < plan.rank; ++d) n *= plan.dims[d];
  return n;
}

// Calls row(const int64_t* offsets, int64_t out_offset) once per innermost row
// (plan.dims[rank - 1] elements, operand k stepping by strides[k][rank - 1]),
// where offsets[k] is operand k's first element of the row and out_offset the
// output's (the output is contiguous).
template <typename RowFn>
inline void ForEachBroadcastRow(const BroadcastPlan& plan, RowFn&& row) {
  int64_t index[kMaxBroadcastRank] = {};
  int64_t offsets[kMaxBroadcastOperands] = {};
  const int last = plan.rank - 1;
  const int64_t row_length = plan.dims[last];
  int64_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= plan.dims[d];
  for (int64_t r = 0; r < rows; ++r) {
    row(static_cast<const int64_t*>(offsets), r * row_length);
    for (int d = last - 1; d >= 0; --d) {  // odometer over the outer dims
      for (int k = 0; k < kMaxBroadcastOperands; ++k) offsets[k] += plan.strides[k][d];
      if (++index[d] < plan.dims[d]) break;
      index[d] = 0;
      for (int k = 0; k < kMaxBroadcastOperands; ++k) offsets[k] -= plan.strides[k][d] * plan.dims[d];
    }
  }
}

}  // namespace npurt
