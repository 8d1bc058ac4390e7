// The requantization rows the int8 kernels finish with, chosen once from the CPU target: AVX-512 or AVX2
// on x86-64, plain C++ elsewhere. All are bit-exact with the reference (tests/ops/requantize_rows_test.cc).
#pragma once

#include "runtime/kernels/ref/work_range.h"
#include "runtime/kernels/x86/requantize_rows.h"  // a plain struct: any CPU

namespace npurt {

// Rows `rows` of float(acc) sums (p.bias added in), p.channels per row, into out (int8 or int16).
using RequantizeFloatRowsFn = void (*)(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
RequantizeFloatRowsFn ChooseRequantizeFloatRows();

}  // namespace npurt
