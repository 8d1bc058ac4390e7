#include "runtime/kernels/x86/requantize_avx2.h"

#include <immintrin.h>

#include <cstdlib>

#include "runtime/kernels/ref/quantize.h"

namespace npurt {

namespace {

#define NPURT_AVX2 __attribute__((target("avx2")))

NPURT_AVX2 inline __m256 Select(__m256 mask, __m256 if_false, __m256 if_true) {
  return _mm256_blendv_ps(if_false, if_true, mask);
}

// ApplyFusedActivation on eight lanes, the same comparisons and operations in the same order.
NPURT_AVX2 inline __m256 Activate(const FusedActivationParams& a, __m256 x) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  switch (a.kind) {
    case FusedActivation::kNone: return x;
    case FusedActivation::kRelu: return Select(_mm256_cmp_ps(x, zero, _CMP_LT_OQ), x, zero);
    case FusedActivation::kClip: {
      const __m256 lo = _mm256_set1_ps(a.a), hi = _mm256_set1_ps(a.b);
      const __m256 v = Select(_mm256_cmp_ps(x, lo, _CMP_LT_OQ), x, lo);
      return Select(_mm256_cmp_ps(v, hi, _CMP_GT_OQ), v, hi);
    }
    case FusedActivation::kLeakyRelu:
      return Select(_mm256_cmp_ps(x, zero, _CMP_LT_OQ), x, _mm256_mul_ps(_mm256_set1_ps(a.a), x));
    case FusedActivation::kHardSigmoid: {
      const __m256 v = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a.a), x), _mm256_set1_ps(a.b));
      const __m256 w = Select(_mm256_cmp_ps(v, zero, _CMP_LT_OQ), v, zero);
      return Select(_mm256_cmp_ps(w, one, _CMP_GT_OQ), w, one);
    }
    case FusedActivation::kHardSwish: {
      const __m256 v = _mm256_add_ps(_mm256_div_ps(x, _mm256_set1_ps(6.0f)), _mm256_set1_ps(0.5f));
      const __m256 w = Select(_mm256_cmp_ps(v, zero, _CMP_LT_OQ), v, zero);
      return _mm256_mul_ps(x, Select(_mm256_cmp_ps(w, one, _CMP_GT_OQ), w, one));
    }
  }
  return x;
}

// float(sum + bias) on eight lanes, rounded once as the reference's float(int32 acc): a float addition rounds
// the exact sum correctly, so adding in float is exact where the bias is a float (|bias| <= 2^24, checked
// by the caller: `exact_bias`); otherwise the addition runs in double (exact) and rounds to float once.
// Two pieces (`low` not nullptr): float(sums * factor + low + bias), all exact integers added in double and
// rounded to float once.
NPURT_AVX2 inline __m256 Accumulator(const float* sums, const float* low, double factor, const int32_t* bias,
                                     bool exact_bias) {
  const __m256 s = _mm256_loadu_ps(sums);
  if (low != nullptr) {
    const __m256 l = _mm256_loadu_ps(low);
    const __m256i b = bias != nullptr ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias))
                                      : _mm256_setzero_si256();
    const __m256d f = _mm256_set1_pd(factor);
    const __m256d lo = _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(s)), f),
                      _mm256_cvtps_pd(_mm256_castps256_ps128(l))),
        _mm256_cvtepi32_pd(_mm256_castsi256_si128(b)));
    const __m256d hi = _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(s, 1)), f),
                      _mm256_cvtps_pd(_mm256_extractf128_ps(l, 1))),
        _mm256_cvtepi32_pd(_mm256_extracti128_si256(b, 1)));
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
  }
  if (bias == nullptr) return s;
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias));
  if (exact_bias) return _mm256_add_ps(s, _mm256_cvtepi32_ps(b));
  const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(s)),
                                   _mm256_cvtepi32_pd(_mm256_castsi256_si128(b)));
  const __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(s, 1)),
                                   _mm256_cvtepi32_pd(_mm256_extracti128_si256(b, 1)));
  return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

// The residual's real values of elements [at, at + 8): (code - zero point) * scale, as QuantizedResidualValue.
NPURT_AVX2 inline __m256 ResidualReal(const RequantizeRowsParams& p, int64_t at) {
  __m256i v;
  if (p.residual.type == DataType::kInt16) {
    v = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const int16_t*>(p.residual.data) + at)));
  } else {
    v = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(static_cast<const int8_t*>(p.residual.data) + at)));
  }
  v = _mm256_sub_epi32(v, _mm256_set1_epi32(p.residual.zero_point));
  return _mm256_mul_ps(_mm256_cvtepi32_ps(v), _mm256_set1_ps(p.residual.scale));
}

NPURT_AVX2 void FloatRows(const RequantizeRowsParams& p, const float* sums, const float* low, double factor, void* out,
                          WorkRange range) {
  const int64_t c = p.channels;
  const int64_t vector_end = c - c % 8;
  const __m256 out_scale = _mm256_set1_ps(p.out_scale);
  const __m256 lo = _mm256_set1_ps(static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point));
  const __m256 hi = _mm256_set1_ps(static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point));
  const __m256i zp = _mm256_set1_epi32(p.out_zero_point);
  const bool out16 = p.out_type == DataType::kInt16;
  bool exact_bias = true;
  for (int64_t m = 0; p.bias != nullptr && m < c; ++m) exact_bias = exact_bias && std::llabs(p.bias[m]) <= (1 << 24);
  int8_t* out8 = static_cast<int8_t*>(out);
  int16_t* out16p = static_cast<int16_t*>(out);
  for (int64_t row = range.Begin(INT64_MAX), end = range.End(INT64_MAX); row < end; ++row) {
    const int64_t base = row * c;
    for (int64_t m = 0; m < vector_end; m += 8) {
      const __m256 acc = Accumulator(sums + base + m, low != nullptr ? low + base + m : nullptr, factor,
                                     p.bias != nullptr ? p.bias + m : nullptr, exact_bias);
      __m256 real = _mm256_mul_ps(acc, _mm256_loadu_ps(p.acc_scale + m));
      if (p.residual.data != nullptr) real = _mm256_add_ps(real, ResidualReal(p, base + m));
      real = Activate(p.activation, real);
      if (p.activation.scale != nullptr) {  // the affine: product, then sum, each rounded
        real = _mm256_add_ps(_mm256_mul_ps(real, _mm256_loadu_ps(p.activation.scale + m)),
                             _mm256_loadu_ps(p.activation.shift + m));
      }
      __m256 q = _mm256_round_ps(_mm256_div_ps(real, out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      q = _mm256_and_ps(q, _mm256_cmp_ps(q, q, _CMP_ORD_Q));  // NaN quantizes as 0
      q = Select(_mm256_cmp_ps(q, lo, _CMP_LT_OQ), q, lo);
      q = Select(_mm256_cmp_ps(q, hi, _CMP_GT_OQ), q, hi);
      const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(q), zp);
      // Saturating packs are exact here: v is already within the output type's range.
      const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      if (out16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out16p + base + m), words);
      } else {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(out8 + base + m), _mm_packs_epi16(words, words));
      }
    }
    for (int64_t m = vector_end; m < c; ++m) {  // the tail, as the reference computes it
      const double acc = static_cast<double>(sums[base + m]) * (low != nullptr ? factor : 1.0) +
                         (low != nullptr ? low[base + m] : 0.0f) + (p.bias != nullptr ? p.bias[m] : 0);
      const int32_t q =
          p.residual.data != nullptr
              ? RequantizeWithResidual(static_cast<float>(acc), p.acc_scale[m],
                                       QuantizedResidualValue(p.residual, base + m), p.activation,
                                       p.out_scale, p.out_zero_point, p.out_min, p.out_max, m)
              : Requantize(static_cast<float>(acc), p.acc_scale[m], p.activation, p.out_scale, p.out_zero_point,
                           p.out_min, p.out_max, m);
      if (out16) {
        out16p[base + m] = static_cast<int16_t>(q);
      } else {
        out8[base + m] = static_cast<int8_t>(q);
      }
    }
  }
}

// Eight int8 or int16 codes as int32 lanes.
template <typename T>
NPURT_AVX2 inline __m256i LoadCodes(const T* codes) {
  if constexpr (sizeof(T) == 1) {
    return _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(codes)));
  } else {
    return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(codes)));
  }
}

template <typename T>
NPURT_AVX2 void CodesToFloat(const T* codes, int32_t zero_point, float* out, int64_t begin, int64_t end) {
  const __m256i zp = _mm256_set1_epi32(zero_point);
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    const __m256i v = LoadCodes(codes + i);
    _mm256_storeu_ps(out + i, _mm256_cvtepi32_ps(_mm256_sub_epi32(v, zp)));
  }
  for (; i < end; ++i) out[i] = static_cast<float>(static_cast<int32_t>(codes[i]) - zero_point);
}

template <typename T>
NPURT_AVX2 void CodesToFloatPieces(const T* codes, int32_t zero_point, int shift, float* high, float* low,
                                   int64_t begin, int64_t end) {
  const __m256i zp = _mm256_set1_epi32(zero_point), mask = _mm256_set1_epi32((1 << shift) - 1);
  const __m128i count = _mm_cvtsi32_si128(shift);
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    const __m256i v = LoadCodes(codes + i);
    const __m256i d = _mm256_sub_epi32(v, zp);
    _mm256_storeu_ps(high + i, _mm256_cvtepi32_ps(_mm256_sra_epi32(d, count)));  // floor(d / 2^shift)
    _mm256_storeu_ps(low + i, _mm256_cvtepi32_ps(_mm256_and_si256(d, mask)));
  }
  for (; i < end; ++i) {
    const int32_t d = static_cast<int32_t>(codes[i]) - zero_point;
    high[i] = static_cast<float>(d >> shift);
    low[i] = static_cast<float>(d & ((1 << shift) - 1));
  }
}

template <typename T>
NPURT_AVX2 void QuantizePerTensor(const float* x, float scale, int32_t zero_point, T* y, int64_t begin, int64_t end) {
  constexpr int32_t kMin = sizeof(T) == 1 ? -128 : -32768, kMax = sizeof(T) == 1 ? 127 : 32767;
  const __m256 s = _mm256_set1_ps(scale);
  const __m256 lo = _mm256_set1_ps(static_cast<float>(kMin) - static_cast<float>(zero_point));
  const __m256 hi = _mm256_set1_ps(static_cast<float>(kMax) - static_cast<float>(zero_point));
  const __m256i zp = _mm256_set1_epi32(zero_point);
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    __m256 q = _mm256_round_ps(_mm256_div_ps(_mm256_loadu_ps(x + i), s), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    q = _mm256_and_ps(q, _mm256_cmp_ps(q, q, _CMP_ORD_Q));  // NaN quantizes as 0
    q = Select(_mm256_cmp_ps(q, lo, _CMP_LT_OQ), q, lo);
    q = Select(_mm256_cmp_ps(q, hi, _CMP_GT_OQ), q, hi);
    const __m256i v = _mm256_add_epi32(_mm256_cvtps_epi32(q), zp);
    const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    if constexpr (sizeof(T) == 2) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), words);
    } else {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm_packs_epi16(words, words));
    }
  }
  for (; i < end; ++i) y[i] = static_cast<T>(QuantizeValue(x[i], scale, zero_point, kMin, kMax));
}

template <typename T>
NPURT_AVX2 void DequantizePerTensor(const T* x, float scale, int32_t zero_point, float* y, int64_t begin,
                                    int64_t end) {
  CodesToFloat(x, zero_point, y, begin, end);
  const __m256 s = _mm256_set1_ps(scale);
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), s));
  for (; i < end; ++i) y[i] *= scale;
}

}  // namespace

void quantize_per_tensor__avx2(const float* x, float scale, int32_t zero_point, DataType type, void* y,
                               WorkRange range) {
  const int64_t begin = range.Begin(INT64_MAX), end = range.End(INT64_MAX);
  if (type == DataType::kInt16) {
    QuantizePerTensor(x, scale, zero_point, static_cast<int16_t*>(y), begin, end);
  } else {
    QuantizePerTensor(x, scale, zero_point, static_cast<int8_t*>(y), begin, end);
  }
}

void dequantize_per_tensor__avx2(const void* x, DataType type, float scale, int32_t zero_point, float* y,
                                 WorkRange range) {
  const int64_t begin = range.Begin(INT64_MAX), end = range.End(INT64_MAX);
  if (type == DataType::kInt16) {
    DequantizePerTensor(static_cast<const int16_t*>(x), scale, zero_point, y, begin, end);
  } else {
    DequantizePerTensor(static_cast<const int8_t*>(x), scale, zero_point, y, begin, end);
  }
}

void requantize_float_rows__avx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range,
                                 const float* low_sums, int high_shift) {
  // Narrow rows (a one-channel map, a depth-to-space output) would all run as the scalar tail.
  const size_t elem = p.out_type == DataType::kInt16 ? 2 : 1;
  const double factor = static_cast<double>(int64_t{1} << high_shift);
  RequantizeInRowsOfEight(p, range, [&](const RequantizeRowsParams& q, int64_t first, WorkRange rows) {
    FloatRows(q, sums + first, low_sums != nullptr ? low_sums + first : nullptr, factor,
              static_cast<uint8_t*>(out) + static_cast<size_t>(first) * elem, rows);
  });
}

void codes_to_float__avx2(const void* codes, DataType type, int32_t zero_point, float* out, WorkRange range) {
  const int64_t begin = range.Begin(INT64_MAX), end = range.End(INT64_MAX);
  if (type == DataType::kInt16) {
    CodesToFloat(static_cast<const int16_t*>(codes), zero_point, out, begin, end);
  } else {
    CodesToFloat(static_cast<const int8_t*>(codes), zero_point, out, begin, end);
  }
}

void codes_to_float_pieces__avx2(const void* codes, DataType type, int32_t zero_point, int shift, float* high,
                                  float* low, WorkRange range) {
  const int64_t begin = range.Begin(INT64_MAX), end = range.End(INT64_MAX);
  if (type == DataType::kInt16) {
    CodesToFloatPieces(static_cast<const int16_t*>(codes), zero_point, shift, high, low, begin, end);
  } else {
    CodesToFloatPieces(static_cast<const int8_t*>(codes), zero_point, shift, high, low, begin, end);
  }
}

}  // namespace npurt
