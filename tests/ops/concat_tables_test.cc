// int8 Concat through requantization tables (runtime/kernels/portable) against
// the reference, bit for bit: random chunk sizes, some inputs copied, some
// requantized, zero points at the ends of the range.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "runtime/kernels/portable/concat_tables.h"

namespace npurt {
namespace {

TEST(ConcatTables, BitExactWithReference) {
  std::mt19937 rng(0xc0c7);
  std::uniform_int_distribution<int> code(-128, 127), small(0, 40), count(1, 5), pick(0, 2);
  std::uniform_real_distribution<float> scale(0.005f, 0.3f);
  for (int iter = 0; iter < 200; ++iter) {
    S8ConcatParams p;
    p.outer = static_cast<size_t>(count(rng));
    p.out_scale = scale(rng);
    p.out_zero_point = pick(rng) == 0 ? -128 : code(rng);
    std::vector<S8ConcatInput> inputs(static_cast<size_t>(count(rng)));
    std::vector<std::vector<int8_t>> data(inputs.size()), tables(inputs.size(), std::vector<int8_t>(256));
    std::vector<const int8_t*> data_ptrs, table_ptrs;
    size_t total = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      S8ConcatInput& in = inputs[i];
      in.chunk = static_cast<size_t>(small(rng));
      in.copy = pick(rng) == 0;
      in.scale = in.copy ? p.out_scale : scale(rng);
      in.zero_point = in.copy ? p.out_zero_point : (pick(rng) == 0 ? 127 : code(rng));
      data[i].resize(in.chunk * p.outer);
      for (int8_t& v : data[i]) v = static_cast<int8_t>(code(rng));
      data_ptrs.push_back(data[i].data());
      total += in.chunk * p.outer;
    }
    p.num_inputs = inputs.size();
    p.inputs = inputs.data();
    for (size_t i = 0; i < inputs.size(); ++i) {
      BuildConcatRequantizeTable(p, inputs[i], tables[i].data());
      table_ptrs.push_back(inputs[i].copy ? nullptr : tables[i].data());
    }
    std::vector<int8_t> want(total + 1, 5), got(total + 1, 5);
    s8_concat__ref(p, data_ptrs.data(), want.data());
    s8_concat__tables(p, table_ptrs.data(), data_ptrs.data(), got.data());
    ASSERT_EQ(got, want) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace npurt
