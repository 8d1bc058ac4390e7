// The broadcast plans the x86 element-wise kernels (binary_avx512.h,
// binary_avx2.h) take, walked as row segments: at most two merged dims whose
// inner strides are 0 or 1 (same shapes, a scalar, a per-channel operand).
#pragma once

#include <algorithm>
#include <cstdint>

#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

inline bool SegmentPlanSupported(const BroadcastPlan& plan) {
  if (plan.rank > 2) return false;
  const int last = plan.rank - 1;
  for (int k = 0; k < 2; ++k) {
    if (plan.strides[k][last] != 0 && plan.strides[k][last] != 1) return false;
  }
  return true;
}

// Walks the output elements of `range` as row segments of `plan`,
// calling row(a_offset, a_step, b_offset, b_step, out_offset, count).
template <typename RowFn>
void ForEachSegment(const BroadcastPlan& plan, WorkRange range, RowFn&& row) {
  const int last = plan.rank - 1;
  const int64_t length = plan.dims[last];
  const int64_t rows = plan.rank == 2 ? plan.dims[0] : 1;
  const int64_t a_row = plan.rank == 2 ? plan.strides[0][0] : 0, b_row = plan.rank == 2 ? plan.strides[1][0] : 0;
  const bool a_step = plan.strides[0][last] != 0, b_step = plan.strides[1][last] != 0;
  const int64_t begin = range.Begin(rows * length), end = range.End(rows * length);
  if (begin >= end) return;
  // One division for the whole range: channels-last per-channel operands make rows as short as C.
  int64_t r = begin / length, i = begin % length;
  for (int64_t e = begin; e < end; ++r, i = 0) {
    const int64_t n = std::min(length - i, end - e);
    row(r * a_row + (a_step ? i : 0), a_step, r * b_row + (b_step ? i : 0), b_step, e, n);
    e += n;
  }
}

}  // namespace npurt
