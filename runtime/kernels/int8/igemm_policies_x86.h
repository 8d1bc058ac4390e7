// The x86 dot-product policies of the igemm microkernel (igemm_microkernel.h), real and emulated. Each
// file that instantiates one is compiled for its ISA (runtime/CMakeLists.txt); the emulated ones use AVX2
// only, one instruction standing in for the one the real CPU runs, bit for bit.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

namespace npurt {
namespace {

inline int32_t LoadGroup(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

#if defined(__AVX2__)
// vpdpbusd on eight lanes from AVX2: u8 x s8 products of each 4-byte group summed into the lane, exact
// (vpmaddwd of the even and of the odd bytes, widened to int16: no saturation anywhere).
inline __m256i DpbusdEmulated(__m256i acc, __m256i a, __m256i w) {
  const __m256i a_even = _mm256_and_si256(a, _mm256_set1_epi16(0x00FF));
  const __m256i a_odd = _mm256_srli_epi16(a, 8);
  const __m256i w_even = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8);
  const __m256i w_odd = _mm256_srai_epi16(w, 8);
  return _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(a_even, w_even), _mm256_madd_epi16(a_odd, w_odd)));
}

// Eight int32 lanes; int16 pairs, vpmaddwd + vpaddd.
struct Avx2Madd {
  using Vec = __m256i;
  static constexpr int kLanes = 8;
  static constexpr bool kSpillSums = true;
  static Vec Zero() { return _mm256_setzero_si256(); }
  static Vec Load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static Vec Broadcast(const uint8_t* p) { return _mm256_set1_epi32(LoadGroup(p)); }
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, w)); }
  static Vec Add(Vec a, Vec b) { return _mm256_add_epi32(a, b); }
  static Vec LoadInt(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void StoreFloat(float* out, Vec v) { _mm256_storeu_ps(out, _mm256_cvtepi32_ps(v)); }
};

// AVX-VNNI's vpdpbusd on ymm, emulated.
struct AvxVnniEmulated : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return DpbusdEmulated(acc, a, w); }
};

// ARM's sdot (int8 x int8 quads into int32 lanes) on eight lanes from AVX2, exact: both operands' even and
// odd bytes sign-extended to int16, two vpmaddwd.
inline __m256i SdotEmulated(__m256i acc, __m256i a, __m256i w) {
  const __m256i a_even = _mm256_srai_epi16(_mm256_slli_epi16(a, 8), 8), a_odd = _mm256_srai_epi16(a, 8);
  const __m256i w_even = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8), w_odd = _mm256_srai_epi16(w, 8);
  return _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(a_even, w_even), _mm256_madd_epi16(a_odd, w_odd)));
}
// The NEON dotprod kernel's blocking (4 x 16, four-lane vectors four wide) as two eight-lane halves.
struct NeonDotEmulated : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return SdotEmulated(acc, a, w); }
};

// Sixteen lanes as two ymm halves: the AVX-512 policies' blocking on an AVX2 machine.
struct Ymm2 {
  __m256i lo, hi;
};
struct Avx512MaddEmulated {
  using Vec = Ymm2;
  static constexpr int kLanes = 16;
  static constexpr bool kSpillSums = true;
  static Vec Zero() { return {_mm256_setzero_si256(), _mm256_setzero_si256()}; }
  static Vec Load(const uint8_t* p) { return {Avx2Madd::Load(p), Avx2Madd::Load(p + 32)}; }
  static Vec Broadcast(const uint8_t* p) {
    const __m256i b = Avx2Madd::Broadcast(p);
    return {b, b};
  }
  static Vec Dot(Vec acc, Vec a, Vec w) { return {Avx2Madd::Dot(acc.lo, a.lo, w.lo), Avx2Madd::Dot(acc.hi, a.hi, w.hi)}; }
  static Vec Add(Vec a, Vec b) { return {_mm256_add_epi32(a.lo, b.lo), _mm256_add_epi32(a.hi, b.hi)}; }
  static Vec LoadInt(const int32_t* p) { return {Avx2Madd::LoadInt(p), Avx2Madd::LoadInt(p + 8)}; }
  static void StoreFloat(float* out, Vec v) {
    Avx2Madd::StoreFloat(out, v.lo);
    Avx2Madd::StoreFloat(out + 8, v.hi);
  }
};
struct Avx512VnniEmulated : Avx512MaddEmulated {
  static Vec Dot(Vec acc, Vec a, Vec w) { return {DpbusdEmulated(acc.lo, a.lo, w.lo), DpbusdEmulated(acc.hi, a.hi, w.hi)}; }
};
#endif

#if defined(__AVXVNNI__)
struct AvxVnni : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm256_dpbusd_avx_epi32(acc, a, w); }
};
#endif

#if defined(__AVX512BW__)
struct Avx512Madd {
  using Vec = __m512i;
  static constexpr int kLanes = 16;
  static constexpr bool kSpillSums = false;
  static Vec Zero() { return _mm512_setzero_si512(); }
  static Vec Load(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static Vec Broadcast(const uint8_t* p) { return _mm512_set1_epi32(LoadGroup(p)); }
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_add_epi32(acc, _mm512_madd_epi16(a, w)); }
  static Vec Add(Vec a, Vec b) { return _mm512_add_epi32(a, b); }
  static Vec LoadInt(const int32_t* p) { return _mm512_loadu_si512(p); }
  static void StoreFloat(float* out, Vec v) { _mm512_storeu_ps(out, _mm512_cvtepi32_ps(v)); }
};
#endif

#if defined(__AVX512VNNI__)
struct Avx512Vnni : Avx512Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_dpbusd_epi32(acc, a, w); }
};
// vpdpwssd: vpmaddwd and vpaddd in one instruction, the same sums (a pair saturates only at
// (-32768)^2 * 2, which int8 weights never reach), so Avx512MaddEmulated is its emulation.
struct Avx512VnniPairs : Avx512Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_dpwssd_epi32(acc, a, w); }
};
#endif

}  // namespace
}  // namespace npurt
