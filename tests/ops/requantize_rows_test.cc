// Every requantization rows kernel of the int8 path (runtime/kernels/int8/requantize_kernels.h) that this
// CPU runs against the reference's Requantize of the same integer accumulator, bit for bit: every fused
// activation, with and without the affine after it and a residual, int8 and int16 outputs, sums with and
// without a separate bias, channel counts around the vector widths (8 and 16), accumulators up to 2^24 and
// scales that spread them over the output range (and that saturate it).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/portable/requantize_float_rows.h"
#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/residual_codes.h"

namespace npurt {
namespace {

// Clip's bounds, once the output's scale is known: ranges inside, across and outside the output's (the
// kernels fold Clip into the output clamp where the two meet), ties of bound / scale, a > b, infinite and
// NaN bounds.
void ClipBounds(std::mt19937* rng, int variant, RequantizeRowsParams* p) {
  const float s = p->out_scale;
  const float lo = static_cast<float>(p->out_min - p->out_zero_point), hi = static_cast<float>(p->out_max - p->out_zero_point);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  float& a = p->activation.a;
  float& b = p->activation.b;
  switch (variant % 8) {
    case 0: a = -0.5f, b = 2.0f; break;
    case 1: a = (lo + unit(*rng) * (hi - lo)) * s, b = a + unit(*rng) * (hi - lo) * s; break;  // inside
    case 2: a = (hi + 2.0f + unit(*rng) * 50.0f) * s, b = a + 1.0f; break;                     // above the range
    case 3: b = (lo - 2.0f - unit(*rng) * 50.0f) * s, a = b - 1.0f; break;                     // below it
    case 4: a = (std::floor(lo / 2.0f) + 0.5f) * s, b = (std::floor(hi / 2.0f) + 0.5f) * s; break;  // ties
    case 5: a = 1.0f, b = -1.0f; break;                                                        // a > b
    case 6: a = -INFINITY, b = variant % 16 == 6 ? INFINITY : 0.0f; break;
    default: a = NAN, b = 1.0f; break;
  }
}

void ExpectReferenceBits(const RequantizeRowsKernel& k, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> sum(-(1 << 24), 1 << 24), bias_value(-(1 << 22), 1 << 22), pick(0, 5);
  const FusedActivation kinds[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kClip,
                                   FusedActivation::kLeakyRelu, FusedActivation::kHardSigmoid, FusedActivation::kHardSwish};
  for (int iter = 0; iter < 600; ++iter) {
    RequantizeRowsParams p;
    p.channels = 1 + iter % 37;
    const int64_t rows = 1 + pick(rng);
    const size_t n = static_cast<size_t>(rows * p.channels);
    std::vector<int32_t> sums(n), bias(static_cast<size_t>(p.channels));
    std::vector<float> float_sums(n), acc_scale(static_cast<size_t>(p.channels));
    for (size_t i = 0; i < n; ++i) float_sums[i] = static_cast<float>(sums[i] = iter % 11 == 0 ? 0 : sum(rng));
    for (auto& v : bias) v = bias_value(rng);
    const bool with_bias = iter % 5 == 0;  // the int8 kernels fold the bias into the sums; others add it here
    if (with_bias) p.bias = bias.data();
    p.activation.kind = kinds[iter % 6];
    p.activation.a = p.activation.kind == FusedActivation::kClip ? -0.5f : 0.2f;
    p.activation.b = p.activation.kind == FusedActivation::kClip ? 2.0f : 0.5f;
    std::vector<float> affine(2 * static_cast<size_t>(p.channels));
    for (auto& v : affine) v = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    if (iter % 7 >= 3) p.activation.scale = affine.data(), p.activation.shift = affine.data() + p.channels;
    p.out_type = iter % 4 < 2 ? DataType::kInt8 : DataType::kInt16;
    const bool out16 = p.out_type == DataType::kInt16;
    p.out_min = out16 ? -32768 : -128, p.out_max = out16 ? 32767 : 127;
    p.out_scale = out16 ? 1e-4f : 0.02f;
    p.out_zero_point = std::uniform_int_distribution<int32_t>(out16 ? -300 : -20, out16 ? 300 : 20)(rng);
    if (p.activation.kind == FusedActivation::kClip) ClipBounds(&rng, iter / 6, &p);
    // Scales that spread the sums over the output range (few saturate), or tiny and large ones.
    testing::ResidualCodes::OutputRangeScales(&rng, p, static_cast<float>(1 << 24), &acc_scale);
    if (iter % 9 == 4) {
      for (auto& v : acc_scale) v *= 64.0f;  // mostly saturated
    }
    p.acc_scale = acc_scale.data();
    testing::ResidualCodes residual;
    const bool with_residual = iter % 4 == 1 || iter % 4 == 2;
    if (with_residual) residual.Attach(&rng, n, iter % 3 == 0 ? DataType::kInt16 : DataType::kInt8, &p);
    std::vector<int32_t> want(n), got(n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t m = 0; m < p.channels; ++m) {
        const size_t at = static_cast<size_t>(r * p.channels + m);
        const int64_t acc = (with_bias ? bias[static_cast<size_t>(m)] : 0) + static_cast<int64_t>(sums[at]);
        const float s = acc_scale[static_cast<size_t>(m)];
        want[at] = with_residual ? RequantizeWithResidual(acc, s, residual.Real(at), p.activation, p.out_scale,
                                                          p.out_zero_point, p.out_min, p.out_max, m)
                                 : Requantize(acc, s, p.activation, p.out_scale, p.out_zero_point, p.out_min,
                                              p.out_max, m);
      }
    }
    std::vector<int16_t> out16_values(n);
    std::vector<int8_t> out8_values(n);
    void* out = out16 ? static_cast<void*>(out16_values.data()) : out8_values.data();
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    k.run(p, float_sums.data(), out, WorkRange{0, cut});
    k.run(p, float_sums.data(), out, WorkRange{cut, rows});
    for (size_t i = 0; i < n; ++i) got[i] = out16 ? out16_values[i] : out8_values[i];
    ASSERT_EQ(got, want) << k.name << ": iteration " << iter << ", activation " << static_cast<int>(p.activation.kind)
                         << ", " << p.channels << " channels";
  }
}

// Rows whose output (and residual) rows lie out_stride apart (an int8 work item's block of channels in the
// output rows): each kernel writes the reference's bits there and leaves the elements between alone.
void ExpectStridedReferenceBits(const RequantizeRowsKernel& k, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> sum(-(1 << 20), 1 << 20);
  for (int iter = 0; iter < 60; ++iter) {
    RequantizeRowsParams p;
    p.channels = 1 + iter % 40;
    p.out_stride = p.channels + 1 + iter % 23;
    const int64_t rows = 1 + iter % 5;
    const size_t n = static_cast<size_t>(rows * p.channels), span = static_cast<size_t>(rows * p.out_stride);
    std::vector<float> sums(n), acc_scale(static_cast<size_t>(p.channels));
    std::vector<int32_t> acc(n);
    for (size_t i = 0; i < n; ++i) sums[i] = static_cast<float>(acc[i] = sum(rng));
    p.activation.kind = iter % 3 == 0 ? FusedActivation::kRelu : FusedActivation::kNone;
    p.out_type = iter % 2 == 0 ? DataType::kInt8 : DataType::kInt16;
    const bool out16 = p.out_type == DataType::kInt16;
    p.out_min = out16 ? -32768 : -128, p.out_max = out16 ? 32767 : 127;
    p.out_scale = out16 ? 1e-4f : 0.02f;
    p.out_zero_point = out16 ? 11 : -3;
    testing::ResidualCodes::OutputRangeScales(&rng, p, static_cast<float>(1 << 20), &acc_scale);
    p.acc_scale = acc_scale.data();
    testing::ResidualCodes residual;
    const bool with_residual = iter % 4 >= 2;
    if (with_residual) residual.Attach(&rng, span, iter % 8 >= 4 ? DataType::kInt16 : DataType::kInt8, &p);
    constexpr int32_t kUntouched = 99;
    std::vector<int32_t> want(span, kUntouched), got(span);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t m = 0; m < p.channels; ++m) {
        const size_t at = static_cast<size_t>(r * p.out_stride + m), from = static_cast<size_t>(r * p.channels + m);
        const float s = acc_scale[static_cast<size_t>(m)];
        want[at] = with_residual ? RequantizeWithResidual(acc[from], s, residual.Real(at), p.activation, p.out_scale,
                                                          p.out_zero_point, p.out_min, p.out_max, m)
                                 : Requantize(acc[from], s, p.activation, p.out_scale, p.out_zero_point, p.out_min,
                                              p.out_max, m);
      }
    }
    std::vector<int16_t> out16_values(span, kUntouched);
    std::vector<int8_t> out8_values(span, kUntouched);
    void* out = out16 ? static_cast<void*>(out16_values.data()) : out8_values.data();
    k.run(p, sums.data(), out, WorkRange{0, rows});
    for (size_t i = 0; i < span; ++i) got[i] = out16 ? out16_values[i] : out8_values[i];
    ASSERT_EQ(got, want) << k.name << ": iteration " << iter << ", " << p.channels << " channels, stride " << p.out_stride;
  }
}

TEST(RequantizeRows, EveryKernelWritesStridedRows) {
  int ran = 0;
  for (const RequantizeRowsKernel& k : AllRequantizeRowsKernels()) {
    if (ActiveCpuTarget() < k.needs) continue;
    SCOPED_TRACE(k.name);
    ExpectStridedReferenceBits(k, 0x5e1 + static_cast<uint32_t>(ran++));
  }
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

TEST(RequantizeRows, EveryKernelGivesTheReferenceBits) {
  int ran = 0;
  for (const RequantizeRowsKernel& k : AllRequantizeRowsKernels()) {
    if (ActiveCpuTarget() < k.needs) {
      std::printf("[ INFO     ] %s: not on this CPU\n", k.name);
      continue;
    }
    SCOPED_TRACE(k.name);
    ExpectReferenceBits(k, 0x7e9 + static_cast<uint32_t>(ran++));
  }
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

// The rows of int32 sums in one or two pieces, acc = bias + [256 *] high [+ low] in int64, past int32.
TEST(RequantizeRows, PieceRowsGiveTheReferenceBits) {
  struct Kernel {
    const char* name;
    RequantizePieceRowsFn run;
  };
  const Kernel kernels[] = {{"chosen", ChooseRequantizePieceRows()}, {"portable", requantize_piece_rows__portable}};
  std::mt19937 rng(0x91ec);
  std::uniform_int_distribution<int32_t> high(-(1 << 30), 1 << 30), low(0, 255), bias(INT32_MIN, INT32_MAX);
  for (const Kernel& k : kernels) {
    for (int iter = 0; iter < 120; ++iter) {
      RequantizeRowsParams p;
      p.channels = 1 + iter % 29;
      const int64_t rows = 1 + iter % 4;
      const size_t n = static_cast<size_t>(rows * p.channels);
      const bool two = iter % 2 == 0;
      std::vector<int32_t> hs(n), ls(n), b(static_cast<size_t>(p.channels));
      for (auto& v : hs) v = two ? high(rng) >> 8 : high(rng);
      for (auto& v : ls) v = low(rng);
      for (auto& v : b) v = bias(rng);
      if (iter % 3 != 0) p.bias = b.data();
      p.activation.kind = iter % 3 == 1 ? FusedActivation::kRelu : FusedActivation::kNone;
      p.out_type = iter % 4 < 2 ? DataType::kInt8 : DataType::kInt16;
      const bool out16 = p.out_type == DataType::kInt16;
      p.out_min = out16 ? -32768 : -128, p.out_max = out16 ? 32767 : 127;
      p.out_scale = out16 ? 1e-4f : 0.02f;
      std::vector<float> acc_scale(static_cast<size_t>(p.channels));
      testing::ResidualCodes::OutputRangeScales(&rng, p, 4.0f * (1u << 30), &acc_scale);
      p.acc_scale = acc_scale.data();
      testing::ResidualCodes residual;
      if (iter % 5 == 1) residual.Attach(&rng, n, DataType::kInt8, &p);
      std::vector<int32_t> want(n), got(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t m = static_cast<int64_t>(i) % p.channels;
        const int64_t acc = (p.bias != nullptr ? b[static_cast<size_t>(m)] : 0) +
                            (two ? int64_t{256} * hs[i] + ls[i] : int64_t{hs[i]});
        const float s = acc_scale[static_cast<size_t>(m)];
        want[i] = p.residual.data != nullptr
                      ? RequantizeWithResidual(acc, s, residual.Real(i), p.activation, p.out_scale, p.out_zero_point,
                                               p.out_min, p.out_max, m)
                      : Requantize(acc, s, p.activation, p.out_scale, p.out_zero_point, p.out_min, p.out_max, m);
      }
      std::vector<int16_t> o16(n);
      std::vector<int8_t> o8(n);
      k.run(p, hs.data(), two ? ls.data() : nullptr, out16 ? static_cast<void*>(o16.data()) : o8.data(),
            WorkRange{0, rows});
      for (size_t i = 0; i < n; ++i) got[i] = out16 ? o16[i] : o8[i];
      ASSERT_EQ(got, want) << k.name << ": iteration " << iter;
    }
  }
}

}  // namespace
}  // namespace npurt
