// Index arithmetic shared by the windowed reference kernels (conv, conv_transpose).
#pragma once

#include <algorithm>
#include <cstdint>

namespace npurt {

// Division rounding toward minus and plus infinity, for a positive `b`.
inline int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

// The i in [0, count) with 0 <= i * stride + offset < limit, as [*lo, *hi).
// Hoisting the padding test out of the inner loop keeps that loop branch-free.
inline void ValidRange(int64_t count, int64_t stride, int64_t offset, int64_t limit, int64_t* lo, int64_t* hi) {
  *lo = std::max<int64_t>(0, CeilDiv(-offset, stride));
  *hi = std::min<int64_t>(count, FloorDiv(limit - 1 - offset, stride) + 1);
  if (*hi < *lo) *hi = *lo;
}

}  // namespace npurt
