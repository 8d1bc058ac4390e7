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
// The rows of sums that already hold the bias (the int8 kernels'; with p.bias they run the portable rows):
// AVX-512 (requantize_avx512.cc) and AVX2 (requantize_avx2.cc).
void requantize_sum_rows__avx512(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
void requantize_sum_rows__avx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
#endif

}  // namespace npurt
