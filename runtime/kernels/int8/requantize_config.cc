#include "runtime/kernels/int8/requantize_config.h"

#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/portable/requantize_float_rows.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/requantize_avx2.h"
#include "runtime/kernels/x86/requantize_avx512.h"
#endif

namespace npurt {

namespace {
#if NPURT_HAVE_X86_KERNELS
void RequantizeRowsAvx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  requantize_float_rows__avx2(p, sums, out, rows);
}
#endif
}  // namespace

const std::vector<RequantizeRowsKernel>& AllRequantizeRowsKernels() {
  static const std::vector<RequantizeRowsKernel> all = {
#if NPURT_HAVE_X86_KERNELS
      {"requantize_sum_rows__avx512", CpuTarget::kAvx512, requantize_sum_rows__avx512},
      {"requantize_sum_rows__avx2", CpuTarget::kAvx2, requantize_sum_rows__avx2},
      {"requantize_float_rows__avx2", CpuTarget::kAvx2, RequantizeRowsAvx2},
#endif
      {"requantize_float_rows__portable", CpuTarget::kPortable, requantize_float_rows__portable},
  };
  return all;
}

RequantizePieceRowsFn ChooseRequantizePieceRows() {
#if NPURT_HAVE_X86_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kAvx512) return requantize_rows__avx512;
#endif
  return requantize_piece_rows__portable;
}

RequantizeFloatRowsFn ChooseRequantizeFloatRows() {
  for (const RequantizeRowsKernel& k : AllRequantizeRowsKernels()) {
    if (ActiveCpuTarget() >= k.needs) return k.run;
  }
  return requantize_float_rows__portable;
}

}  // namespace npurt
