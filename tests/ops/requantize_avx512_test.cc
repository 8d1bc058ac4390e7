// AVX-512 requantization of accumulator rows against the reference's
// Requantize, bit for bit: every fused activation (with and without the affine
// after it and a residual), int8 and int16 outputs, with and without bias and a low part,
// channel counts around the lane width.
#include <gtest/gtest.h>

#if NPURT_HAVE_X86_KERNELS

#include <random>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "tests/common/isa_skip.h"
#include "tests/ops/residual_codes.h"
#include "runtime/kernels/x86/requantize_avx512.h"

namespace npurt {
namespace {

TEST(RequantizeRowsAvx512, BitExactWithReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
  std::mt19937 rng(0x7eb5);
  std::uniform_int_distribution<int32_t> sum(-(1 << 20), 1 << 20), small(-255 * 127 * 9, 255 * 127 * 9), pick(0, 5);
  std::uniform_real_distribution<float> scale(1e-6f, 1e-3f);
  const FusedActivation kinds[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kClip,
                                   FusedActivation::kLeakyRelu, FusedActivation::kHardSigmoid, FusedActivation::kHardSwish};
  for (int iter = 0; iter < 240; ++iter) {
    RequantizeRowsParams p;
    p.channels = 1 + iter % 19;
    // Narrow rows run eight values at a time over several rows: enough of them for a few vectors and a tail.
    const int64_t rows = 1 + pick(rng) + (p.channels < 8 ? 20 : 0);
    std::vector<int32_t> high(static_cast<size_t>(rows * p.channels)), low(high.size()), bias(static_cast<size_t>(p.channels));
    std::vector<float> acc_scale(static_cast<size_t>(p.channels));
    for (auto& v : high) v = sum(rng);
    for (auto& v : low) v = small(rng);
    for (auto& v : bias) v = sum(rng);
    for (auto& v : acc_scale) v = scale(rng);
    const bool with_low = iter % 2 == 0, with_bias = iter % 3 != 0;
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
      testing::ResidualCodes::OutputRangeScales(&rng, p, static_cast<float>(1 << 28), &acc_scale);
    }
    std::vector<int32_t> want(high.size()), got(high.size());
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t m = 0; m < p.channels; ++m) {
        const size_t at = static_cast<size_t>(r * p.channels + m);
        const int64_t acc = (with_bias ? bias[static_cast<size_t>(m)] : 0) +
                            (with_low ? 256 * static_cast<int64_t>(high[at]) + low[at] : high[at]);
        want[at] = with_residual ? RequantizeWithResidual(acc, acc_scale[static_cast<size_t>(m)], residual.Real(at),
                                                          p.activation, p.out_scale, p.out_zero_point, p.out_min,
                                                          p.out_max, m)
                                 : Requantize(acc, acc_scale[static_cast<size_t>(m)], p.activation, p.out_scale,
                                              p.out_zero_point, p.out_min, p.out_max, m);
      }
    }
    std::vector<int16_t> out16_values(high.size());
    std::vector<int8_t> out8_values(high.size());
    void* out = out16 ? static_cast<void*>(out16_values.data()) : out8_values.data();
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    requantize_rows__avx512(p, high.data(), with_low ? low.data() : nullptr, out, WorkRange{0, cut});
    requantize_rows__avx512(p, high.data(), with_low ? low.data() : nullptr, out, WorkRange{cut, rows});
    for (size_t i = 0; i < got.size(); ++i) got[i] = out16 ? out16_values[i] : out8_values[i];
    ASSERT_EQ(got, want) << "iteration " << iter << " activation " << static_cast<int>(p.activation.kind);
  }
}

}  // namespace
}  // namespace npurt

#endif  // NPURT_HAVE_X86_KERNELS
