// The AVX-VNNI igemm kernel (VEX vpdpbusd on ymm: Intel Alder Lake and later, AMD Zen 5; compiled
// -mavx2 -mavxvnni), chosen on AVX2-class CPUs that report the feature.
#include <cpuid.h>

#include "runtime/kernels/int8/igemm_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"
#include "runtime/kernels/int8/igemm_policies_x86.h"

namespace npurt {

namespace {
// CPUID leaf 7 sub-leaf 1, EAX bit 4 (clang 14's __builtin_cpu_supports has no "avxvnni"); the kernel's
// `needs` (AVX2) already says the OS saves the ymm state.
bool HasAvxVnni() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax >> 4 & 1u) != 0;
}
}  // namespace

const IgemmKernel kIgemmAvxVnni = {"s8_igemm_4x16c4__avxvnni", CpuTarget::kAvx2, HasAvxVnni, false,
                                   IgemmFormat::kQuadsU8, 4, 16, false, IgemmTile<AvxVnni, 4, 2>,
                                   IgemmStage<IgemmFormat::kQuadsU8>, IgemmStagePadding<IgemmFormat::kQuadsU8>};

}  // namespace npurt
