// Attributes shared by the sliding-window ops (Conv, ConvTranspose, MaxPool,
// AveragePool): auto_pad and the per-spatial-dim ints (kernel_shape, strides,
// dilations, pads, output_padding). Every function takes the op name for its
// error messages, e.g. "Conv: unknown auto_pad 'X'".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/status.h"

namespace npurt {

// Bound on spatial dims and on every window attribute: keeps every index
// product, (in - 1) * stride plus the kernel extent included, below 2^62
// whatever a corrupt model says.
constexpr int64_t kMaxExtent = int64_t{1} << 30;

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

// Reads the `auto_pad` string attribute; absent or empty is NOTSET.
Status ParseAutoPad(const char* op, const Attributes& attrs, AutoPad* out);

// An ints attribute of `count` values (one per spatial dim, or two per dim for
// pads), each in [min_value, kMaxExtent]. Absent or empty takes `fallback`.
Status ReadSpatialInts(const char* op, const Attributes& attrs, const char* name, size_t count, int64_t fallback,
                       int64_t min_value, std::vector<int64_t>* out);

// SAME_UPPER / SAME_LOWER for a forward window (Conv, pooling) of dilated
// extent `extent` over `in` elements with stride `stride`: the output is
// ceil(in / stride) and the total padding what that needs (at least 0). The odd
// pixel goes to the end for SAME_UPPER, to the beginning for SAME_LOWER.
void SamePadding(AutoPad auto_pad, int64_t in, int64_t stride, int64_t extent, int64_t* out, int64_t* pad_begin,
                 int64_t* pad_end);

}  // namespace npurt
