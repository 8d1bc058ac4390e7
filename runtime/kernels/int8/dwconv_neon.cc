// The plain NEON depthwise kernel (int16 pairs: smull, smull2, addp; every AArch64 CPU).
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_arm.h"

namespace npurt {

const DwconvKernel kDwconvNeon = {"s8_dwconv_4c2__neon", CpuTarget::kPortable, nullptr, false, IgemmFormat::kPairsS16,
                                  true, DwconvRun<NeonPairs, 4>, DwconvStage<IgemmFormat::kPairsS16>};

}  // namespace npurt
