// The AVX-512 depthwise kernels (compiled -mavx512f -mavx512bw -mavx512vl -mavx512vnni): vpdpbusd on uint8
// quads, vpdpwssd (VNNI) or vpmaddwd (AVX-512BW) on int16 pairs, sixteen channels a zmm, bands of 8 rows.
// GCC 12's own _mm512_cvtepi32_ps reads an "undefined" vector it flags as maybe-uninitialized (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

using F = IgemmFormat;
const DwconvKernel kDwconvAvx512 =
    MakeDwconvKernel<Avx512Madd, 8, F::kPairsS16, true>("s8_dwconv_16c2__avx512", CpuTarget::kAvx512, nullptr, false, true);
const DwconvKernel kDwconvAvx512VnniPairs = MakeDwconvKernel<Avx512VnniPairs, 8, F::kPairsS16, true>(
    "s8_dwconv_16c2__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false, true);
const DwconvKernel kDwconvAvx512Vnni = MakeDwconvKernel<Avx512Vnni, 8, F::kQuadsU8, true>(
    "s8_dwconv_16c4__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false, false);

}  // namespace npurt
