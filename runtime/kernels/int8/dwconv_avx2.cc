// The AVX2 depthwise kernel (vpmaddwd on int16 pairs) and the AVX2 emulations of the other ISAs' dot
// instructions (compiled -mavx2): what every x86-64 machine here runs and tests.
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const DwconvKernel kDwconvAvx2 = {"s8_dwconv_8c2__avx2", CpuTarget::kAvx2, nullptr, false, IgemmFormat::kPairsS16, true,
                                  DwconvRun<Avx2Madd, 4>, DwconvStage<IgemmFormat::kPairsS16>};
const DwconvKernel kDwconvAvxVnniEmulated = {"s8_dwconv_8c4__avxvnni_emulated", CpuTarget::kAvx2, nullptr, true,
                                             IgemmFormat::kQuadsU8, false, DwconvRun<AvxVnniEmulated, 4>,
                                             DwconvStage<IgemmFormat::kQuadsU8>};
const DwconvKernel kDwconvAvx512Emulated = {"s8_dwconv_16c2__avx512_emulated", CpuTarget::kAvx2, nullptr, true,
                                            IgemmFormat::kPairsS16, true, DwconvRun<Avx512MaddEmulated, 4>,
                                            DwconvStage<IgemmFormat::kPairsS16>};
const DwconvKernel kDwconvAvx512VnniEmulated = {"s8_dwconv_16c4__avx512vnni_emulated", CpuTarget::kAvx2, nullptr, true,
                                                IgemmFormat::kQuadsU8, false, DwconvRun<Avx512VnniEmulated, 4>,
                                                DwconvStage<IgemmFormat::kQuadsU8>};
const DwconvKernel kDwconvNeonDotEmulated = {"s8_dwconv_4c4__neondot_emulated", CpuTarget::kAvx2, nullptr, true,
                                             IgemmFormat::kQuadsS8, false, DwconvRun<NeonDotEmulated, 4>,
                                             DwconvStage<IgemmFormat::kQuadsS8>};

}  // namespace npurt
