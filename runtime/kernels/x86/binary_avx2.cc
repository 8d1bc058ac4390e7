#include "runtime/kernels/x86/binary_avx2.h"

#include <immintrin.h>

#include <cstring>
#include <limits>

#include "runtime/kernels/x86/binary_segments.h"

namespace npurt {

namespace {

#define NPURT_AVX2 __attribute__((target("avx2")))

// Eight codes widened to int32 lanes; n < 8 reads only n (the tail of a segment).
NPURT_AVX2 inline __m256i Load(const int8_t* p, int64_t n) {
  int64_t bytes = 0;
  std::memcpy(&bytes, p, static_cast<size_t>(n < 8 ? n : 8));
  return _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(bytes));
}
NPURT_AVX2 inline __m256i Load(const int16_t* p, int64_t n) {
  if (n >= 8) return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  alignas(16) int16_t part[8] = {};
  std::memcpy(part, p, static_cast<size_t>(n) * sizeof(int16_t));
  return _mm256_cvtepi16_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(part)));
}
// int32 lanes already within the type's range back to codes; n < 8 writes only n.
NPURT_AVX2 inline void Store(int8_t* p, int64_t n, __m256i v) {
  const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const int64_t bytes = _mm_cvtsi128_si64(_mm_packs_epi16(words, words));
  std::memcpy(p, &bytes, static_cast<size_t>(n < 8 ? n : 8));
}
NPURT_AVX2 inline void Store(int16_t* p, int64_t n, __m256i v) {
  const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  if (n >= 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), words);
    return;
  }
  alignas(16) int16_t part[8];
  _mm_store_si128(reinterpret_cast<__m128i*>(part), words);
  std::memcpy(p, part, static_cast<size_t>(n) * sizeof(int16_t));
}

struct Lanes {
  __m256 a_scale, b_scale, out_scale, lo, hi;
  __m256i a_zp, b_zp, out_zp;
};

NPURT_AVX2 inline __m256 Dequantize(__m256i q, __m256i zp, __m256 scale) {
  return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(q, zp)), scale);
}

template <BinaryOp kOp>
NPURT_AVX2 inline __m256 Combine(__m256 x, __m256 y) {
  return kOp == BinaryOp::kAdd ? _mm256_add_ps(x, y) : kOp == BinaryOp::kSub ? _mm256_sub_ps(x, y) : _mm256_mul_ps(x, y);
}

// n (at most 8) operand values as real numbers: int8 / int16 codes dequantized, float32 as is (b only:
// PRelu's slope, the float constants the hybrid scheme keeps).
template <typename T>
NPURT_AVX2 inline __m256 Real(const T* p, int64_t n, __m256i zp, __m256 scale) {
  return Dequantize(Load(p, n), zp, scale);
}
template <>
NPURT_AVX2 inline __m256 Real<float>(const float* p, int64_t n, __m256i, __m256) {
  if (n >= 8) return _mm256_loadu_ps(p);
  alignas(32) float part[8] = {};
  std::memcpy(part, p, static_cast<size_t>(n) * sizeof(float));
  return _mm256_load_ps(part);
}

// Lane 0 everywhere.
NPURT_AVX2 inline __m256 Broadcast(__m256 v) { return _mm256_permutevar8x32_ps(v, _mm256_setzero_si256()); }

template <BinaryOp kOp, bool kRelu>
NPURT_AVX2 inline __m256i Quantized(const Lanes& l, __m256 x, __m256 y) {
  __m256 r = Combine<kOp>(x, y);
  if (kRelu) r = _mm256_max_ps(r, _mm256_setzero_ps());  // r < 0 ? 0 : r (NaN: quantized as 0 either way)
  __m256 q = _mm256_round_ps(_mm256_div_ps(r, l.out_scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  q = _mm256_and_ps(q, _mm256_cmp_ps(q, q, _CMP_ORD_Q));  // NaN quantizes as 0
  q = _mm256_min_ps(_mm256_max_ps(q, l.lo), l.hi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(q), l.out_zp);
}

// One row segment of n elements; a and b step 0 (broadcast) or 1.
template <BinaryOp kOp, bool kRelu, typename A, typename B, typename Out>
NPURT_AVX2 void QuantizedRow(const Lanes& l, const A* a, bool a_step, const B* b, bool b_step, Out* out, int64_t n) {
  // A broadcast operand's value in every lane (only then: short rows pay for this per row).
  const __m256 x_one = a_step ? _mm256_setzero_ps() : Broadcast(Real(a, 1, l.a_zp, l.a_scale));
  const __m256 y_one = b_step ? _mm256_setzero_ps() : Broadcast(Real(b, 1, l.b_zp, l.b_scale));
  for (int64_t i = 0; i < n; i += 8) {
    const int64_t count = n - i;
    const __m256 x = a_step ? Real(a + i, count, l.a_zp, l.a_scale) : x_one;
    const __m256 y = b_step ? Real(b + i, count, l.b_zp, l.b_scale) : y_one;
    Store(out + i, count, Quantized<kOp, kRelu>(l, x, y));
  }
}

template <BinaryOp kOp, bool kRelu, typename A, typename B, typename Out>
NPURT_AVX2 void QuantizedRun(const S8BinaryParams& p, const void* a, const void* b, void* out, WorkRange range) {
  constexpr int32_t kMin = std::numeric_limits<Out>::min(), kMax = std::numeric_limits<Out>::max();
  Lanes l;
  l.a_scale = _mm256_set1_ps(p.a_scale);
  l.b_scale = _mm256_set1_ps(p.b_scale);
  l.out_scale = _mm256_set1_ps(p.out_scale);
  l.lo = _mm256_set1_ps(static_cast<float>(kMin - p.out_zero_point));
  l.hi = _mm256_set1_ps(static_cast<float>(kMax - p.out_zero_point));
  l.a_zp = _mm256_set1_epi32(p.a_zero_point);
  l.b_zp = _mm256_set1_epi32(p.b_zero_point);
  l.out_zp = _mm256_set1_epi32(p.out_zero_point);
  const A* ta = static_cast<const A*>(a);
  const B* tb = static_cast<const B*>(b);
  Out* to = static_cast<Out*>(out);
  ForEachSegment(p.plan, range, [&](int64_t ao, bool as, int64_t bo, bool bs, int64_t o, int64_t n) {
    QuantizedRow<kOp, kRelu>(l, ta + ao, as, tb + bo, bs, to + o, n);
  });
}

// The storage types, then the op and activation, as template arguments.
template <typename A, typename B, typename Out>
void QuantizedTyped(const S8BinaryParams& p, const void* a, const void* b, void* out, WorkRange range) {
  const bool relu = p.activation.kind == FusedActivation::kRelu;
  switch (p.op) {
    case BinaryOp::kAdd:
      relu ? QuantizedRun<BinaryOp::kAdd, true, A, B, Out>(p, a, b, out, range)
           : QuantizedRun<BinaryOp::kAdd, false, A, B, Out>(p, a, b, out, range);
      break;
    case BinaryOp::kSub:
      relu ? QuantizedRun<BinaryOp::kSub, true, A, B, Out>(p, a, b, out, range)
           : QuantizedRun<BinaryOp::kSub, false, A, B, Out>(p, a, b, out, range);
      break;
    default:
      relu ? QuantizedRun<BinaryOp::kMul, true, A, B, Out>(p, a, b, out, range)
           : QuantizedRun<BinaryOp::kMul, false, A, B, Out>(p, a, b, out, range);
      break;
  }
}

template <typename A, typename B>
void QuantizedOut(const S8BinaryParams& p, const void* a, const void* b, DataType out_type, void* out,
                  WorkRange range) {
  if (out_type == DataType::kInt16) {
    QuantizedTyped<A, B, int16_t>(p, a, b, out, range);
  } else {
    QuantizedTyped<A, B, int8_t>(p, a, b, out, range);
  }
}

template <typename A>
void QuantizedB(const S8BinaryParams& p, const void* a, DataType b_type, const void* b, DataType out_type, void* out,
                WorkRange range) {
  if (b_type == DataType::kFloat32) {
    QuantizedOut<A, float>(p, a, b, out_type, out, range);
  } else if (b_type == DataType::kInt16) {
    QuantizedOut<A, int16_t>(p, a, b, out_type, out, range);
  } else {
    QuantizedOut<A, int8_t>(p, a, b, out_type, out, range);
  }
}

template <BinaryOp kOp, bool kRelu>
NPURT_AVX2 void F32Row(const float* a, bool a_step, const float* b, bool b_step, float* out, int64_t n) {
  const __m256 a_one = _mm256_set1_ps(*a), b_one = _mm256_set1_ps(*b);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = a_step ? _mm256_loadu_ps(a + i) : a_one, y = b_step ? _mm256_loadu_ps(b + i) : b_one;
    __m256 r = Combine<kOp>(x, y);
    // r < 0 ? 0 : r, so NaN stays NaN as in the reference.
    if (kRelu) r = _mm256_blendv_ps(r, _mm256_setzero_ps(), _mm256_cmp_ps(r, _mm256_setzero_ps(), _CMP_LT_OQ));
    _mm256_storeu_ps(out + i, r);
  }
  for (; i < n; ++i) {  // the tail, as the reference computes it
    const float x = a_step ? a[i] : *a, y = b_step ? b[i] : *b;
    const float r = kOp == BinaryOp::kAdd ? x + y : kOp == BinaryOp::kSub ? x - y : x * y;
    out[i] = kRelu && r < 0.0f ? 0.0f : r;
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

bool AddSubMul(BinaryOp op) { return op == BinaryOp::kAdd || op == BinaryOp::kSub || op == BinaryOp::kMul; }

}  // namespace

bool quantized_binary__avx2_supports(const S8BinaryParams& p) {
  if (!AddSubMul(p.op)) return false;
  if (p.activation.kind != FusedActivation::kNone && p.activation.kind != FusedActivation::kRelu) return false;
  return SegmentPlanSupported(p.plan);
}

void quantized_binary__avx2(const S8BinaryParams& p, DataType a_type, const void* a, DataType b_type, const void* b,
                            DataType out_type, void* out, WorkRange range) {
  if (a_type == DataType::kInt16) {
    QuantizedB<int16_t>(p, a, b_type, b, out_type, out, range);
  } else {
    QuantizedB<int8_t>(p, a, b_type, b, out_type, out, range);
  }
}

bool f32_binary__avx2_supports(const BinaryParams& p) { return AddSubMul(p.op) && SegmentPlanSupported(p.plan); }

void f32_binary__avx2(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range) {
  switch (p.op) {
    case BinaryOp::kAdd: F32RunOp<BinaryOp::kAdd>(p, a, b, out, range); break;
    case BinaryOp::kSub: F32RunOp<BinaryOp::kSub>(p, a, b, out, range); break;
    default: F32RunOp<BinaryOp::kMul>(p, a, b, out, range); break;
  }
}

}  // namespace npurt
