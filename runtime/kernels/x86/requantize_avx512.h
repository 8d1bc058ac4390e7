// Requantization of int32 accumulator rows in AVX-512, bit-exact with the
// reference's Requantize (requantize_rows.h), with acc = bias[c] + 256 * high +
// low (low may be absent), computed in int64 and converted to float as the
// reference converts its accumulator, eight channels at a time. The kernels that sum int8 pieces in oneDNN (int16
// convolutions) finish here.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/work_range.h"
#include "runtime/kernels/x86/requantize_rows.h"

namespace npurt {

// Rows `range` of high (and low, nullptr: none) into out (int8 or int16), all row-major with `channels` per row.
void requantize_rows__avx512(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                             WorkRange range);

// Elements `range` of int8 / int16 codes x (x_zero_point, x_scale) requantized to y (int8 / int16, y_scale,
// y_zero_point), sixteen at a time: the reference's DequantizeValue then QuantizeValue, bit for bit, with
// no float tensor between (QuantizeLinear's requantization form).
void requantize_codes__avx512(const void* x, DataType x_type, int32_t x_zero_point, float x_scale, float y_scale,
                              int32_t y_zero_point, DataType y_type, void* y, WorkRange range);

}  // namespace npurt
