#include "runtime/kernels/x86/binary_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/x86/binary_segments.h"

// GCC 12 warns inside its own AVX-512 headers (the undefined-vector idiom of the widening intrinsics).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace npurt {

namespace {

struct Lanes {
  __m512 a_scale, b_scale, out_scale, lo, hi;
  __m512i a_zp, b_zp, out_zp;
};

#define NPURT_AVX512BW __attribute__((target("avx512f,avx512bw,avx512vl")))

// Sixteen codes of an int8 or int16 tensor widened to int32 lanes (masked: the first lanes of `m`), and back.
NPURT_AVX512BW inline __m512i Load(const int8_t* p, __mmask16 m) { return _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)); }
NPURT_AVX512BW inline __m512i Load(const int16_t* p, __mmask16 m) {
  return _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, p));
}
NPURT_AVX512BW inline void Store(int8_t* p, __mmask16 m, __m512i v) { _mm_mask_storeu_epi8(p, m, _mm512_cvtepi32_epi8(v)); }
NPURT_AVX512BW inline void Store(int16_t* p, __mmask16 m, __m512i v) {
  _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(v));
}

NPURT_AVX512BW inline __m512 Dequantize(__m512i q, __m512i zp, __m512 scale) {
  return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(q, zp)), scale);
}

template <BinaryOp kOp, bool kRelu>
NPURT_AVX512BW inline __m512i Combine(const Lanes& l, __m512i qa, __m512i qb) {
  const __m512 x = Dequantize(qa, l.a_zp, l.a_scale);
  const __m512 y = Dequantize(qb, l.b_zp, l.b_scale);
  __m512 r = kOp == BinaryOp::kAdd ? _mm512_add_ps(x, y) : kOp == BinaryOp::kSub ? _mm512_sub_ps(x, y) : _mm512_mul_ps(x, y);
  if (kRelu) r = _mm512_max_ps(r, _mm512_setzero_ps());  // r < 0 ? 0 : r (r is never NaN: finite operands)
  __m512 q = _mm512_roundscale_ps(_mm512_div_ps(r, l.out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __mmask16 ordered = _mm512_cmp_ps_mask(q, q, _CMP_ORD_Q);  // NaN quantizes as 0
  q = _mm512_maskz_mov_ps(ordered, q);
  q = _mm512_min_ps(_mm512_max_ps(q, l.lo), l.hi);
  return _mm512_add_epi32(_mm512_cvtps_epi32(q), l.out_zp);
}

// One row segment: n elements; a and b step 0 (broadcast) or 1.
template <BinaryOp kOp, bool kRelu, typename TA, typename TB, typename T>
NPURT_AVX512BW void Row(const Lanes& l, const TA* a, bool a_step, const TB* b, bool b_step, T* out, int64_t n) {
  const __m512i a_one = _mm512_set1_epi32(*a), b_one = _mm512_set1_epi32(*b);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512i qa = a_step ? Load(a + i, m) : a_one;
    const __m512i qb = b_step ? Load(b + i, m) : b_one;
    Store(out + i, m, Combine<kOp, kRelu>(l, qa, qb));
  }
}

template <BinaryOp kOp, bool kRelu>
__attribute__((target("avx512f"))) inline __m512 CombineF32(__m512 x, __m512 y) {
  __m512 r = kOp == BinaryOp::kAdd ? _mm512_add_ps(x, y) : kOp == BinaryOp::kSub ? _mm512_sub_ps(x, y) : _mm512_mul_ps(x, y);
  // x < 0 ? 0 : x, so NaN stays NaN as in the reference.
  if (kRelu) r = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(r, _mm512_setzero_ps(), _CMP_LT_OQ), r, _mm512_setzero_ps());
  return r;
}

template <BinaryOp kOp, bool kRelu>
__attribute__((target("avx512f"))) void F32Row(const float* a, bool a_step, const float* b, bool b_step, float* out,
                                               int64_t n) {
  const __m512 a_one = _mm512_set1_ps(*a), b_one = _mm512_set1_ps(*b);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = a_step ? _mm512_loadu_ps(a + i) : a_one, y = b_step ? _mm512_loadu_ps(b + i) : b_one;
    _mm512_storeu_ps(out + i, CombineF32<kOp, kRelu>(x, y));
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 x = a_step ? _mm512_maskz_loadu_ps(m, a + i) : a_one, y = b_step ? _mm512_maskz_loadu_ps(m, b + i) : b_one;
    _mm512_mask_storeu_ps(out + i, m, CombineF32<kOp, kRelu>(x, y));
  }
}

template <BinaryOp kOp, bool kRelu>
void F32Run(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range) {
  ForEachSegment(p.plan, range, [&](int64_t ao, bool as, int64_t bo, bool bs, int64_t o, int64_t n) {
    F32Row<kOp, kRelu>(a + ao, as, b + bo, bs, out + o, n);
  });
}

template <BinaryOp kOp>
void F32RunOp(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range) {
  if (p.relu) {
    F32Run<kOp, true>(p, a, b, out, range);
  } else {
    F32Run<kOp, false>(p, a, b, out, range);
  }
}

template <BinaryOp kOp, bool kRelu, typename TA, typename TB, typename T>
NPURT_AVX512BW void Run(const S8BinaryParams& p, const TA* a, const TB* b, T* out, WorkRange range) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  Lanes l;
  l.a_scale = _mm512_set1_ps(p.a_scale);
  l.b_scale = _mm512_set1_ps(p.b_scale);
  l.out_scale = _mm512_set1_ps(p.out_scale);
  l.lo = _mm512_set1_ps(static_cast<float>(kMin - p.out_zero_point));
  l.hi = _mm512_set1_ps(static_cast<float>(kMax - p.out_zero_point));
  l.a_zp = _mm512_set1_epi32(p.a_zero_point);
  l.b_zp = _mm512_set1_epi32(p.b_zero_point);
  l.out_zp = _mm512_set1_epi32(p.out_zero_point);
  ForEachSegment(p.plan, range, [&](int64_t ao, bool as, int64_t bo, bool bs, int64_t o, int64_t n) {
    Row<kOp, kRelu, TA, TB, T>(l, a + ao, as, b + bo, bs, out + o, n);
  });
}

template <BinaryOp kOp, typename TA, typename TB, typename T>
void RunOp(const S8BinaryParams& p, const TA* a, const TB* b, T* out, WorkRange range) {
  if (p.activation.kind == FusedActivation::kRelu) {
    Run<kOp, true, TA, TB, T>(p, a, b, out, range);
  } else {
    Run<kOp, false, TA, TB, T>(p, a, b, out, range);
  }
}

template <typename TA, typename TB, typename T>
void Dispatch(const S8BinaryParams& p, const TA* a, const TB* b, T* out, WorkRange range) {
  switch (p.op) {
    case BinaryOp::kAdd: RunOp<BinaryOp::kAdd>(p, a, b, out, range); break;
    case BinaryOp::kSub: RunOp<BinaryOp::kSub>(p, a, b, out, range); break;
    default: RunOp<BinaryOp::kMul>(p, a, b, out, range); break;
  }
}

}  // namespace

bool s8_binary__avx512_supports(const S8BinaryParams& p) {
  if (p.op != BinaryOp::kAdd && p.op != BinaryOp::kSub && p.op != BinaryOp::kMul) return false;
  if (p.activation.kind != FusedActivation::kNone && p.activation.kind != FusedActivation::kRelu) return false;
  return SegmentPlanSupported(p.plan);
}

bool f32_binary__avx512_supports(const BinaryParams& p) {
  return (p.op == BinaryOp::kAdd || p.op == BinaryOp::kSub || p.op == BinaryOp::kMul) && SegmentPlanSupported(p.plan);
}

void f32_binary__avx512(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range) {
  switch (p.op) {
    case BinaryOp::kAdd: F32RunOp<BinaryOp::kAdd>(p, a, b, out, range); break;
    case BinaryOp::kSub: F32RunOp<BinaryOp::kSub>(p, a, b, out, range); break;
    default: F32RunOp<BinaryOp::kMul>(p, a, b, out, range); break;
  }
}

void quantized_binary__avx512(const S8BinaryParams& p, DataType a_type, const void* a, DataType b_type, const void* b,
                              DataType out_type, void* out, WorkRange range) {
  WithActivationType(a_type, [&](auto* a_tag) {
    using TA = std::remove_pointer_t<decltype(a_tag)>;
    WithActivationType(b_type, [&](auto* b_tag) {
      using TB = std::remove_pointer_t<decltype(b_tag)>;
      WithActivationType(out_type, [&](auto* out_tag) {
        using T = std::remove_pointer_t<decltype(out_tag)>;
        Dispatch(p, static_cast<const TA*>(a), static_cast<const TB*>(b), static_cast<T*>(out), range);
      });
    });
  });
}

}  // namespace npurt
