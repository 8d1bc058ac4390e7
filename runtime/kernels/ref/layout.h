// NCHW <-> NHWC relayout, around the kernels that work in NHWC (oneDNN's) while
// the rest of the graph is NCHW. Tiled so that both sides stream through cache.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// Per image: (C, HW) -> (HW, C). `elem` is 1, 2 or 4 bytes. `range` selects
// positions of the flattened (N, HW) axis.
void nchw_to_nhwc(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, size_t elem,
                  WorkRange range = {});
// Per image: (HW, C) -> (C, HW), the inverse; `range` as above.
void nhwc_to_nchw(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, size_t elem,
                  WorkRange range = {});

}  // namespace npurt
