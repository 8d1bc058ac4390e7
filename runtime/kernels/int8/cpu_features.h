// CPU features the dispatch targets (runtime/kernels/dispatch.h) do not name, asked of the CPU itself:
// AVX-VNNI (VEX-encoded vpdpbusd on ymm; Intel Alder Lake and later, without AVX-512) and ARM's dotprod.
#pragma once

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace npurt {

#if defined(__x86_64__)
// CPUID leaf 7 sub-leaf 1, EAX bit 4 (clang 14's __builtin_cpu_supports has no "avxvnni"); the kernels'
// `needs` (AVX2) already says the OS saves the ymm state.
inline bool CpuHasAvxVnni() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax >> 4 & 1u) != 0;
}
#endif

#if defined(__aarch64__)
inline bool CpuHasDotProd() {
  constexpr unsigned long kHwcapAsimdDp = 1ul << 20;  // HWCAP_ASIMDDP of <asm/hwcap.h>
  return (getauxval(AT_HWCAP) & kHwcapAsimdDp) != 0;
}
#endif

}  // namespace npurt
