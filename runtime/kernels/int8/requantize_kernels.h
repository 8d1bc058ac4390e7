// The requantization rows the int8 kernels finish with, every implementation (requantize_config.cc chooses
// one): what each needs of the CPU, for the tests that run all of them against the reference.
#pragma once

#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/requantize_config.h"

namespace npurt {

struct RequantizeRowsKernel {
  const char* name;
  CpuTarget needs;
  RequantizeFloatRowsFn run;
};

// Fastest first.
const std::vector<RequantizeRowsKernel>& AllRequantizeRowsKernels();

#if NPURT_HAVE_X86_KERNELS
// AVX-512 rows (requantize_avx512.cc); sums that already hold the bias (p.bias nullptr; with a bias it runs
// the portable rows).
void requantize_float_rows__avx512(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
#endif

}  // namespace npurt
