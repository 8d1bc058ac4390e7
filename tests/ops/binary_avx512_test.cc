// The AVX-512 Add / Sub / Mul (int8 and float) against the reference, bit for bit, on
// random shapes with tails (lengths around 16), same-shape, scalar and
// per-channel operands, zero points at the ends of the range, with and without Relu.
#include <gtest/gtest.h>

#if NPURT_HAVE_X86_KERNELS

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/x86/binary_avx512.h"
#include "tests/common/isa_skip.h"

namespace npurt {
namespace {

// int8 or int16 a, b and out through s8_binary__avx512 / s16_binary__avx512 against quantized_binary__ref.
template <typename T>
void ExpectQuantizedBitExact(uint32_t seed) {
  constexpr int kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  const DataType type = sizeof(T) == 1 ? DataType::kInt8 : DataType::kInt16;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> code(kMin, kMax), pick(0, 5), len(1, 70);
  std::uniform_real_distribution<float> scale(0.001f, 0.2f);
  const float code_range = sizeof(T) == 1 ? 1.0f : 1.0f / 256.0f;  // int16 codes are 256 times finer
  size_t values = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const int64_t c = pick(rng) + 1, hw = len(rng);
    const Shape out_shape{1, c, hw};
    // b: same shape, per channel, or a scalar; a: same shape or (rarely) a scalar.
    const int b_kind = iter % 3;
    const Shape b_shape = b_kind == 0 ? out_shape : b_kind == 1 ? Shape{1, c, 1} : Shape{1};
    const Shape a_shape = pick(rng) == 0 ? Shape{1} : out_shape;
    S8BinaryParams p;
    p.op = iter % 4 == 0 ? BinaryOp::kSub : iter % 2 ? BinaryOp::kMul : BinaryOp::kAdd;
    const Shape* operands[2] = {&a_shape, &b_shape};
    ASSERT_TRUE(MakeBroadcastPlan(out_shape, operands, 2, &p.plan));
    p.a_scale = scale(rng) * code_range, p.b_scale = scale(rng) * code_range;
    p.out_scale = scale(rng) * code_range * (p.op == BinaryOp::kMul ? 0.2f : 1.0f);
    const int32_t ends[] = {kMin, kMax, 0};
    p.a_zero_point = pick(rng) < 2 ? ends[pick(rng) % 3] : code(rng);
    p.b_zero_point = code(rng), p.out_zero_point = pick(rng) < 2 ? ends[pick(rng) % 3] : code(rng);
    p.activation.kind = pick(rng) < 2 ? FusedActivation::kRelu : FusedActivation::kNone;
    ASSERT_TRUE(s8_binary__avx512_supports(p));
    std::vector<T> a(static_cast<size_t>(NumElements(a_shape))), b(static_cast<size_t>(NumElements(b_shape)));
    for (T& v : a) v = static_cast<T>(code(rng));
    for (T& v : b) v = static_cast<T>(code(rng));
    const size_t n = static_cast<size_t>(NumElements(out_shape));
    std::vector<T> want(n), got(n, 99);
    quantized_binary__ref(p, type, a.data(), type, b.data(), type, want.data());
    // In two ranges, split anywhere, as threads would.
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, static_cast<int64_t>(n))(rng);
    for (const WorkRange r : {WorkRange{0, cut}, WorkRange{cut, static_cast<int64_t>(n)}}) {
      if constexpr (sizeof(T) == 1) {
        s8_binary__avx512(p, a.data(), b.data(), got.data(), r);
      } else {
        s16_binary__avx512(p, a.data(), b.data(), got.data(), r);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], want[i]) << "iteration " << iter << " at " << i << " op " << static_cast<int>(p.op) << " relu "
                                 << (p.activation.kind == FusedActivation::kRelu) << " b kind " << b_kind;
    }
    values += n;
  }
  EXPECT_GT(values, 20000u);
}

TEST(S8BinaryAvx512, BitExactWithReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
  ExpectQuantizedBitExact<int8_t>(0xb1a2);
}

TEST(S16BinaryAvx512, BitExactWithReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
  ExpectQuantizedBitExact<int16_t>(0xb1a3);
}

TEST(F32BinaryAvx512, BitExactWithReferenceNanAndInfinityIncluded) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
  std::mt19937 rng(0xf32b);
  std::uniform_real_distribution<float> value(-5.0f, 5.0f);
  std::uniform_int_distribution<int> pick(0, 19), len(1, 70);
  for (int iter = 0; iter < 300; ++iter) {
    const int64_t c = pick(rng) % 6 + 1, hw = len(rng);
    const Shape out_shape{1, c, hw};
    const int b_kind = iter % 3;
    const Shape b_shape = b_kind == 0 ? out_shape : b_kind == 1 ? Shape{1, c, 1} : Shape{1};
    const Shape a_shape = pick(rng) == 0 ? Shape{1} : out_shape;
    BinaryParams p;
    p.op = iter % 4 == 0 ? BinaryOp::kSub : iter % 2 ? BinaryOp::kMul : BinaryOp::kAdd;
    p.relu = pick(rng) < 8;
    const Shape* operands[2] = {&a_shape, &b_shape};
    ASSERT_TRUE(MakeBroadcastPlan(out_shape, operands, 2, &p.plan));
    ASSERT_TRUE(f32_binary__avx512_supports(p));
    auto fill = [&](std::vector<float>* v) {
      for (float& x : *v) {
        const int k = pick(rng);
        x = k == 0 ? std::numeric_limits<float>::quiet_NaN() : k == 1 ? -std::numeric_limits<float>::infinity() : value(rng);
      }
    };
    std::vector<float> a(static_cast<size_t>(NumElements(a_shape))), b(static_cast<size_t>(NumElements(b_shape)));
    fill(&a);
    fill(&b);
    const size_t n = static_cast<size_t>(NumElements(out_shape));
    std::vector<float> want(n), got(n, 99.0f);
    f32_binary__ref(p, a.data(), b.data(), want.data());
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, static_cast<int64_t>(n))(rng);
    f32_binary__avx512(p, a.data(), b.data(), got.data(), WorkRange{0, cut});
    f32_binary__avx512(p, a.data(), b.data(), got.data(), WorkRange{cut, static_cast<int64_t>(n)});
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << "iteration " << iter;
  }
}

TEST(S8BinaryAvx512, DeclinesWhatItDoesNotDo) {
  S8BinaryParams p;
  const Shape out{2, 3, 4}, other{2, 1, 4};
  const Shape* operands[2] = {&out, &other};
  ASSERT_TRUE(MakeBroadcastPlan(out, operands, 2, &p.plan));  // b broadcast in the middle: three merged dims
  EXPECT_FALSE(s8_binary__avx512_supports(p));
  const Shape* same[2] = {&out, &out};
  ASSERT_TRUE(MakeBroadcastPlan(out, same, 2, &p.plan));
  EXPECT_TRUE(s8_binary__avx512_supports(p));
  p.op = BinaryOp::kDiv;
  EXPECT_FALSE(s8_binary__avx512_supports(p));
}

}  // namespace
}  // namespace npurt

#endif  // NPURT_HAVE_X86_KERNELS
