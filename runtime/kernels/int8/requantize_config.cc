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
// (x86/requantize_avx2.h's rows are contiguous: strided rows one by one, the residual moving with them.)
void RequantizeRowsAvx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  if (p.out_stride == 0 || p.out_stride == p.channels) return requantize_float_rows__avx2(p, sums, out, rows);
  const size_t out_elem = DataTypeSize(p.out_type);
  for (int64_t r = rows.begin; r < rows.end; ++r) {
    RequantizeRowsParams row = RowsFrom(p, r * p.out_stride);
    row.out_stride = 0;
    requantize_float_rows__avx2(row, sums + r * p.channels, static_cast<uint8_t*>(out) + static_cast<size_t>(r * p.out_stride) * out_elem,
                                WorkRange{0, 1});
  }
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
