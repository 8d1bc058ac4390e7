// The AVX-512 igemm kernels (compiled -mavx512f -mavx512bw -mavx512vl -mavx512vnni): vpmaddwd (AVX-512BW)
// or vpdpwssd (VNNI) on zmm for int16 pairs, vpdpbusd for uint8 quads.
// GCC 12's own _mm512_cvtepi32_ps reads an "undefined" vector it flags as maybe-uninitialized (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const IgemmKernel kIgemmAvx512 = {"s8_igemm_8x32c2__avx512", CpuTarget::kAvx512, nullptr, false,
                                  IgemmFormat::kPairsS16, 8, 32, true, IgemmTile<Avx512Madd, 8, 2>, IgemmRowTile<Avx512Madd, 8, 2>,
    NPURT_IGEMM_TILE_REQUANT(Avx512Madd, 8, 2),
                                  IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};
const IgemmKernel kIgemmAvx512VnniPairs = {"s8_igemm_8x32c2__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false,
                                           IgemmFormat::kPairsS16, 8, 32, true, IgemmTile<Avx512VnniPairs, 8, 2>, IgemmRowTile<Avx512VnniPairs, 8, 2>,
    NPURT_IGEMM_TILE_REQUANT(Avx512VnniPairs, 8, 2),
                                           IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};
const IgemmKernel kIgemmAvx512Vnni = {"s8_igemm_8x32c4__avx512vnni", CpuTarget::kAvx512Vnni, nullptr, false,
                                      IgemmFormat::kQuadsU8, 8, 32, false, IgemmTile<Avx512Vnni, 8, 2>, IgemmRowTile<Avx512Vnni, 8, 2>,
    NPURT_IGEMM_TILE_REQUANT(Avx512Vnni, 8, 2),
                                      IgemmStage<IgemmFormat::kQuadsU8>, IgemmStagePadding<IgemmFormat::kQuadsU8>};

}  // namespace npurt
