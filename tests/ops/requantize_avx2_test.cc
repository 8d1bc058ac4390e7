// AVX2 requantization of float sum rows against the reference's Requantize of
// the same integer accumulator, bit for bit: every fused activation (with and
// without the affine after it, with and without a residual), int8 and
// int16 outputs, with and without bias, channel counts around the lane width,
// sums up to 2^24 (exact in float) and biases up to 2^30 (the sum plus bias
// then rounds to float once, as the reference's int32 does). And the codes to
// float conversion the float-sum convolutions read (whole, or in two pieces with their join), and per-tensor
// QuantizeLinear / DequantizeLinear.
#include <gtest/gtest.h>

#if NPURT_HAVE_X86_KERNELS

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "tests/common/isa_skip.h"
#include "tests/ops/residual_codes.h"
#include "runtime/kernels/x86/requantize_avx2.h"

namespace npurt {
namespace {

TEST(RequantizeFloatRowsAvx2, BitExactWithReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  std::mt19937 rng(0xa2f1);
  std::uniform_int_distribution<int32_t> sum(-(1 << 24), 1 << 24), big_bias(-(1 << 30), 1 << 30), pick(0, 5);
  std::uniform_real_distribution<float> scale(1e-7f, 1e-3f);
  const FusedActivation kinds[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kClip,
                                   FusedActivation::kLeakyRelu, FusedActivation::kHardSigmoid, FusedActivation::kHardSwish};
  for (int iter = 0; iter < 240; ++iter) {
    RequantizeRowsParams p;
    p.channels = 1 + iter % 21;
    // Narrow rows run eight values at a time over several rows: enough of them for a few vectors and a tail.
    const int64_t rows = 1 + pick(rng) + (p.channels < 8 ? 20 : 0);
    std::vector<int32_t> sums(static_cast<size_t>(rows * p.channels)), bias(static_cast<size_t>(p.channels));
    std::vector<float> float_sums(sums.size()), acc_scale(static_cast<size_t>(p.channels));
    for (size_t i = 0; i < sums.size(); ++i) float_sums[i] = static_cast<float>(sums[i] = sum(rng));
    for (auto& v : bias) v = iter % 5 == 0 ? big_bias(rng) : sum(rng);
    for (auto& v : acc_scale) v = scale(rng);
    const bool with_bias = iter % 3 != 0;
    p.bias = with_bias ? bias.data() : nullptr;
    p.acc_scale = acc_scale.data();
    p.activation.kind = kinds[iter % 6];
    p.activation.a = p.activation.kind == FusedActivation::kClip ? -0.5f : 0.2f;
    p.activation.b = p.activation.kind == FusedActivation::kClip ? 2.0f : 0.5f;
    // The affine after the activation in four of seven iterations (every activation meets it).
    std::vector<float> affine(2 * static_cast<size_t>(p.channels));
    for (auto& v : affine) v = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    if (iter % 7 >= 3) p.activation.scale = affine.data(), p.activation.shift = affine.data() + p.channels;
    p.out_type = iter % 4 < 2 ? DataType::kInt8 : DataType::kInt16;
    const bool out16 = p.out_type == DataType::kInt16;
    p.out_min = out16 ? -32768 : -128, p.out_max = out16 ? 32767 : 127;
    p.out_scale = out16 ? 1e-4f : 0.02f;
    p.out_zero_point = std::uniform_int_distribution<int32_t>(p.out_min, p.out_max)(rng);
    // A residual (int8 or int16) in half the iterations, every activation meeting it.
    testing::ResidualCodes residual;
    const bool with_residual = iter % 4 == 1 || iter % 4 == 2;
    if (with_residual) {
      residual.Attach(&rng, static_cast<size_t>(rows * p.channels), iter % 3 == 0 ? DataType::kInt16 : DataType::kInt8, &p);
      testing::ResidualCodes::OutputRangeScales(&rng, p, static_cast<float>(1 << 24), &acc_scale);
    }
    std::vector<int32_t> want(sums.size()), got(sums.size());
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t m = 0; m < p.channels; ++m) {
        const size_t at = static_cast<size_t>(r * p.channels + m);
        const int64_t acc = (with_bias ? bias[static_cast<size_t>(m)] : 0) + static_cast<int64_t>(sums[at]);
        want[at] = with_residual ? RequantizeWithResidual(acc, acc_scale[static_cast<size_t>(m)], residual.Real(at),
                                                          p.activation, p.out_scale, p.out_zero_point, p.out_min,
                                                          p.out_max, m)
                                 : Requantize(acc, acc_scale[static_cast<size_t>(m)], p.activation, p.out_scale,
                                              p.out_zero_point, p.out_min, p.out_max, m);
      }
    }
    std::vector<int16_t> out16_values(sums.size());
    std::vector<int8_t> out8_values(sums.size());
    void* out = out16 ? static_cast<void*>(out16_values.data()) : out8_values.data();
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    requantize_float_rows__avx2(p, float_sums.data(), out, WorkRange{0, cut});
    requantize_float_rows__avx2(p, float_sums.data(), out, WorkRange{cut, rows});
    for (size_t i = 0; i < got.size(); ++i) got[i] = out16 ? out16_values[i] : out8_values[i];
    ASSERT_EQ(got, want) << "iteration " << iter << " activation " << static_cast<int>(p.activation.kind);
  }
}

// 37 codes (four vectors and a tail) from `first` on in steps of `step`, across the type's range.
template <typename T>
std::vector<T> SpreadCodes(int first, int step) {
  std::vector<T> codes(37);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<T>(first + static_cast<int>(i) * step);
  return codes;
}

TEST(CodesToFloatAvx2, SubtractsTheZeroPointExactly) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const std::vector<int8_t> c8 = SpreadCodes<int8_t>(-128, 7);
  const std::vector<int16_t> c16 = SpreadCodes<int16_t>(-32768, 1771);
  std::vector<float> out(37, -1.0f);
  codes_to_float__avx2(c8.data(), DataType::kInt8, 127, out.data(), WorkRange{3, 36});
  EXPECT_EQ(out[2], -1.0f);
  EXPECT_EQ(out[36], -1.0f);
  for (size_t i = 3; i < 36; ++i) EXPECT_EQ(out[i], static_cast<float>(c8[i] - 127)) << i;
  codes_to_float__avx2(c16.data(), DataType::kInt16, -32768, out.data(), WorkRange{0, 37});
  for (size_t i = 0; i < 37; ++i) EXPECT_EQ(out[i], static_cast<float>(c16[i] + 32768)) << i;
}

// Sums in two pieces (runtime/ops/float_sum_split.h): acc = high * 2^shift + low + bias, past 2^24 and the
// int32 range of one piece, joined once as the reference converts its accumulator.
TEST(RequantizeFloatRowsAvx2, TwoPiecesGiveTheReferenceBits) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  std::mt19937 rng(0x2b1e);
  std::uniform_int_distribution<int32_t> high(-(1 << 24), 1 << 24), big_bias(-(1 << 30), 1 << 30);
  for (int iter = 0; iter < 80; ++iter) {
    const int shift = iter % 2 ? 8 : 4;
    std::uniform_int_distribution<int32_t> low(0, (1 << shift) - 1);
    RequantizeRowsParams p;
    p.channels = 1 + iter % 19;
    const int64_t rows = 3 + iter % 5;
    const size_t n = static_cast<size_t>(rows * p.channels);
    std::vector<float> high_sums(n), low_sums(n), acc_scale(static_cast<size_t>(p.channels));
    std::vector<int32_t> bias(static_cast<size_t>(p.channels));
    std::vector<int64_t> acc(n);
    for (auto& v : bias) v = big_bias(rng);
    for (auto& v : acc_scale) v = std::uniform_real_distribution<float>(1e-9f, 1e-6f)(rng);
    for (size_t i = 0; i < n; ++i) {
      const int32_t h = high(rng), l = low(rng);
      high_sums[i] = static_cast<float>(h), low_sums[i] = static_cast<float>(l);
      acc[i] = static_cast<int64_t>(h) * (int64_t{1} << shift) + l + bias[i % static_cast<size_t>(p.channels)];
    }
    p.bias = bias.data();
    p.acc_scale = acc_scale.data();
    p.activation.kind = iter % 3 == 0 ? FusedActivation::kRelu : FusedActivation::kNone;
    p.out_type = iter % 4 < 2 ? DataType::kInt8 : DataType::kInt16;
    const bool out16 = p.out_type == DataType::kInt16;
    p.out_min = out16 ? -32768 : -128, p.out_max = out16 ? 32767 : 127;
    p.out_scale = out16 ? 1e-4f : 0.02f;
    std::vector<int32_t> want(n), got(n);
    for (size_t i = 0; i < n; ++i) {
      const int64_t m = static_cast<int64_t>(i) % p.channels;
      want[i] = Requantize(acc[i], acc_scale[static_cast<size_t>(m)], p.activation, p.out_scale, p.out_zero_point,
                           p.out_min, p.out_max, m);
    }
    std::vector<int16_t> out16_values(n);
    std::vector<int8_t> out8_values(n);
    void* out = out16 ? static_cast<void*>(out16_values.data()) : out8_values.data();
    requantize_float_rows__avx2(p, high_sums.data(), out, WorkRange{0, rows}, low_sums.data(), shift);
    for (size_t i = 0; i < n; ++i) got[i] = out16 ? out16_values[i] : out8_values[i];
    ASSERT_EQ(got, want) << "iteration " << iter;
  }
}

TEST(CodesToFloatPiecesAvx2, SplitsTheCodeExactly) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const std::vector<int8_t> c8 = SpreadCodes<int8_t>(-128, 7);
  const std::vector<int16_t> c16 = SpreadCodes<int16_t>(-32768, 1771);
  for (int shift : {1, 4, 8, 15}) {
    for (int32_t zp : {-128, 0, 127}) {
      std::vector<float> high(37, -1.0f), low(37, -1.0f);
      codes_to_float_pieces__avx2(c8.data(), DataType::kInt8, zp, shift, high.data(), low.data(), WorkRange{3, 36});
      EXPECT_EQ(high[2], -1.0f);
      EXPECT_EQ(low[36], -1.0f);
      for (size_t i = 3; i < 36; ++i) {
        const int32_t d = c8[i] - zp;
        EXPECT_EQ(high[i] * static_cast<float>(1 << shift) + low[i], static_cast<float>(d)) << i;
        EXPECT_GE(low[i], 0.0f);
        EXPECT_LT(low[i], static_cast<float>(1 << shift));
      }
    }
    std::vector<float> high(37), low(37);
    codes_to_float_pieces__avx2(c16.data(), DataType::kInt16, 32767, shift, high.data(), low.data(), WorkRange{0, 37});
    for (size_t i = 0; i < 37; ++i) {
      EXPECT_EQ(static_cast<int64_t>(high[i]) * (int64_t{1} << shift) + static_cast<int64_t>(low[i]),
                int64_t{c16[i]} - 32767) << i;
      EXPECT_GE(low[i], 0.0f);
      EXPECT_LT(low[i], static_cast<float>(1 << shift));
    }
  }
}

TEST(QuantizePerTensorAvx2, BitExactWithReferenceBothWays) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  std::mt19937 rng(0x9e7);
  std::uniform_real_distribution<float> value(-300.0f, 300.0f);
  std::uniform_int_distribution<int> pick(0, 29);
  for (int iter = 0; iter < 60; ++iter) {
    const DataType type = iter % 2 ? DataType::kInt16 : DataType::kInt8;
    const bool wide = type == DataType::kInt16;
    const int64_t n = 1 + iter * 7;
    const float scale = wide ? 0.01f + 0.001f * static_cast<float>(iter) : 0.5f + 0.1f * static_cast<float>(iter);
    const int32_t zero_point = wide ? (iter % 3 - 1) * 32767 : (iter % 3 - 1) * 127;
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) {
      const int k = pick(rng);
      v = k == 0 ? std::numeric_limits<float>::quiet_NaN() : k == 1 ? -std::numeric_limits<float>::infinity()
                                                         : k == 2 ? 0.5f * scale : value(rng);
    }
    QuantizeParams p{type, 1, 1, n};
    std::vector<uint8_t> want(static_cast<size_t>(n) * 2), got(want.size(), 0x5a);
    const int16_t zp16 = static_cast<int16_t>(zero_point);
    const int8_t zp8 = static_cast<int8_t>(zero_point);
    const void* zp = wide ? static_cast<const void*>(&zp16) : &zp8;
    quantize__ref(p, x.data(), &scale, zp, want.data());
    const int64_t cut = n / 3;
    quantize_per_tensor__avx2(x.data(), scale, zero_point, type, got.data(), WorkRange{0, cut});
    quantize_per_tensor__avx2(x.data(), scale, zero_point, type, got.data(), WorkRange{cut, n});
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), static_cast<size_t>(n) * (wide ? 2 : 1))) << "iteration " << iter;
    std::vector<float> back_want(static_cast<size_t>(n)), back_got(static_cast<size_t>(n), -1.0f);
    dequantize__ref(p, want.data(), &scale, zp, back_want.data());
    dequantize_per_tensor__avx2(want.data(), type, scale, zero_point, back_got.data(), WorkRange{0, cut});
    dequantize_per_tensor__avx2(want.data(), type, scale, zero_point, back_got.data(), WorkRange{cut, n});
    ASSERT_EQ(0, std::memcmp(back_got.data(), back_want.data(), static_cast<size_t>(n) * 4)) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace npurt

#endif  // NPURT_HAVE_X86_KERNELS
