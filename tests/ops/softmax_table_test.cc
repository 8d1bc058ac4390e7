// Quantized Softmax's portable kernels (tabulated int8 exponentials, buffered
// rows for the other type mixes, their exponentials quantized by the requantization
// rows) against the reference, bit for bit: long and short axes, inner strides,
// zero points at the ends of the range, rows split as threads would.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "runtime/kernels/int8/requantize_config.h"
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

// Every int8 / int16 mix with the row buffer: int16 logits over a recognizer's 6625 classes included.
TEST(SoftmaxRows, BitExactWithReferenceForEveryTypeMix) {
  std::mt19937 rng(0x50f8);
  std::uniform_int_distribution<int> pick(0, 3), small(1, 4);
  std::uniform_real_distribution<float> scale(0.01f, 0.5f);
  const DataType types[] = {DataType::kInt8, DataType::kInt16};
  for (int iter = 0; iter < 48; ++iter) {
    const DataType in = types[iter % 2], out = types[(iter / 2) % 2];
    S8SoftmaxParams q;
    q.softmax.outer = small(rng);
    q.softmax.axis_size = iter % 8 == 0 ? 6625 : std::uniform_int_distribution<int64_t>(1, 900)(rng);
    q.softmax.inner = pick(rng) == 0 ? small(rng) : 1;
    const int bits = in == DataType::kInt16 ? 16 : 8;
    const int32_t lo = -(1 << (bits - 1)), hi = (1 << (bits - 1)) - 1;
    q.in_scale = in == DataType::kInt16 ? scale(rng) / 256.0f : scale(rng);
    q.in_zero_point = in == DataType::kInt16 ? 0 : std::uniform_int_distribution<int>(lo, hi)(rng);
    q.out_scale = out == DataType::kInt16 ? 1.0f / 32768.0f : 1.0f / 256.0f;
    q.out_zero_point = out == DataType::kInt16 ? 0 : -128;
    const int64_t count = q.softmax.outer * q.softmax.axis_size * q.softmax.inner;
    std::vector<uint8_t> x(static_cast<size_t>(count) * (bits / 8));
    std::uniform_int_distribution<int32_t> code(lo, hi);
    for (int64_t i = 0; i < count; ++i) {
      const int32_t v = code(rng);
      if (bits == 16) {
        reinterpret_cast<int16_t*>(x.data())[i] = static_cast<int16_t>(v);
      } else {
        x[static_cast<size_t>(i)] = static_cast<uint8_t>(static_cast<int8_t>(v));
      }
    }
    const size_t out_bytes = static_cast<size_t>(count) * (out == DataType::kInt16 ? 2 : 1);
    std::vector<uint8_t> want(out_bytes), got(out_bytes, 99);
    quantized_softmax__ref(q, in, x.data(), out, want.data());
    std::vector<float> exps(static_cast<size_t>(q.softmax.axis_size));
    const int64_t rows = q.softmax.outer * q.softmax.inner;
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    quantized_softmax__rows(q, in, x.data(), out, got.data(), exps.data(), WorkRange{0, cut});
    quantized_softmax__rows(q, in, x.data(), out, got.data(), exps.data(), WorkRange{cut, rows});
    ASSERT_EQ(got, want) << "iteration " << iter << " " << DataTypeName(in) << " -> " << DataTypeName(out);
  }
}

// The op's path along a contiguous axis: each row's exponentials (quantized_softmax_exps), then the
// requantization rows kernel of this CPU quantizing exps[k] * scale: the reference's codes.
TEST(SoftmaxRows, ExponentialsThenTheRequantizationRowsGiveTheReferenceBits) {
  std::mt19937 rng(0x50f9);
  std::uniform_int_distribution<int> small(1, 3);
  std::uniform_real_distribution<float> scale(0.01f, 0.5f);
  const DataType types[] = {DataType::kInt8, DataType::kInt16};
  const RequantizeFloatRowsFn quantize = ChooseRequantizeFloatRows();
  for (int iter = 0; iter < 32; ++iter) {
    const DataType in = types[iter % 2], out = types[(iter / 2) % 2];
    S8SoftmaxParams q;
    q.softmax.outer = small(rng);
    q.softmax.axis_size = iter % 4 == 0 ? 6625 : std::uniform_int_distribution<int64_t>(1, 900)(rng);
    q.softmax.inner = 1;
    const bool in16 = in == DataType::kInt16, out16 = out == DataType::kInt16;
    const int32_t lo = in16 ? -32768 : -128, hi = in16 ? 32767 : 127;
    q.in_scale = in16 ? scale(rng) / 256.0f : scale(rng);
    q.in_zero_point = in16 ? 0 : std::uniform_int_distribution<int>(lo, hi)(rng);
    q.out_scale = out16 ? 1.0f / 32768.0f : 1.0f / 256.0f;
    q.out_zero_point = out16 ? 0 : -128;
    const int64_t n = q.softmax.axis_size, count = q.softmax.outer * n;
    std::vector<int16_t> codes(static_cast<size_t>(count));
    std::vector<int8_t> codes8(codes.size());
    for (size_t i = 0; i < codes.size(); ++i) {
      codes[i] = static_cast<int16_t>(std::uniform_int_distribution<int32_t>(lo, hi)(rng));
      codes8[i] = static_cast<int8_t>(in16 ? 0 : codes[i]);
    }
    const void* x = in16 ? static_cast<const void*>(codes.data()) : static_cast<const void*>(codes8.data());
    const size_t elem = out16 ? 2 : 1;
    std::vector<uint8_t> want(static_cast<size_t>(count) * elem), got(want.size(), 99);
    quantized_softmax__ref(q, in, x, out, want.data());
    std::vector<float> exps(static_cast<size_t>(n));
    RequantizeRowsParams rq;
    rq.channels = 1;
    rq.out_scale = q.out_scale;
    rq.out_zero_point = q.out_zero_point;
    rq.out_type = out;
    rq.out_min = out16 ? -32768 : -128;
    rq.out_max = out16 ? 32767 : 127;
    for (int64_t r = 0; r < q.softmax.outer; ++r) {
      const float row_scale = quantized_softmax_exps(q, in, x, r, exps.data());
      rq.acc_scale = &row_scale;
      quantize(rq, exps.data(), got.data() + static_cast<size_t>(r * n) * elem, WorkRange{0, n});
    }
    ASSERT_EQ(got, want) << "iteration " << iter << " " << DataTypeName(in) << " -> " << DataTypeName(out);
  }
}

}  // namespace
}  // namespace npurt
