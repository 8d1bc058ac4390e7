// The portable depthwise kernel: int16 pairs summed in plain C++ (igemm_policies_scalar.h), any CPU.
#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/dwconv_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_scalar.h"

namespace npurt {

const DwconvKernel kDwconvScalar = MakeDwconvKernel<ScalarPairs, 2, IgemmFormat::kPairsS16>(
    "s8_dwconv_8c2__scalar", CpuTarget::kPortable, nullptr, false, true);

}  // namespace npurt
