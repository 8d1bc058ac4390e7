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

// The pixels a strided 1x1 convolution reads, dense: dst (N, oH, oW, C) = src at (n, y * sH, x * sW, c),
// src (N, H, W, C) when `src_channels_last`, else (N, C, H, W). `range` selects rows of the flattened
// (N, oH) axis.
struct SubsampleGeometry {
  int64_t batch = 1, channels = 1, in_h = 1, in_w = 1, out_h = 1, out_w = 1, stride_h = 1, stride_w = 1;
};
void subsample_to_nhwc(const void* src, bool src_channels_last, void* dst, const SubsampleGeometry& g, size_t elem,
                       WorkRange range = {});

}  // namespace npurt
