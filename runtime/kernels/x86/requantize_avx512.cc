#include "runtime/kernels/x86/requantize_avx512.h"

#include <immintrin.h>

// GCC 12 warns inside its own AVX-512 headers (the undefined-vector idiom of the widening intrinsics).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace npurt {

namespace {

#define NPURT_AVX512DQ __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

// ApplyFusedActivation on eight lanes, the same comparisons and operations in the same order.
NPURT_AVX512DQ inline __m256 Activate(const FusedActivationParams& a, __m256 x) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  switch (a.kind) {
    case FusedActivation::kNone: return x;
    case FusedActivation::kRelu: return _mm256_mask_blend_ps(_mm256_cmp_ps_mask(x, zero, _CMP_LT_OQ), x, zero);
    case FusedActivation::kClip: {
      const __m256 lo = _mm256_set1_ps(a.a), hi = _mm256_set1_ps(a.b);
      const __m256 v = _mm256_mask_blend_ps(_mm256_cmp_ps_mask(x, lo, _CMP_LT_OQ), x, lo);
      return _mm256_mask_blend_ps(_mm256_cmp_ps_mask(v, hi, _CMP_GT_OQ), v, hi);
    }
    case FusedActivation::kLeakyRelu:
      return _mm256_mask_blend_ps(_mm256_cmp_ps_mask(x, zero, _CMP_LT_OQ), x, _mm256_mul_ps(_mm256_set1_ps(a.a), x));
    case FusedActivation::kHardSigmoid: {
      const __m256 v = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a.a), x), _mm256_set1_ps(a.b));
      const __m256 w = _mm256_mask_blend_ps(_mm256_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, zero);
      return _mm256_mask_blend_ps(_mm256_cmp_ps_mask(w, one, _CMP_GT_OQ), w, one);
    }
    case FusedActivation::kHardSwish: {
      const __m256 v = _mm256_add_ps(_mm256_div_ps(x, _mm256_set1_ps(6.0f)), _mm256_set1_ps(0.5f));
      const __m256 w = _mm256_mask_blend_ps(_mm256_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, zero);
      return _mm256_mul_ps(x, _mm256_mask_blend_ps(_mm256_cmp_ps_mask(w, one, _CMP_GT_OQ), w, one));
    }
  }
  return x;
}

// The residual's real values of the lanes `k` of elements [at, at + 8), as QuantizedResidualValue.
NPURT_AVX512DQ inline __m256 ResidualReal(const RequantizeRowsParams& p, int64_t at, __mmask8 k) {
  __m256i v;
  if (p.residual.type == DataType::kInt16) {
    v = _mm256_cvtepi16_epi32(_mm_maskz_loadu_epi16(k, static_cast<const int16_t*>(p.residual.data) + at));
  } else {
    v = _mm256_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, static_cast<const int8_t*>(p.residual.data) + at));
  }
  v = _mm256_sub_epi32(v, _mm256_set1_epi32(p.residual.zero_point));
  return _mm256_mul_ps(_mm256_cvtepi32_ps(v), _mm256_set1_ps(p.residual.scale));
}

NPURT_AVX512DQ void Rows(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                         WorkRange range) {
  const int64_t c = p.channels;
  const __m256 out_scale = _mm256_set1_ps(p.out_scale);
  const __m256 lo = _mm256_set1_ps(static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point));
  const __m256 hi = _mm256_set1_ps(static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point));
  const __m256i zp = _mm256_set1_epi32(p.out_zero_point);
  const bool out16 = p.out_type == DataType::kInt16;
  for (int64_t row = range.Begin(INT64_MAX), end = range.End(INT64_MAX); row < end; ++row) {
    for (int64_t m = 0; m < c; m += 8) {
      const __mmask8 k = c - m >= 8 ? static_cast<__mmask8>(0xff) : static_cast<__mmask8>((1u << (c - m)) - 1);
      const int64_t at = row * c + m;
      __m512i acc = _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(k, high + at));
      if (low != nullptr) {
        acc = _mm512_add_epi64(_mm512_slli_epi64(acc, 8), _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(k, low + at)));
      }
      if (p.bias != nullptr) acc = _mm512_add_epi64(acc, _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(k, p.bias + m)));
      __m256 real = _mm256_mul_ps(_mm512_cvtepi64_ps(acc), _mm256_maskz_loadu_ps(k, p.acc_scale + m));
      if (p.residual.data != nullptr) real = _mm256_add_ps(real, ResidualReal(p, at, k));
      real = Activate(p.activation, real);
      if (p.activation.scale != nullptr) {  // the affine: product, then sum, each rounded
        real = _mm256_add_ps(_mm256_mul_ps(real, _mm256_maskz_loadu_ps(k, p.activation.scale + m)),
                             _mm256_maskz_loadu_ps(k, p.activation.shift + m));
      }
      __m256 q = _mm256_roundscale_ps(_mm256_div_ps(real, out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      q = _mm256_maskz_mov_ps(_mm256_cmp_ps_mask(q, q, _CMP_ORD_Q), q);  // NaN quantizes as 0
      q = _mm256_mask_blend_ps(_mm256_cmp_ps_mask(q, lo, _CMP_LT_OQ), q, lo);
      q = _mm256_mask_blend_ps(_mm256_cmp_ps_mask(q, hi, _CMP_GT_OQ), q, hi);
      const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(q), zp);
      if (out16) {
        _mm_mask_storeu_epi16(static_cast<int16_t*>(out) + at, k, _mm256_cvtepi32_epi16(v));
      } else {
        _mm_mask_storeu_epi8(static_cast<int8_t*>(out) + at, k, _mm256_cvtepi32_epi8(v));
      }
    }
  }
}

}  // namespace

void requantize_rows__avx512(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                             WorkRange range) {
  // Narrow rows would run one masked vector per row.
  const size_t elem = p.out_type == DataType::kInt16 ? 2 : 1;
  RequantizeInRowsOfEight(p, range, [&](const RequantizeRowsParams& q, int64_t first, WorkRange rows) {
    Rows(q, high + first, low != nullptr ? low + first : nullptr,
         static_cast<uint8_t*>(out) + static_cast<size_t>(first) * elem, rows);
  });
}

namespace {

template <bool kIn16, bool kOut16>
NPURT_AVX512DQ void Codes(const void* x, int32_t x_zero_point, float x_scale, float y_scale, int32_t y_zero_point,
                          void* y, WorkRange range) {
  const __m512i x_zp = _mm512_set1_epi32(x_zero_point), y_zp = _mm512_set1_epi32(y_zero_point);
  const __m512 in_scale = _mm512_set1_ps(x_scale), out_scale = _mm512_set1_ps(y_scale);
  const float qmin = kOut16 ? -32768.0f : -128.0f, qmax = kOut16 ? 32767.0f : 127.0f;
  const __m512 lo = _mm512_set1_ps(qmin - static_cast<float>(y_zero_point));
  const __m512 hi = _mm512_set1_ps(qmax - static_cast<float>(y_zero_point));
  for (int64_t at = range.begin; at < range.end; at += 16) {
    const __mmask16 k =
        range.end - at >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (range.end - at)) - 1);
    const __m512i codes = kIn16 ? _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(k, static_cast<const int16_t*>(x) + at))
                                : _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, static_cast<const int8_t*>(x) + at));
    // DequantizeValue: float(x - zero point) * scale; QuantizeValue: the quotient clamped (the bounds are
    // integers, so before the rounding as after it), NaN as 0 (the masked conversion).
    const __m512 real = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(codes, x_zp)), in_scale);
    const __m512 q = _mm512_div_ps(real, out_scale);
    const __mmask16 number = _mm512_cmp_ps_mask(q, q, _CMP_ORD_Q);
    const __m512 clamped = _mm512_min_ps(hi, _mm512_max_ps(lo, q));
    const __m512i v = _mm512_add_epi32(
        _mm512_maskz_cvt_roundps_epi32(number, clamped, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), y_zp);
    if (kOut16) {
      _mm256_mask_storeu_epi16(static_cast<int16_t*>(y) + at, k, _mm512_cvtepi32_epi16(v));
    } else {
      _mm_mask_storeu_epi8(static_cast<int8_t*>(y) + at, k, _mm512_cvtepi32_epi8(v));
    }
  }
}

}  // namespace

void requantize_codes__avx512(const void* x, DataType x_type, int32_t x_zero_point, float x_scale, float y_scale,
                              int32_t y_zero_point, DataType y_type, void* y, WorkRange range) {
  const bool in16 = x_type == DataType::kInt16, out16 = y_type == DataType::kInt16;
  if (in16) {
    out16 ? Codes<true, true>(x, x_zero_point, x_scale, y_scale, y_zero_point, y, range)
          : Codes<true, false>(x, x_zero_point, x_scale, y_scale, y_zero_point, y, range);
  } else {
    out16 ? Codes<false, true>(x, x_zero_point, x_scale, y_scale, y_zero_point, y, range)
          : Codes<false, false>(x, x_zero_point, x_scale, y_scale, y_zero_point, y, range);
  }
}

}  // namespace npurt
