// Nearest-neighbour Resize by output rows, for any CPU: the reference walks
// every output element through the N-D index tables; this resolves the outer
// dims once per row, gathers the row through the last dim's table, and copies
// a row whole when it has the same source as the row before (upsampling makes
// every other row such a copy). The params may walk a channels-last tensor (the
// output in N, H, W, C order, strides of the input's layout): a row is then one
// pixel's channels. int8 codes go through a 256-entry table built
// from the reference itself, so the result is the reference's, bit for bit.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/resize.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// The number of output rows (every dim but the last) that `range` counts.
int64_t ResizeOutputRows(const ResizeParams& p);

// `requantize` maps an int8 input code (index code + 128) to its output code, or
// is nullptr when the input and output parameters are the same.
void s8_resize_nearest__rows(const ResizeParams& p, const int8_t* requantize, const int8_t* input, int8_t* output,
                             WorkRange rows = {});
void f32_resize_nearest__rows(const ResizeParams& p, const float* input, float* output, WorkRange rows = {});
// int16 codes whose input and output parameters are the same (copied as they are).
void s16_resize_nearest__rows(const ResizeParams& p, const int16_t* input, int16_t* output, WorkRange rows = {});

// Fills table[256] with what s8_resize_nearest__ref makes of each input code under `q`.
void BuildResizeRequantizeTable(const S8ResizeParams& q, int8_t* table);

}  // namespace npurt
