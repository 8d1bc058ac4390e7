// The AVX-VNNI igemm kernel (VEX vpdpbusd on ymm: Intel Alder Lake and later, AMD Zen 5; compiled
// -mavx2 -mavxvnni), chosen on AVX2-class CPUs that report the feature.
#include "runtime/kernels/int8/cpu_features.h"
#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const IgemmKernel kIgemmAvxVnni = {"s8_igemm_4x16c4__avxvnni", CpuTarget::kAvx2, CpuHasAvxVnni, false,
                                   IgemmFormat::kQuadsU8, 4, 16, false, IgemmTile<AvxVnni, 4, 2>, IgemmRowTile<AvxVnni, 4, 2>,
    {},
                                   IgemmStage<IgemmFormat::kQuadsU8>, IgemmStagePadding<IgemmFormat::kQuadsU8>};

}  // namespace npurt
