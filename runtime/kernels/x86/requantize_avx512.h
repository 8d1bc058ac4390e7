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

}  // namespace npurt
