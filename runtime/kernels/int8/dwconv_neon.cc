// The plain NEON depthwise kernel (int16 pairs: smull, smull2, addp; every AArch64 CPU).
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_arm.h"

namespace npurt {

const DwconvKernel kDwconvNeon = MakeDwconvKernel<NeonPairs, 2, IgemmFormat::kPairsS16>(
    "s8_dwconv_4c2__neon", CpuTarget::kPortable, nullptr, false, true);

}  // namespace npurt
