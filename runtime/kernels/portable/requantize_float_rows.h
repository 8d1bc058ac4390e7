// Requantization of float accumulator rows in plain C++: per element the reference's Requantize
// (runtime/kernels/ref/quantize.h) of acc = float(bias[c] + sum) (exact sums), for CPUs without the x86
// rows (requantize_avx2.h).
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/work_range.h"
#include "runtime/kernels/x86/requantize_rows.h"  // a plain struct: any CPU

namespace npurt {

void requantize_float_rows__portable(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
// acc = p.bias[c] + 256 * high + low in int64 (low nullptr: p.bias[c] + high), then the reference's Requantize.
void requantize_piece_rows__portable(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                                     WorkRange rows);

}  // namespace npurt
