// The AVX2 Add / Sub / Mul against the reference, bit for bit: float32, and
// every int8 / int16 mix of operands and output (b also float32), on random shapes with tails
// (lengths around 8), same-shape, scalar and per-channel operands, zero points
// at the ends of the range, with and without Relu, split into two ranges.
#include <gtest/gtest.h>

#if NPURT_HAVE_X86_KERNELS

#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/x86/binary_avx2.h"
#include "tests/common/isa_skip.h"
#include "tests/ops/quantized_binary_kernel_cases.h"

namespace npurt {
namespace {

using testing::ExpectEveryIntegerMixBitExact;
using testing::ExpectQuantizedBinaryBitExact;

TEST(QuantizedBinaryAvx2, BitExactWithReferenceForEveryTypeMix) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  ExpectEveryIntegerMixBitExact(0xa201, 40, quantized_binary__avx2_supports, quantized_binary__avx2);
  // The hybrid scheme's float constants as b.
  ExpectQuantizedBinaryBitExact<int16_t, float, int16_t>(0xa207, 40, quantized_binary__avx2_supports, quantized_binary__avx2);
  ExpectQuantizedBinaryBitExact<int16_t, float, int8_t>(0xa208, 40, quantized_binary__avx2_supports, quantized_binary__avx2);
  ExpectQuantizedBinaryBitExact<int8_t, float, int8_t>(0xa209, 40, quantized_binary__avx2_supports, quantized_binary__avx2);
}

TEST(F32BinaryAvx2, BitExactWithReferenceNanAndInfinityIncluded) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  std::mt19937 rng(0xf32c);
  std::uniform_real_distribution<float> value(-5.0f, 5.0f);
  std::uniform_int_distribution<int> pick(0, 19), len(1, 40);
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
    ASSERT_TRUE(f32_binary__avx2_supports(p));
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
    f32_binary__avx2(p, a.data(), b.data(), got.data(), WorkRange{0, cut});
    f32_binary__avx2(p, a.data(), b.data(), got.data(), WorkRange{cut, static_cast<int64_t>(n)});
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << "iteration " << iter;
  }
}

TEST(QuantizedBinaryAvx2, DeclinesWhatItDoesNotDo) {
  S8BinaryParams p;
  const Shape out{2, 3, 4}, other{2, 1, 4};
  const Shape* operands[2] = {&out, &other};
  ASSERT_TRUE(MakeBroadcastPlan(out, operands, 2, &p.plan));  // b broadcast in the middle: three merged dims
  EXPECT_FALSE(quantized_binary__avx2_supports(p));
  const Shape* same[2] = {&out, &out};
  ASSERT_TRUE(MakeBroadcastPlan(out, same, 2, &p.plan));
  EXPECT_TRUE(quantized_binary__avx2_supports(p));
  p.activation.kind = FusedActivation::kClip;
  EXPECT_FALSE(quantized_binary__avx2_supports(p));
  p.activation.kind = FusedActivation::kNone;
  p.op = BinaryOp::kDiv;
  EXPECT_FALSE(quantized_binary__avx2_supports(p));
}

}  // namespace
}  // namespace npurt

#endif  // NPURT_HAVE_X86_KERNELS
