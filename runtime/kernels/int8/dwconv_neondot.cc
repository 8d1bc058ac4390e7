// The NEON dotprod depthwise kernel (sdot on int8 quads; compiled -march=armv8.2-a+dotprod), chosen where
// the CPU reports the feature.
#include "runtime/kernels/int8/cpu_features.h"
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_arm.h"

namespace npurt {

const DwconvKernel kDwconvNeonDot = MakeDwconvKernel<NeonDot, 2, IgemmFormat::kQuadsS8>(
    "s8_dwconv_4c4__neondot", CpuTarget::kPortable, CpuHasDotProd, false, false);

}  // namespace npurt
