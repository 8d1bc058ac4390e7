#include "runtime/core/half_storage.h"

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/half_round.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/half_round_f16c.h"
#endif
#if NPURT_HAVE_ARM_KERNELS
#include "runtime/kernels/arm/half_round_neon.h"
#endif

namespace npurt {

RoundToHalfFn ChooseRoundToHalf() {
#if NPURT_HAVE_X86_KERNELS
  // Every CPU of the avx2 target (AVX2 + FMA) has F16C.
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) return round_to_half__f16c;
#endif
#if NPURT_HAVE_ARM_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kPortable) return round_to_half__neon;
#endif
  return round_to_half__ref;
}

}  // namespace npurt
