// The AVX2 igemm kernel and the emulated policies of the AVX-VNNI, AVX-512 and ARM dotprod kernels
// (compiled -mavx2).
#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const IgemmKernel kIgemmAvx2 = {"s8_igemm_4x16c2__avx2", CpuTarget::kAvx2, nullptr, false,
                                IgemmFormat::kPairsS16, 4, 16, true, IgemmTile<Avx2Madd, 4, 2>, IgemmRowTile<Avx2Madd, 4, 2>,
    {},
                                IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};
const IgemmKernel kIgemmAvxVnniEmulated = {
    "s8_igemm_4x16c4__avxvnni_emulated", CpuTarget::kAvx2, nullptr, true, IgemmFormat::kQuadsU8, 4, 16, false,
    IgemmTile<AvxVnniEmulated, 4, 2>, IgemmRowTile<AvxVnniEmulated, 4, 2>,
    {}, IgemmStage<IgemmFormat::kQuadsU8>, IgemmStagePadding<IgemmFormat::kQuadsU8>};
const IgemmKernel kIgemmAvx512Emulated = {
    "s8_igemm_8x32c2__avx512_emulated", CpuTarget::kAvx2, nullptr, true, IgemmFormat::kPairsS16, 8, 32, true,
    IgemmTile<Avx512MaddEmulated, 8, 2>, IgemmRowTile<Avx512MaddEmulated, 8, 2>,
    NPURT_IGEMM_TILE_REQUANT(Avx512MaddEmulated, 8, 2), IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};
const IgemmKernel kIgemmNeonDotEmulated = {
    "s8_igemm_4x16c4__neondot_emulated", CpuTarget::kAvx2, nullptr, true, IgemmFormat::kQuadsS8, 4, 16, false,
    IgemmTile<NeonDotEmulated, 4, 2>, IgemmRowTile<NeonDotEmulated, 4, 2>,
    {}, IgemmStage<IgemmFormat::kQuadsS8>, IgemmStagePadding<IgemmFormat::kQuadsS8>};
const IgemmKernel kIgemmAvx512VnniEmulated = {
    "s8_igemm_8x32c4__avx512vnni_emulated", CpuTarget::kAvx2, nullptr, true, IgemmFormat::kQuadsU8, 8, 32, false,
    IgemmTile<Avx512VnniEmulated, 8, 2>, IgemmRowTile<Avx512VnniEmulated, 8, 2>,
    NPURT_IGEMM_TILE_REQUANT(Avx512VnniEmulated, 8, 2), IgemmStage<IgemmFormat::kQuadsU8>, IgemmStagePadding<IgemmFormat::kQuadsU8>};

}  // namespace npurt
