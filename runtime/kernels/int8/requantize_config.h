// The requantization rows the int8 kernels finish with, chosen once from the CPU target: AVX-512 or AVX2
// on x86-64, plain C++ elsewhere. All are bit-exact with the reference (tests/ops/requantize_rows_test.cc).
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/work_range.h"
#include "runtime/kernels/x86/requantize_rows.h"  // a plain struct: any CPU

namespace npurt {

// Rows `rows` of float(acc) sums (p.bias added in), p.channels per row, into out (int8 or int16).
using RequantizeFloatRowsFn = void (*)(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
RequantizeFloatRowsFn ChooseRequantizeFloatRows();

// Rows of an accumulator in two int32 pieces, acc = p.bias[c] + 256 * high + low (low nullptr: p.bias[c] +
// high; int64, converted to float once as the reference converts its own): int16 inputs whose
// accumulators could pass int32.
using RequantizePieceRowsFn = void (*)(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low,
                                       void* out, WorkRange rows);
RequantizePieceRowsFn ChooseRequantizePieceRows();

}  // namespace npurt
