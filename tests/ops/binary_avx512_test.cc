// The AVX-512 Add / Sub / Mul (int8 / int16 codes in any mix, and float) against the reference, bit for
// bit, on random shapes with tails (lengths around 16), same-shape, scalar and per-channel operands, zero
// points at the ends of the range, with and without Relu.
#include <gtest/gtest.h>

#if NPURT_HAVE_X86_KERNELS

#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/x86/binary_avx512.h"
#include "tests/common/isa_skip.h"
#include "tests/ops/quantized_binary_kernel_cases.h"

namespace npurt {
namespace {

using testing::ExpectEveryIntegerMixBitExact;

TEST(QuantizedBinaryAvx512, BitExactWithReferenceForEveryTypeMix) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
  ExpectEveryIntegerMixBitExact(0xb1a2, 70, s8_binary__avx512_supports, quantized_binary__avx512);
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
