// The requantization rows of the int8 kernels in AVX2 (compiled -mavx2 -mfma; no contraction): eight
// channels a vector, one instantiation per activation, residual, affine and output type so the loop
// holds no branch, the tail through the reference's own functions. Bit-exact with the reference's
// Requantize, as requantize_avx512.cc (max / min where they agree with its compare-and-select).
#include <immintrin.h>

#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/int8/requantize_vectors_x86.h"
#include "runtime/kernels/portable/requantize_float_rows.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

// The row loop's invariants, read once into registers (the loop's int8 / int16 stores may alias any field
// of the parameters).
// lo and hi: the clamp (relative to the zero point), with the activation folded in where it is.
struct Constants {
  Constants(const RequantizeRowsParams& p, float lo_bound, float hi_bound)
      : out_scale(_mm256_set1_ps(p.out_scale)),
        lo(_mm256_set1_ps(lo_bound)),
        hi(_mm256_set1_ps(hi_bound)),
        act_a(_mm256_set1_ps(p.activation.a)),
        act_b(_mm256_set1_ps(p.activation.b)),
        residual_scale(_mm256_set1_ps(p.residual.scale)),
        zp(_mm256_set1_epi32(p.out_zero_point)),
        residual_zp(_mm256_set1_epi32(p.residual.zero_point)) {}
  __m256 out_scale, lo, hi, act_a, act_b, residual_scale;
  __m256i zp, residual_zp;
};

template <FusedActivation A>
inline __m256 Activate(const Constants& k, __m256 x) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  if constexpr (A == FusedActivation::kRelu) {
    return _mm256_max_ps(zero, x);  // x < 0 ? 0 : x
  } else if constexpr (A == FusedActivation::kClip) {
    return _mm256_min_ps(k.act_b, _mm256_max_ps(k.act_a, x));
  } else if constexpr (A == FusedActivation::kLeakyRelu) {
    return _mm256_blendv_ps(x, _mm256_mul_ps(k.act_a, x), _mm256_cmp_ps(x, zero, _CMP_LT_OQ));
  } else if constexpr (A == FusedActivation::kHardSigmoid) {
    const __m256 v = _mm256_add_ps(_mm256_mul_ps(k.act_a, x), k.act_b);
    return _mm256_min_ps(one, _mm256_max_ps(zero, v));
  } else if constexpr (A == FusedActivation::kHardSwish) {
    const __m256 v = _mm256_add_ps(_mm256_div_ps(x, _mm256_set1_ps(6.0f)), _mm256_set1_ps(0.5f));
    return _mm256_mul_ps(x, _mm256_min_ps(one, _mm256_max_ps(zero, v)));
  } else {
    return x;
  }
}

template <FusedActivation A, bool kResidual, bool kAffine, bool kOut16>
void Rows(const RequantizeRowsParams& p, const Constants& shared, const float* sums, void* out, WorkRange range) {
  const Constants k = shared;  // a local copy: the stores cannot alias it, so it stays in registers
  const int64_t c = p.channels, vector_end = c - c % 8, stride = p.out_stride != 0 ? p.out_stride : c;
  const float* const acc_scale = p.acc_scale;
  const float* const affine_scale = p.activation.scale;
  const float* const affine_shift = p.activation.shift;
  const void* const residual = p.residual.data;
  const bool residual16 = p.residual.type == DataType::kInt16;
  for (int64_t row = range.begin, end = range.end; row < end; ++row) {
    for (int64_t m = 0; m < vector_end; m += 8) {
      const int64_t at = row * stride + m;
      __m256 real = _mm256_mul_ps(_mm256_loadu_ps(sums + row * c + m), _mm256_loadu_ps(acc_scale + m));
      if constexpr (kResidual) {
        const __m256i codes =
            residual16
                ? _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const int16_t*>(residual) + at)))
                : _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(static_cast<const int8_t*>(residual) + at)));
        real = WithResidual(real, codes, k.residual_zp, k.residual_scale);
      }
      real = Activate<A>(k, real);
      if constexpr (kAffine) {  // product, then sum, each rounded
        real = _mm256_add_ps(_mm256_mul_ps(real, _mm256_loadu_ps(affine_scale + m)), _mm256_loadu_ps(affine_shift + m));
      }
      const __m128i words = QuantizeReal(real, k.out_scale, k.lo, k.hi, k.zp);
      if constexpr (kOut16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(static_cast<int16_t*>(out) + at), words);
      } else {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(static_cast<int8_t*>(out) + at), _mm_packs_epi16(words, words));
      }
    }
    for (int64_t m = vector_end; m < c; ++m) {  // the tail, as the reference computes it
      const int64_t at = row * stride + m;
      const float sum = sums[row * c + m];
      const int32_t q = kResidual ? RequantizeWithResidual(sum, p.acc_scale[m], QuantizedResidualValue(p.residual, at),
                                                           p.activation, p.out_scale, p.out_zero_point, p.out_min,
                                                           p.out_max, m)
                                  : Requantize(sum, p.acc_scale[m], p.activation, p.out_scale, p.out_zero_point,
                                               p.out_min, p.out_max, m);
      if constexpr (kOut16) {
        static_cast<int16_t*>(out)[at] = static_cast<int16_t>(q);
      } else {
        static_cast<int8_t*>(out)[at] = static_cast<int8_t>(q);
      }
    }
  }
}

template <FusedActivation A, bool kResidual, bool kAffine>
void ByOutput(const RequantizeRowsParams& p, const Constants& k, const float* sums, void* out, WorkRange range) {
  if (p.out_type == DataType::kInt16) {
    Rows<A, kResidual, kAffine, true>(p, k, sums, out, range);
  } else {
    Rows<A, kResidual, kAffine, false>(p, k, sums, out, range);
  }
}

template <FusedActivation A>
void ByActivation(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range) {
  const bool residual = p.residual.data != nullptr, affine = p.activation.scale != nullptr;
  const Constants k(p, static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point),
                    static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point));
  if (residual) {
    affine ? ByOutput<A, true, true>(p, k, sums, out, range) : ByOutput<A, true, false>(p, k, sums, out, range);
  } else {
    affine ? ByOutput<A, false, true>(p, k, sums, out, range) : ByOutput<A, false, false>(p, k, sums, out, range);
  }
}

}  // namespace

void requantize_sum_rows__avx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  // Narrow rows would run as the tail only; rows with a bias to add are the portable rows' job.
  if (p.bias != nullptr || p.channels < 8) return requantize_float_rows__portable(p, sums, out, rows);
  if (const FoldedClamp f = FoldActivationIntoClamp(p); f.folded) {
    const Constants k(p, f.lo, f.hi);
    return p.residual.data != nullptr ? ByOutput<FusedActivation::kNone, true, false>(p, k, sums, out, rows)
                                      : ByOutput<FusedActivation::kNone, false, false>(p, k, sums, out, rows);
  }
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
