// WorkRange: a slice [begin, end) of a kernel's outermost independent loop --
// the output channels of a convolution, the output rows of a Gemm or MatMul --
// so that threads can split one op (runtime/core/thread_pool.h). Slices write
// disjoint outputs with the same arithmetic, so any split gives the bits of one
// whole call. The default is the whole loop.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace npurt {

struct WorkRange {
  int64_t begin = 0;
  int64_t end = std::numeric_limits<int64_t>::max();

  int64_t Begin(int64_t count) const { return std::clamp<int64_t>(begin, 0, count); }
  int64_t End(int64_t count) const { return std::clamp<int64_t>(end, 0, count); }
};

}  // namespace npurt
