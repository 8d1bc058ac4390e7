// The NEON dotprod igemm kernel (AArch64, compiled -march=armv8.2-a+dotprod): sdot on int8 quads of the
// codes as they are, chosen where the kernel reports the feature (HWCAP_ASIMDDP).
#include "runtime/kernels/int8/cpu_features.h"
#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_arm.h"

namespace npurt {

const IgemmKernel kIgemmNeonDot = {"s8_igemm_4x16c4__neondot", CpuTarget::kPortable, CpuHasDotProd, false,
                                   IgemmFormat::kQuadsS8, 4, 16, false, IgemmTile<NeonDot, 4, 4>, IgemmRowTile<NeonDot, 4, 4>,
    {},
                                   IgemmStage<IgemmFormat::kQuadsS8>, IgemmStagePadding<IgemmFormat::kQuadsS8>};

}  // namespace npurt
