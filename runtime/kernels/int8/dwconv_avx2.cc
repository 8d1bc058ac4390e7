// The AVX2 depthwise kernel (vpmaddwd on int16 pairs) and the AVX2 emulations of the other ISAs' dot
// instructions (compiled -mavx2): what every x86-64 machine here runs and tests. Bands of 4 rows (two
// ymm a block of channels: 16 vector registers hold 4 x 2 sums and the weights).
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

using F = IgemmFormat;
const DwconvKernel kDwconvAvx2 =
    MakeDwconvKernel<Avx2Madd, 4, F::kPairsS16>("s8_dwconv_8c2__avx2", CpuTarget::kAvx2, nullptr, false, true);
const DwconvKernel kDwconvAvxVnniEmulated = MakeDwconvKernel<AvxVnniEmulated, 4, F::kQuadsU8>(
    "s8_dwconv_8c4__avxvnni_emulated", CpuTarget::kAvx2, nullptr, true, false);
const DwconvKernel kDwconvAvx512Emulated = MakeDwconvKernel<Avx512MaddEmulated, 4, F::kPairsS16, true>(
    "s8_dwconv_16c2__avx512_emulated", CpuTarget::kAvx2, nullptr, true, true);
const DwconvKernel kDwconvAvx512VnniEmulated = MakeDwconvKernel<Avx512VnniEmulated, 4, F::kQuadsU8, true>(
    "s8_dwconv_16c4__avx512vnni_emulated", CpuTarget::kAvx2, nullptr, true, false);
const DwconvKernel kDwconvNeonDotEmulated = MakeDwconvKernel<NeonDotEmulated, 4, F::kQuadsS8>(
    "s8_dwconv_4c4__neondot_emulated", CpuTarget::kAvx2, nullptr, true, false);

}  // namespace npurt
