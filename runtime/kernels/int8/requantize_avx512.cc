// The requantization rows of the int8 kernels in AVX-512 (compiled -mavx512f -mavx512bw -mavx512dq
// -mavx512vl): sixteen channels a vector, masked tails, one instantiation per activation, residual, affine
// and output type so the loop holds no branch. Bit-exact with the reference's Requantize: the same float
// operations in the same order (max / min stand for the reference's compare-and-select where they agree
// on NaN and signed zeros: max_ps(a, x) is a > x ? a : x).
#include <immintrin.h>

#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/portable/requantize_float_rows.h"

// GCC 12 warns inside its own AVX-512 headers (the undefined-vector idiom of the widening intrinsics).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace npurt {
namespace {

template <FusedActivation A>
inline __m512 Activate(const FusedActivationParams& a, __m512 x) {
  const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
  if constexpr (A == FusedActivation::kRelu) {
    return _mm512_max_ps(zero, x);  // x < 0 ? 0 : x
  } else if constexpr (A == FusedActivation::kClip) {
    return _mm512_min_ps(_mm512_set1_ps(a.b), _mm512_max_ps(_mm512_set1_ps(a.a), x));
  } else if constexpr (A == FusedActivation::kLeakyRelu) {
    return _mm512_mask_mul_ps(x, _mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ), _mm512_set1_ps(a.a), x);
  } else if constexpr (A == FusedActivation::kHardSigmoid) {
    const __m512 v = _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(a.a), x), _mm512_set1_ps(a.b));
    return _mm512_min_ps(one, _mm512_max_ps(zero, v));
  } else if constexpr (A == FusedActivation::kHardSwish) {
    const __m512 v = _mm512_add_ps(_mm512_div_ps(x, _mm512_set1_ps(6.0f)), _mm512_set1_ps(0.5f));
    return _mm512_mul_ps(x, _mm512_min_ps(one, _mm512_max_ps(zero, v)));
  } else {
    return x;
  }
}

template <FusedActivation A, bool kResidual, bool kAffine, bool kOut16>
void Rows(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range) {
  const int64_t c = p.channels;
  const __m512 out_scale = _mm512_set1_ps(p.out_scale);
  const __m512 lo = _mm512_set1_ps(static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point));
  const __m512 hi = _mm512_set1_ps(static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point));
  const __m512i zp = _mm512_set1_epi32(p.out_zero_point);
  const __m512i residual_zp = _mm512_set1_epi32(p.residual.zero_point);
  const __m512 residual_scale = _mm512_set1_ps(p.residual.scale);
  const bool residual16 = p.residual.type == DataType::kInt16;
  for (int64_t row = range.begin; row < range.end; ++row) {
    for (int64_t m = 0; m < c; m += 16) {
      const __mmask16 k = c - m >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (c - m)) - 1);
      const int64_t at = row * c + m;
      __m512 real = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, sums + at), _mm512_maskz_loadu_ps(k, p.acc_scale + m));
      if constexpr (kResidual) {
        const __m512i codes =
            residual16 ? _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(k, static_cast<const int16_t*>(p.residual.data) + at))
                       : _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, static_cast<const int8_t*>(p.residual.data) + at));
        real = _mm512_add_ps(real, _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(codes, residual_zp)), residual_scale));
      }
      real = Activate<A>(p.activation, real);
      if constexpr (kAffine) {  // product, then sum, each rounded
        real = _mm512_add_ps(_mm512_mul_ps(real, _mm512_maskz_loadu_ps(k, p.activation.scale + m)),
                             _mm512_maskz_loadu_ps(k, p.activation.shift + m));
      }
      __m512 q = _mm512_roundscale_ps(_mm512_div_ps(real, out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      q = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(q, q, _CMP_ORD_Q), q);  // NaN quantizes as 0
      q = _mm512_min_ps(hi, _mm512_max_ps(lo, q));
      const __m512i v = _mm512_add_epi32(_mm512_cvtps_epi32(q), zp);  // within the output type: narrowing is exact
      if constexpr (kOut16) {
        _mm256_mask_storeu_epi16(static_cast<int16_t*>(out) + at, k, _mm512_cvtepi32_epi16(v));
      } else {
        _mm_mask_storeu_epi8(static_cast<int8_t*>(out) + at, k, _mm512_cvtepi32_epi8(v));
      }
    }
  }
}

template <FusedActivation A, bool kResidual, bool kAffine>
void ByOutput(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range) {
  if (p.out_type == DataType::kInt16) {
    Rows<A, kResidual, kAffine, true>(p, sums, out, range);
  } else {
    Rows<A, kResidual, kAffine, false>(p, sums, out, range);
  }
}

template <FusedActivation A>
void ByActivation(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range) {
  const bool residual = p.residual.data != nullptr, affine = p.activation.scale != nullptr;
  if (residual) {
    affine ? ByOutput<A, true, true>(p, sums, out, range) : ByOutput<A, true, false>(p, sums, out, range);
  } else {
    affine ? ByOutput<A, false, true>(p, sums, out, range) : ByOutput<A, false, false>(p, sums, out, range);
  }
}

}  // namespace

void requantize_sum_rows__avx512(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  if (p.bias != nullptr) return requantize_float_rows__portable(p, sums, out, rows);
  switch (p.activation.kind) {
    case FusedActivation::kNone: return ByActivation<FusedActivation::kNone>(p, sums, out, rows);
    case FusedActivation::kRelu: return ByActivation<FusedActivation::kRelu>(p, sums, out, rows);
    case FusedActivation::kClip: return ByActivation<FusedActivation::kClip>(p, sums, out, rows);
    case FusedActivation::kLeakyRelu: return ByActivation<FusedActivation::kLeakyRelu>(p, sums, out, rows);
    case FusedActivation::kHardSigmoid: return ByActivation<FusedActivation::kHardSigmoid>(p, sums, out, rows);
    case FusedActivation::kHardSwish: return ByActivation<FusedActivation::kHardSwish>(p, sums, out, rows);
  }
}

}  // namespace npurt
