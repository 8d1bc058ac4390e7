#include "runtime/kernels/int8/requantize_config.h"

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/portable/requantize_float_rows.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/requantize_avx2.h"
#endif

namespace npurt {

#if NPURT_HAVE_X86_KERNELS
namespace {
void RequantizeRowsAvx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  requantize_float_rows__avx2(p, sums, out, rows);
}
}  // namespace
#endif

RequantizeFloatRowsFn ChooseRequantizeFloatRows() {
#if NPURT_HAVE_X86_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) return RequantizeRowsAvx2;
#endif
  return requantize_float_rows__portable;
}

}  // namespace npurt
