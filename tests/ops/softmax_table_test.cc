// int8 Softmax with tabulated exponentials (runtime/kernels/portable) against
// the reference, bit for bit: long and short axes, inner strides, zero points
// at the ends of the range, rows split as threads would.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "runtime/kernels/portable/softmax_table.h"

namespace npurt {
namespace {

TEST(SoftmaxTable, BitExactWithReference) {
  std::mt19937 rng(0x50f7);
  std::uniform_int_distribution<int> code(-128, 127), pick(0, 3), axis(1, 700), small(1, 4);
  std::uniform_real_distribution<float> scale(0.01f, 0.5f);
  for (int iter = 0; iter < 60; ++iter) {
    S8SoftmaxParams q;
    q.softmax.outer = small(rng);
    q.softmax.axis_size = axis(rng);
    q.softmax.inner = pick(rng) == 0 ? small(rng) : 1;
    q.in_scale = scale(rng);
    q.in_zero_point = pick(rng) == 0 ? 127 : code(rng);
    q.out_scale = 1.0f / 256.0f;
    q.out_zero_point = pick(rng) == 0 ? -128 : code(rng);
    const int64_t count = q.softmax.outer * q.softmax.axis_size * q.softmax.inner;
    std::vector<int8_t> x(static_cast<size_t>(count));
    const int spread = pick(rng) == 0 ? 8 : 255;  // few distinct codes, or all of them
    for (int8_t& v : x) v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, -128 + spread)(rng));
    std::vector<int8_t> want(x.size()), got(x.size(), 99);
    s8_softmax__ref(q, x.data(), want.data());
    const int64_t rows = q.softmax.outer * q.softmax.inner;
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    s8_softmax__table(q, x.data(), got.data(), WorkRange{0, cut});
    s8_softmax__table(q, x.data(), got.data(), WorkRange{cut, rows});
    ASSERT_EQ(got, want) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace npurt
