#include "runtime/kernels/x86/s8_binary_avx512.h"

#include <immintrin.h>

#include <algorithm>

namespace npurt {

namespace {

struct Lanes {
  __m512 a_scale, b_scale, out_scale, lo, hi;
  __m512i a_zp, b_zp, out_zp;
};

__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m512 Dequantize(__m128i q, __m512i zp, __m512 scale) {
  return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_cvtepi8_epi32(q), zp)), scale);
}

template <BinaryOp kOp, bool kRelu>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m128i Combine(const Lanes& l, __m128i qa, __m128i qb) {
  const __m512 x = Dequantize(qa, l.a_zp, l.a_scale);
  const __m512 y = Dequantize(qb, l.b_zp, l.b_scale);
  __m512 r = kOp == BinaryOp::kAdd ? _mm512_add_ps(x, y) : kOp == BinaryOp::kSub ? _mm512_sub_ps(x, y) : _mm512_mul_ps(x, y);
  if (kRelu) r = _mm512_max_ps(r, _mm512_setzero_ps());  // r < 0 ? 0 : r (r is never NaN: finite operands)
  __m512 q = _mm512_roundscale_ps(_mm512_div_ps(r, l.out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __mmask16 ordered = _mm512_cmp_ps_mask(q, q, _CMP_ORD_Q);  // NaN quantizes as 0
  q = _mm512_maskz_mov_ps(ordered, q);
  q = _mm512_min_ps(_mm512_max_ps(q, l.lo), l.hi);
  return _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(q), l.out_zp));
}

// One row segment: n elements; a and b step 0 (broadcast) or 1.
template <BinaryOp kOp, bool kRelu>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void Row(const Lanes& l, const int8_t* a, bool a_step, const int8_t* b,
                                                      bool b_step, int8_t* out, int64_t n) {
  const __m128i a_one = _mm_set1_epi8(*a), b_one = _mm_set1_epi8(*b);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i qa = a_step ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)) : a_one;
    const __m128i qb = b_step ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)) : b_one;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), Combine<kOp, kRelu>(l, qa, qb));
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m128i qa = a_step ? _mm_maskz_loadu_epi8(m, a + i) : a_one;
    const __m128i qb = b_step ? _mm_maskz_loadu_epi8(m, b + i) : b_one;
    _mm_mask_storeu_epi8(out + i, m, Combine<kOp, kRelu>(l, qa, qb));
  }
}

template <BinaryOp kOp, bool kRelu>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void Run(const S8BinaryParams& p, const int8_t* a, const int8_t* b,
                                                      int8_t* out, WorkRange range) {
  Lanes l;
  l.a_scale = _mm512_set1_ps(p.a_scale);
  l.b_scale = _mm512_set1_ps(p.b_scale);
  l.out_scale = _mm512_set1_ps(p.out_scale);
  l.lo = _mm512_set1_ps(static_cast<float>(-128 - p.out_zero_point));
  l.hi = _mm512_set1_ps(static_cast<float>(127 - p.out_zero_point));
  l.a_zp = _mm512_set1_epi32(p.a_zero_point);
  l.b_zp = _mm512_set1_epi32(p.b_zero_point);
  l.out_zp = _mm512_set1_epi32(p.out_zero_point);
  const BroadcastPlan& plan = p.plan;
  const int last = plan.rank - 1;
  const int64_t length = plan.dims[last];
  const int64_t rows = plan.rank == 2 ? plan.dims[0] : 1;
  const int64_t a_row = plan.rank == 2 ? plan.strides[0][0] : 0, b_row = plan.rank == 2 ? plan.strides[1][0] : 0;
  const bool a_step = plan.strides[0][last] != 0, b_step = plan.strides[1][last] != 0;
  const int64_t end = range.End(rows * length);
  for (int64_t e = range.Begin(rows * length); e < end;) {
    const int64_t r = e / length, i = e % length;
    const int64_t n = std::min(length - i, end - e);
    Row<kOp, kRelu>(l, a + r * a_row + (a_step ? i : 0), a_step, b + r * b_row + (b_step ? i : 0), b_step, out + e, n);
    e += n;
  }
}

template <BinaryOp kOp>
void RunOp(const S8BinaryParams& p, const int8_t* a, const int8_t* b, int8_t* out, WorkRange range) {
  if (p.activation.kind == FusedActivation::kRelu) {
    Run<kOp, true>(p, a, b, out, range);
  } else {
    Run<kOp, false>(p, a, b, out, range);
  }
}

}  // namespace

bool s8_binary__avx512_supports(const S8BinaryParams& p) {
  if (p.op != BinaryOp::kAdd && p.op != BinaryOp::kSub && p.op != BinaryOp::kMul) return false;
  if (p.activation.kind != FusedActivation::kNone && p.activation.kind != FusedActivation::kRelu) return false;
  if (p.plan.rank > 2) return false;
  const int last = p.plan.rank - 1;
  for (int k = 0; k < 2; ++k) {
    if (p.plan.strides[k][last] != 0 && p.plan.strides[k][last] != 1) return false;
  }
  return true;
}

void s8_binary__avx512(const S8BinaryParams& p, const int8_t* a, const int8_t* b, int8_t* out, WorkRange range) {
  switch (p.op) {
    case BinaryOp::kAdd: RunOp<BinaryOp::kAdd>(p, a, b, out, range); break;
    case BinaryOp::kSub: RunOp<BinaryOp::kSub>(p, a, b, out, range); break;
    default: RunOp<BinaryOp::kMul>(p, a, b, out, range); break;
  }
}

}  // namespace npurt
