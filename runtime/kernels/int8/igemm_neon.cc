// The plain NEON igemm kernel (AArch64): int16 pairs, any int8 or int16 input.
#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_arm.h"

namespace npurt {

const IgemmKernel kIgemmNeon = {"s8_igemm_4x16c2__neon", CpuTarget::kPortable, nullptr, false,
                                IgemmFormat::kPairsS16, 4, 16, true, IgemmTile<NeonPairs, 4, 4>, IgemmRowTile<NeonPairs, 4, 4>,
    {},
                                IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};

}  // namespace npurt
