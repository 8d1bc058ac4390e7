// The bit-exactness harness of the quantized Add / Sub / Mul kernels (binary_avx2_test.cc,
// binary_avx512_test.cc): one set of random cases for every ISA's kernel.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/broadcast.h"

namespace npurt {
namespace testing {

template <typename T>
constexpr DataType TypeOf() {
  return std::is_same_v<T, float> ? DataType::kFloat32 : sizeof(T) == 1 ? DataType::kInt8 : DataType::kInt16;
}

// Add / Sub / Mul of a, b and out of types A, B, Out (int8, int16; b also float) through `kernel` (the
// signature of quantized_binary__ref with a WorkRange) against quantized_binary__ref, bit for bit: 300
// random shapes of 1-6 channels x 1-max_len (tails), b same-shape, per channel or a scalar (a now and then
// a scalar), zero points at the ends of the range, with and without Relu, split into two ranges.
template <typename A, typename B, typename Out, typename Supports, typename Kernel>
void ExpectQuantizedBinaryBitExact(uint32_t seed, int max_len, Supports supports, Kernel kernel) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 5), len(1, max_len);
  std::uniform_real_distribution<float> scale(0.001f, 0.2f);
  auto codes = [&](auto* v) {
    using T = typename std::remove_pointer_t<decltype(v)>::value_type;
    if constexpr (std::is_same_v<T, float>) {  // a float constant b: values, and now and then NaN or infinity
      std::uniform_real_distribution<float> value(-3.0f, 3.0f);
      const float odd[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
      for (auto& x : *v) x = pick(rng) == 0 && pick(rng) == 0 ? odd[pick(rng) % 2] : value(rng);
    } else {
      std::uniform_int_distribution<int> code(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      for (auto& x : *v) x = static_cast<T>(code(rng));
    }
  };
  auto zero_point = [&](DataType t) {
    const int lo = t == DataType::kInt16 ? -32768 : -128, hi = t == DataType::kInt16 ? 32767 : 127;
    const int ends[] = {lo, hi, 0};
    return pick(rng) < 2 ? ends[pick(rng) % 3] : std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  // int16 codes are 256 times finer: scales follow each tensor's type.
  auto fine = [](DataType t) { return t == DataType::kInt16 ? 1.0f / 256.0f : 1.0f; };
  size_t values = 0;
  for (int iter = 0; iter < 300; ++iter) {
    const int64_t c = pick(rng) + 1, hw = len(rng);
    const Shape out_shape{1, c, hw};
    const int b_kind = iter % 3;  // b: same shape, per channel, or a scalar; a: same shape or (rarely) a scalar
    const Shape b_shape = b_kind == 0 ? out_shape : b_kind == 1 ? Shape{1, c, 1} : Shape{1};
    const Shape a_shape = pick(rng) == 0 ? Shape{1} : out_shape;
    S8BinaryParams p;
    p.op = iter % 4 == 0 ? BinaryOp::kSub : iter % 2 ? BinaryOp::kMul : BinaryOp::kAdd;
    const Shape* operands[2] = {&a_shape, &b_shape};
    ASSERT_TRUE(MakeBroadcastPlan(out_shape, operands, 2, &p.plan));
    p.a_scale = scale(rng) * fine(TypeOf<A>()), p.b_scale = scale(rng) * fine(TypeOf<B>());
    p.out_scale = scale(rng) * fine(TypeOf<Out>()) * (p.op == BinaryOp::kMul ? 0.2f : 1.0f);
    p.a_zero_point = zero_point(TypeOf<A>()), p.b_zero_point = zero_point(TypeOf<B>());
    p.out_zero_point = zero_point(TypeOf<Out>());
    p.activation.kind = pick(rng) < 2 ? FusedActivation::kRelu : FusedActivation::kNone;
    ASSERT_TRUE(supports(p));
    std::vector<A> a(static_cast<size_t>(NumElements(a_shape)));
    std::vector<B> b(static_cast<size_t>(NumElements(b_shape)));
    codes(&a);
    codes(&b);
    const size_t n = static_cast<size_t>(NumElements(out_shape));
    std::vector<Out> want(n), got(n, 99);
    quantized_binary__ref(p, TypeOf<A>(), a.data(), TypeOf<B>(), b.data(), TypeOf<Out>(), want.data());
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, static_cast<int64_t>(n))(rng);
    for (const WorkRange r : {WorkRange{0, cut}, WorkRange{cut, static_cast<int64_t>(n)}}) {
      kernel(p, TypeOf<A>(), a.data(), TypeOf<B>(), b.data(), TypeOf<Out>(), got.data(), r);
    }
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], want[i]) << "iteration " << iter << " at " << i << " op " << static_cast<int>(p.op) << " relu "
                                 << (p.activation.kind == FusedActivation::kRelu) << " b kind " << b_kind;
    }
    values += n;
  }
  EXPECT_GT(values, 10000u);
}

// The eight int8 / int16 mixes of a, b and out, seeds seed, seed + 1, ...
template <typename Supports, typename Kernel>
void ExpectEveryIntegerMixBitExact(uint32_t seed, int max_len, Supports supports, Kernel kernel) {
  ExpectQuantizedBinaryBitExact<int8_t, int8_t, int8_t>(seed, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int16_t, int16_t, int16_t>(seed + 1, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int16_t, int16_t, int8_t>(seed + 2, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int8_t, int16_t, int16_t>(seed + 3, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int16_t, int8_t, int8_t>(seed + 4, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int8_t, int8_t, int16_t>(seed + 5, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int8_t, int16_t, int8_t>(seed + 6, max_len, supports, kernel);
  ExpectQuantizedBinaryBitExact<int16_t, int8_t, int16_t>(seed + 7, max_len, supports, kernel);
}

}  // namespace testing
}  // namespace npurt
