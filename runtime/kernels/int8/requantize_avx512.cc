// The requantization rows of the int8 kernels in AVX-512 (compiled -mavx512f -mavx512bw -mavx512dq
// -mavx512vl): sixteen channels a vector, masked tails, one instantiation per activation, residual, affine
// and output type so the loop holds no branch. Bit-exact with the reference's Requantize: the same float
// operations in the same order (max / min stand for the reference's compare-and-select where they agree
// on NaN and signed zeros: max_ps(a, x) is a > x ? a : x).
#include <immintrin.h>

#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/int8/requantize_vectors_x86.h"
#include "runtime/kernels/portable/requantize_float_rows.h"

// GCC 12 warns inside its own AVX-512 headers (the undefined-vector idiom of the widening intrinsics).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace npurt {
namespace {

// The row loop's invariants, read once into registers: every store of the loop goes through an int8 or
// int16 pointer, which may alias any field of the parameters, so reading them inside would reload them.
// lo and hi: the clamp (relative to the zero point), with the activation folded in where it is.
struct Constants {
  Constants(const RequantizeRowsParams& p, float lo_bound, float hi_bound)
      : out_scale(_mm512_set1_ps(p.out_scale)),
        lo(_mm512_set1_ps(lo_bound)),
        hi(_mm512_set1_ps(hi_bound)),
        act_a(_mm512_set1_ps(p.activation.a)),
        act_b(_mm512_set1_ps(p.activation.b)),
        residual_scale(_mm512_set1_ps(p.residual.scale)),
        zp(_mm512_set1_epi32(p.out_zero_point)),
        residual_zp(_mm512_set1_epi32(p.residual.zero_point)) {}
  __m512 out_scale, lo, hi, act_a, act_b, residual_scale;
  __m512i zp, residual_zp;
};

template <FusedActivation A>
inline __m512 Activate(const Constants& k, __m512 x) {
  const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
  if constexpr (A == FusedActivation::kRelu) {
    return _mm512_max_ps(zero, x);  // x < 0 ? 0 : x
  } else if constexpr (A == FusedActivation::kClip) {
    return _mm512_min_ps(k.act_b, _mm512_max_ps(k.act_a, x));
  } else if constexpr (A == FusedActivation::kLeakyRelu) {
    return _mm512_mask_mul_ps(x, _mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ), k.act_a, x);
  } else if constexpr (A == FusedActivation::kHardSigmoid) {
    const __m512 v = _mm512_add_ps(_mm512_mul_ps(k.act_a, x), k.act_b);
    return _mm512_min_ps(one, _mm512_max_ps(zero, v));
  } else if constexpr (A == FusedActivation::kHardSwish) {
    const __m512 v = _mm512_add_ps(_mm512_div_ps(x, _mm512_set1_ps(6.0f)), _mm512_set1_ps(0.5f));
    return _mm512_mul_ps(x, _mm512_min_ps(one, _mm512_max_ps(zero, v)));
  } else {
    return x;
  }
}

// Sixteen values (lanes of `k` only) of one row: channels from `m` on, the sums' from `sum_at` on, the
// output's and the residual's from `at` on.
template <FusedActivation A, bool kResidual, bool kAffine, bool kOut16>
inline void Vector(const Constants& c, const float* __restrict acc_scale, const float* __restrict affine_scale,
                   const float* __restrict affine_shift, const void* residual, bool residual16, const float* sums,
                   void* out, int64_t m, int64_t sum_at, int64_t at, __mmask16 k) {
  __m512 real = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, sums + sum_at), _mm512_maskz_loadu_ps(k, acc_scale + m));
  if constexpr (kResidual) {
    const __m512i codes =
        residual16 ? _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(k, static_cast<const int16_t*>(residual) + at))
                   : _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, static_cast<const int8_t*>(residual) + at));
    real = WithResidual(real, codes, c.residual_zp, c.residual_scale);
  }
  real = Activate<A>(c, real);
  if constexpr (kAffine) {  // product, then sum, each rounded
    real = _mm512_add_ps(_mm512_mul_ps(real, _mm512_maskz_loadu_ps(k, affine_scale + m)),
                         _mm512_maskz_loadu_ps(k, affine_shift + m));
  }
  const __m512i v = QuantizeReal(real, c.out_scale, c.lo, c.hi, c.zp);
  // v is within the output type: narrowing is exact.
  if constexpr (kOut16) {
    _mm256_mask_storeu_epi16(static_cast<int16_t*>(out) + at, k, _mm512_cvtepi32_epi16(v));
  } else {
    _mm_mask_storeu_epi8(static_cast<int8_t*>(out) + at, k, _mm512_cvtepi32_epi8(v));
  }
}

template <FusedActivation A, bool kResidual, bool kAffine, bool kOut16>
void Rows(const RequantizeRowsParams& p, const Constants& shared, const float* sums, void* out, WorkRange range) {
  const Constants constants = shared;  // a local copy: the stores cannot alias it, so it stays in registers
  const int64_t c = p.channels, vector_end = c - c % 16;
  const float* const acc_scale = p.acc_scale;
  const float* const affine_scale = p.activation.scale;
  const float* const affine_shift = p.activation.shift;
  const void* const residual = p.residual.data;
  const bool residual16 = p.residual.type == DataType::kInt16;
  const __mmask16 all = 0xffff, tail = static_cast<__mmask16>((1u << (c % 16)) - 1);
  const int64_t stride = p.out_stride != 0 ? p.out_stride : c;
  for (int64_t row = range.begin, end = range.end; row < end; ++row) {
    const int64_t first_sum = row * c, first = row * stride;
    for (int64_t m = 0; m < vector_end; m += 16) {
      Vector<A, kResidual, kAffine, kOut16>(constants, acc_scale, affine_scale, affine_shift, residual, residual16, sums,
                                            out, m, first_sum + m, first + m, all);
    }
    if (tail != 0) {
      Vector<A, kResidual, kAffine, kOut16>(constants, acc_scale, affine_scale, affine_shift, residual, residual16, sums,
                                            out, vector_end, first_sum + vector_end, first + vector_end, tail);
    }
  }
}

template <FusedActivation A, bool kResidual, bool kAffine>
void ByOutput(const RequantizeRowsParams& p, const Constants& c, const float* sums, void* out, WorkRange range) {
  if (p.out_type == DataType::kInt16) {
    Rows<A, kResidual, kAffine, true>(p, c, sums, out, range);
  } else {
    Rows<A, kResidual, kAffine, false>(p, c, sums, out, range);
  }
}

template <FusedActivation A>
void ByActivation(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range) {
  const bool residual = p.residual.data != nullptr, affine = p.activation.scale != nullptr;
  const Constants c(p, static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point),
                    static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point));
  if (residual) {
    affine ? ByOutput<A, true, true>(p, c, sums, out, range) : ByOutput<A, true, false>(p, c, sums, out, range);
  } else {
    affine ? ByOutput<A, false, true>(p, c, sums, out, range) : ByOutput<A, false, false>(p, c, sums, out, range);
  }
}

}  // namespace

void requantize_sum_rows__avx512(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  if (p.bias != nullptr) return requantize_float_rows__portable(p, sums, out, rows);
  if (const FoldedClamp f = FoldActivationIntoClamp(p); f.folded) {
    const Constants c(p, f.lo, f.hi);
    return p.residual.data != nullptr ? ByOutput<FusedActivation::kNone, true, false>(p, c, sums, out, rows)
                                      : ByOutput<FusedActivation::kNone, false, false>(p, c, sums, out, rows);
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
