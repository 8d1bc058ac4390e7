#include "runtime/kernels/arm/half_round_neon.h"

#include <arm_neon.h>

#include "runtime/kernels/ref/half_round.h"

namespace npurt {

// FCVTN rounds to nearest even (Linux's FPCR default) and overflows to inf in IEEE half (FPCR.AHP = 0);
// FCVTL is exact. Every AArch64 CPU has both. An overflow is a finite input whose result is infinite.
int64_t round_to_half__neon(float* x, int64_t n) {
  const float32x4_t inf = vreinterpretq_f32_u32(vdupq_n_u32(0x7f800000u));
  int64_t overflowed = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t v = vld1q_f32(x + i);
    const float32x4_t r = vcvt_f32_f16(vcvt_f16_f32(v));
    const uint32x4_t finite_in = vcltq_f32(vabsq_f32(v), inf);  // false for NaN
    const uint32x4_t inf_out = vceqq_f32(vabsq_f32(r), inf);
    overflowed += vaddvq_u32(vshrq_n_u32(vandq_u32(finite_in, inf_out), 31));
    vst1q_f32(x + i, r);
  }
  return overflowed + round_to_half__ref(x + i, n - i);
}

}  // namespace npurt
