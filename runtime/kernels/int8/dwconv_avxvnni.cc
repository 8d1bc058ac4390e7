// The AVX-VNNI depthwise kernel (VEX vpdpbusd on ymm; compiled -mavx2 -mavxvnni), chosen on AVX2-class
// CPUs that report the feature.
#include "runtime/kernels/int8/cpu_features.h"
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

const DwconvKernel kDwconvAvxVnni = MakeDwconvKernel<AvxVnni, 4, IgemmFormat::kQuadsU8>(
    "s8_dwconv_8c4__avxvnni", CpuTarget::kAvx2, CpuHasAvxVnni, false, false);

}  // namespace npurt
