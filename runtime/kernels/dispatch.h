// Kernel dispatch: the CPU's instruction sets, detected once, and the cap that
// NPURT_CPU_TARGET puts on them, so that every kernel path can be chosen and
// tested on one machine (NPURT_CPU_TARGET=ref runs the reference kernels only,
// NPURT_CPU_TARGET=portable adds the plain C++ ones every CPU runs, ARM included).
// Ops ask ActiveCpuTarget() in prepare and keep what they chose for eval.
#pragma once

namespace npurt {

// Ordered: each target includes everything below it.
enum class CpuTarget {
  kRef = 0,     // the reference kernels only (runtime/kernels/ref): the specification
  kPortable,    // + plain C++ written for speed (runtime/kernels/portable): any CPU, ARM included
  kAvx2,        // x86-64 AVX2 + FMA
  kAvx512,      // AVX-512 F/BW/DQ/VL (oneDNN's avx512_core)
  kAvx512Vnni,  // + VNNI: int8 dot products (oneDNN's avx512_core_vnni)
};

// What this CPU supports (kPortable on CPUs npurt has no ISA-specific kernels for).
CpuTarget DetectedCpuTarget();
// DetectedCpuTarget() capped by NPURT_CPU_TARGET (ref, portable, avx2, avx512, avx512_vnni),
// read once; an unknown value leaves the detected target and logs why.
CpuTarget ActiveCpuTarget();
const char* CpuTargetName(CpuTarget target);

// Tests: caps ActiveCpuTarget() further while alive, so one process can run an
// op on the reference kernels and on the optimized ones. Ops choose in prepare.
class ScopedCpuTargetCap {
 public:
  explicit ScopedCpuTargetCap(CpuTarget cap);
  ~ScopedCpuTargetCap();
  ScopedCpuTargetCap(const ScopedCpuTargetCap&) = delete;
  ScopedCpuTargetCap& operator=(const ScopedCpuTargetCap&) = delete;

 private:
  int saved_;
};
// False when `name` is no target's name.
bool ParseCpuTarget(const char* name, CpuTarget* out);

}  // namespace npurt
