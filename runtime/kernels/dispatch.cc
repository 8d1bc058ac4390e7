#include "runtime/kernels/dispatch.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "runtime/core/log.h"

namespace npurt {

CpuTarget DetectedCpuTarget() {
#if defined(__x86_64__) || defined(__i386__)
  static const CpuTarget detected = [] {
    __builtin_cpu_init();
    // Every AVX2 + FMA CPU also has F16C, which the avx2 target's fp16 rounding uses (clang's
    // __builtin_cpu_supports does not know "f16c").
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return CpuTarget::kPortable;
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
        !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl")) {
      return CpuTarget::kAvx2;
    }
    return __builtin_cpu_supports("avx512vnni") ? CpuTarget::kAvx512Vnni : CpuTarget::kAvx512;
  }();
  return detected;
#else
  return CpuTarget::kPortable;
#endif
}

const char* CpuTargetName(CpuTarget target) {
  switch (target) {
    case CpuTarget::kRef: return "ref";
    case CpuTarget::kPortable: return "portable";
    case CpuTarget::kAvx2: return "avx2";
    case CpuTarget::kAvx512: return "avx512";
    case CpuTarget::kAvx512Vnni: return "avx512_vnni";
  }
  return "ref";
}

bool ParseCpuTarget(const char* name, CpuTarget* out) {
  for (CpuTarget t : {CpuTarget::kRef, CpuTarget::kPortable, CpuTarget::kAvx2, CpuTarget::kAvx512,
                      CpuTarget::kAvx512Vnni}) {
    if (std::strcmp(name, CpuTargetName(t)) == 0) {
      *out = t;
      return true;
    }
  }
  return false;
}

namespace {
std::atomic<int> g_test_cap{static_cast<int>(CpuTarget::kAvx512Vnni)};
}  // namespace

ScopedCpuTargetCap::ScopedCpuTargetCap(CpuTarget cap) : saved_(g_test_cap.exchange(static_cast<int>(cap))) {}
ScopedCpuTargetCap::~ScopedCpuTargetCap() { g_test_cap.store(saved_); }

CpuTarget ActiveCpuTarget() {
  static const CpuTarget active = [] {
    const CpuTarget detected = DetectedCpuTarget();
    const char* env = std::getenv("NPURT_CPU_TARGET");
    if (env == nullptr || *env == '\0') return detected;
    CpuTarget cap = detected;
    if (!ParseCpuTarget(env, &cap)) {
      NPURT_LOG(kWarning, "NPURT_CPU_TARGET='%s' is not one of ref, portable, avx2, avx512, avx512_vnni; using %s", env,
                CpuTargetName(detected));
      return detected;
    }
    return cap < detected ? cap : detected;
  }();
  const auto cap = static_cast<CpuTarget>(g_test_cap.load(std::memory_order_relaxed));
  return cap < active ? cap : active;
}

}  // namespace npurt
