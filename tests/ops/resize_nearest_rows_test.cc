// The row-wise nearest Resize (runtime/kernels/portable) against the reference,
// bit for bit: int8 with and without requantization, float, int16 with the
// same input and output parameters, random ranks,
// upsampling and downsampling, split into row ranges as threads would.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "runtime/kernels/portable/resize_nearest_rows.h"
#include "runtime/kernels/ref/resize.h"

namespace npurt {
namespace {

TEST(ResizeNearestRows, BitExactWithReference) {
  std::mt19937 rng(0x7e51);
  std::uniform_int_distribution<int> dim(1, 9), rank_pick(1, 4), code(-128, 127), pick(0, 3);
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = rank_pick(rng);
    std::vector<int64_t> in_shape(static_cast<size_t>(rank)), out_shape(static_cast<size_t>(rank)),
        strides(static_cast<size_t>(rank));
    std::vector<std::vector<int64_t>> index(static_cast<size_t>(rank));
    std::vector<const int64_t*> index_ptrs;
    int64_t in_count = 1;
    for (int d = rank - 1; d >= 0; --d) {
      in_shape[d] = dim(rng);
      out_shape[d] = pick(rng) == 0 ? in_shape[d] : dim(rng) * (pick(rng) + 1);
      strides[d] = in_count;
      in_count *= in_shape[d];
      for (int64_t o = 0; o < out_shape[d]; ++o) index[d].push_back(o * in_shape[d] / out_shape[d]);  // asymmetric floor
    }
    for (auto& v : index) index_ptrs.push_back(v.data());
    S8ResizeParams q;
    q.resize.rank = rank;
    q.resize.out_shape = out_shape.data();
    q.resize.in_strides = strides.data();
    q.resize.index0 = index_ptrs.data();
    const bool requantize = iter % 2 == 1;
    if (requantize) q.in_scale = 0.05f, q.in_zero_point = code(rng), q.out_scale = 0.07f, q.out_zero_point = code(rng);
    std::vector<int8_t> in(static_cast<size_t>(in_count));
    for (int8_t& v : in) v = static_cast<int8_t>(code(rng));
    const int64_t out_count = ResizeOutputCount(q.resize);
    std::vector<int8_t> want(static_cast<size_t>(out_count)), got(want.size(), 99);
    s8_resize_nearest__ref(q, in.data(), want.data());
    std::vector<int8_t> table(256);
    BuildResizeRequantizeTable(q, table.data());
    const int64_t rows = ResizeOutputRows(q.resize);
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    s8_resize_nearest__rows(q.resize, requantize ? table.data() : nullptr, in.data(), got.data(), WorkRange{0, cut});
    s8_resize_nearest__rows(q.resize, requantize ? table.data() : nullptr, in.data(), got.data(),
                            WorkRange{cut, rows});
    ASSERT_EQ(got, want) << "iteration " << iter;

    std::vector<float> fin(in.begin(), in.end()), fwant(want.size()), fgot(want.size(), -1.0f);
    f32_resize_nearest__ref(q.resize, fin.data(), fwant.data());
    f32_resize_nearest__rows(q.resize, fin.data(), fgot.data(), WorkRange{0, cut});
    f32_resize_nearest__rows(q.resize, fin.data(), fgot.data(), WorkRange{cut, rows});
    ASSERT_EQ(0, std::memcmp(fgot.data(), fwant.data(), fwant.size() * sizeof(float))) << "iteration " << iter;

    // int16 codes with the same input and output parameters (copied as they are).
    S8ResizeParams same = q;
    same.in_scale = same.out_scale = 0.001f;
    same.in_zero_point = same.out_zero_point = 0;
    std::vector<int16_t> in16(in.size()), want16(want.size()), got16(want.size(), 99);
    for (size_t i = 0; i < in16.size(); ++i) in16[i] = static_cast<int16_t>(in[i] * 257);
    quantized_resize__ref(same, false, DataType::kInt16, in16.data(), want16.data());
    s16_resize_nearest__rows(same.resize, in16.data(), got16.data(), WorkRange{0, cut});
    s16_resize_nearest__rows(same.resize, in16.data(), got16.data(), WorkRange{cut, rows});
    ASSERT_EQ(got16, want16) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace npurt
