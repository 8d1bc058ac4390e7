// The portable igemm kernel: int16 pairs summed in plain C++ (any CPU), the policy of
// igemm_policies_scalar.h.
#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_scalar.h"

namespace npurt {

const IgemmKernel kIgemmScalar = {"s8_igemm_4x8c2__scalar", CpuTarget::kPortable, nullptr, false,
                                  IgemmFormat::kPairsS16, 4, 8, true, IgemmTile<ScalarPairs, 4, 1>, IgemmRowTile<ScalarPairs, 4, 1>,
    {},
                                  IgemmStage<IgemmFormat::kPairsS16>, IgemmStagePadding<IgemmFormat::kPairsS16>};

}  // namespace npurt
