// The requantization's steps on one vector of real values, shared by the requantization rows
// (requantize_avx2.cc, requantize_avx512.cc) and the igemm tiles' fused epilogue (igemm_policies_x86.h),
// so both run the same float operations in the same order: the reference's bits (kernels/ref/quantize.h).
// Included by files compiled for the ISA; internal linkage, as the policies.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace npurt {
namespace {

#if defined(__AVX2__)
// real + float(codes - zero point) * scale: a Conv's fused residual joining the accumulator's value.
inline __m256 WithResidual(__m256 real, __m256i codes, __m256i zero_point, __m256 scale) {
  return _mm256_add_ps(real, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(codes, zero_point)), scale));
}
// Eight real values to codes, as int16 (round(real / scale), NaN as 0, clamped to [lo, hi] relative to
// the zero point, then the zero point): within the output type's range, so the saturating packs are exact.
inline __m128i QuantizeReal(__m256 real, __m256 out_scale, __m256 lo, __m256 hi, __m256i zero_point) {
  __m256 q = _mm256_round_ps(_mm256_div_ps(real, out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  q = _mm256_and_ps(q, _mm256_cmp_ps(q, q, _CMP_ORD_Q));  // NaN quantizes as 0
  q = _mm256_min_ps(hi, _mm256_max_ps(lo, q));
  const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(q), zero_point);
  return _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}
#endif

#if defined(__AVX512F__)
inline __m512 WithResidual(__m512 real, __m512i codes, __m512i zero_point, __m512 scale) {
  return _mm512_add_ps(real, _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(codes, zero_point)), scale));
}
// Sixteen real values to int32 codes: clamped before the rounding, which is the same as after it (the
// bounds are integers); NaN lanes convert as 0 (the masked conversion), as the reference quantizes NaN.
inline __m512i QuantizeReal(__m512 real, __m512 out_scale, __m512 lo, __m512 hi, __m512i zero_point) {
  const __m512 q = _mm512_div_ps(real, out_scale);
  const __mmask16 number = _mm512_cmp_ps_mask(q, q, _CMP_ORD_Q);
  const __m512 clamped = _mm512_min_ps(hi, _mm512_max_ps(lo, q));
  return _mm512_add_epi32(_mm512_maskz_cvt_roundps_epi32(number, clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
                          zero_point);
}
#endif

#if defined(__AVX512BW__)
// Sixteen int32 codes (within the output type: narrowing is exact) stored as int8 / int16, the first lanes
// of k: narrowed in a register, then a plain store where every lane is stored (the whole tiles), a masked
// one otherwise. The empty asm keeps GCC from folding them back into vpmovdb's masked memory form.
inline void StoreCodes(int8_t* out, __mmask16 k, __m512i v) {
  __m128i narrow = _mm512_cvtepi32_epi8(v);
  asm("" : "+v"(narrow));
  if (k == 0xffff) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), narrow);
  } else {
    _mm_mask_storeu_epi8(out, k, narrow);
  }
}
inline void StoreCodes(int16_t* out, __mmask16 k, __m512i v) {
  __m256i narrow = _mm512_cvtepi32_epi16(v);
  asm("" : "+v"(narrow));
  if (k == 0xffff) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), narrow);
  } else {
    _mm256_mask_storeu_epi16(out, k, narrow);
  }
}
#endif

}  // namespace
}  // namespace npurt
