// The AVX-512 depthwise kernels (compiled -mavx512f -mavx512bw -mavx512vl -mavx512vnni): vpdpbusd on uint8
// quads, vpdpwssd (VNNI) or vpmaddwd (AVX-512BW) on int16 pairs, sixteen channels a zmm.
// GCC 12's own _mm512_cvtepi32_ps reads an "undefined" vector it flags as maybe-uninitialized (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const DwconvKernel kDwconvAvx512 = {"s8_dwconv_16c2__avx512", CpuTarget::kAvx512, nullptr, false,
                                    IgemmFormat::kPairsS16, true, DwconvRun<Avx512Madd, 8>,
                                    DwconvStage<IgemmFormat::kPairsS16>};
const DwconvKernel kDwconvAvx512VnniPairs = {"s8_dwconv_16c2__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false,
                                             IgemmFormat::kPairsS16, true, DwconvRun<Avx512VnniPairs, 8>,
                                             DwconvStage<IgemmFormat::kPairsS16>};
const DwconvKernel kDwconvAvx512Vnni = {"s8_dwconv_16c4__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false,
                                        IgemmFormat::kQuadsU8, false, DwconvRun<Avx512Vnni, 8>,
                                        DwconvStage<IgemmFormat::kQuadsU8>};

}  // namespace npurt
