// The ARM (AArch64) dot-product policies of the igemm microkernel (igemm_microkernel.h): four int32 lanes
// a vector. Plain NEON sums int16 pairs (smull, smull2, addp: every AArch64 CPU); dotprod sums int8
// quads with sdot (Cortex-A55 / A76 and later: RK3568, RK3588), in the file compiled for it.
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

namespace npurt {
namespace {

struct NeonPairs {
  using Vec = int32x4_t;
  static constexpr int kLanes = 4;
  static constexpr bool kSpillSums = false;
  static Vec Zero() { return vdupq_n_s32(0); }
  static Vec Load(const uint8_t* p) { return vreinterpretq_s32_u8(vld1q_u8(p)); }
  static Vec Broadcast(const uint8_t* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return vdupq_n_s32(v);
  }
  // Lane l: a's int16 pair times w's (exact products), the two summed (addp), added wrapping.
  static Vec Dot(Vec acc, Vec a, Vec w) {
    const int16x8_t a16 = vreinterpretq_s16_s32(a), w16 = vreinterpretq_s16_s32(w);
    const int32x4_t lo = vmull_s16(vget_low_s16(a16), vget_low_s16(w16));
    const int32x4_t hi = vmull_high_s16(a16, w16);
    return vaddq_s32(acc, vpaddq_s32(lo, hi));
  }
  static Vec Add(Vec a, Vec b) { return vaddq_s32(a, b); }
  static Vec LoadInt(const int32_t* p) { return vld1q_s32(p); }
  static void StoreFloat(float* out, Vec v) { vst1q_f32(out, vcvtq_f32_s32(v)); }  // round to nearest
};

#if defined(__ARM_FEATURE_DOTPROD)
struct NeonDot : NeonPairs {
  static Vec Dot(Vec acc, Vec a, Vec w) { return vdotq_s32(acc, vreinterpretq_s8_s32(a), vreinterpretq_s8_s32(w)); }
};
#endif

}  // namespace
}  // namespace npurt
