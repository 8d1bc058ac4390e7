// The optimized-vs-reference harness (kernel_harness.h) before any optimized
// kernel exists: the reference passes against itself on every case, the cases
// cover the edges they claim to, and kernels with the classic bugs -- a zero
// point ignored, a bias dropped, a rounding off by one, a float result a little
// off -- are caught with the right verdict.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/ops/kernel_harness.h"

namespace npurt {
namespace testing {
namespace {

// ---- kernels with known bugs ----

void ConvIgnoringZeroPoint(const ConvParams& p, const ConvQuantParams& q, DataType in_type, const void* input,
                           const int8_t* weights, const int32_t* bias, DataType out_type, void* output, WorkRange,
                           const ConvResidual* r) {
  ConvQuantParams wrong = q;
  wrong.input_zero_point = 0;
  quantized_conv__ref(p, wrong, in_type, input, weights, bias, out_type, output, WorkRange{}, r);
}

void ConvIgnoringResidual(const ConvParams& p, const ConvQuantParams& q, DataType in_type, const void* input,
                          const int8_t* weights, const int32_t* bias, DataType out_type, void* output, WorkRange,
                          const ConvResidual*) {
  quantized_conv__ref(p, q, in_type, input, weights, bias, out_type, output);
}

void FloatConvIgnoringResidual(const ConvParams& p, const float* x, const float* w, const float* b, float* y, WorkRange,
                               const ConvResidual*) {
  f32_conv__ref(p, x, w, b, y);
}

void ConvDroppingBias(const ConvParams& p, const ConvQuantParams& q, DataType in_type, const void* input,
                      const int8_t* weights, const int32_t*, DataType out_type, void* output, WorkRange,
                      const ConvResidual* r) {
  quantized_conv__ref(p, q, in_type, input, weights, nullptr, out_type, output, WorkRange{}, r);
}

// Rounds every 37th output value one step up (within the type): what a library's different rounding looks like.
void ConvRoundingOffByOne(const ConvParams& p, const ConvQuantParams& q, DataType in_type, const void* input,
                          const int8_t* weights, const int32_t* bias, DataType out_type, void* output, WorkRange,
                          const ConvResidual* r) {
  quantized_conv__ref(p, q, in_type, input, weights, bias, out_type, output, WorkRange{}, r);
  const int64_t n = p.batch * p.out_channels * p.out[0] * p.out[1] * p.out[2];
  for (int64_t i = 0; i < n; i += 37) {
    if (out_type == DataType::kInt16) {
      int16_t* y = static_cast<int16_t*>(output);
      y[i] = static_cast<int16_t>(y[i] == 32767 ? 32766 : y[i] + 1);
    } else {
      int8_t* y = static_cast<int8_t*>(output);
      y[i] = static_cast<int8_t>(y[i] == 127 ? 126 : y[i] + 1);
    }
  }
}

void FloatConvSlightlyOff(const ConvParams& p, const float* x, const float* w, const float* b, float* y, WorkRange,
                          const ConvResidual* r) {
  f32_conv__ref(p, x, w, b, y, WorkRange{}, r);
  const int64_t n = p.batch * p.out_channels * p.out[0] * p.out[1] * p.out[2];
  for (int64_t i = 0; i < n; ++i) y[i] *= 1.001f;
}

void ConvTransposeDroppingBias(const ConvTransposeParams& p, const ConvQuantParams& q, DataType in_type,
                               const void* input, const int8_t* weights, const int32_t*, DataType out_type,
                               void* output, WorkRange) {
  quantized_conv_transpose__ref(p, q, in_type, input, weights, nullptr, out_type, output);
}

void GemmIgnoringTransposeB(const GemmParams& p, const GemmQuantParams& q, DataType a_type, const void* a,
                            const int8_t* b, const int32_t* bias, DataType y_type, void* y, WorkRange) {
  GemmParams wrong = p;
  if (p.k == p.n) wrong.trans_b = !p.trans_b;  // same buffer size, wrong layout
  quantized_gemm__ref(wrong, q, a_type, a, b, bias, y_type, y);
}

// ---- tests ----

TEST(KernelHarness, ReferenceMatchesItselfOnEveryCase) {
  const std::vector<ConvCase> conv = ConvCases(1, 120);
  ExpectBitExact(CompareQuantizedConv(&quantized_conv__ref, conv));
  const KernelDiff f = CompareFloatConv(&f32_conv__ref, conv);
  ExpectNmseBelow(f, 0.0);
  EXPECT_EQ(f.differing, 0u);
  ExpectBitExact(CompareQuantizedConvTranspose(&quantized_conv_transpose__ref, ConvTransposeCases(2, 60)));
  ExpectBitExact(CompareQuantizedGemm(&quantized_gemm__ref, GemmCases(3, 60)));
}

TEST(KernelHarness, ConvCasesCoverTheEdges) {
  const std::vector<ConvCase> cases = ConvCases(1, 120);
  int depthwise = 0, grouped = 0, strided = 0, dilated = 0, padded = 0, tails = 0, batched = 0, one_d = 0;
  int zp_min = 0, zp_max = 0, zp_zero = 0, in16 = 0, out16 = 0, no_bias = 0, saturated = 0;
  for (const ConvCase& c : cases) {
    const ConvParams& p = c.p;
    depthwise += p.groups == p.in_channels && p.groups > 1;
    grouped += p.groups > 1 && p.groups < p.in_channels;
    strided += p.stride[1] > 1 || p.stride[2] > 1;
    dilated += p.dilation[1] > 1 || p.dilation[2] > 1;
    padded += p.pad_begin[1] > 0 || p.pad_begin[2] > 0;
    tails += p.out[2] % 16 != 0;
    batched += p.batch > 1;
    one_d += p.in[1] == 1 && p.kernel[1] == 1;
    zp_min += c.q.input_zero_point == -128;
    zp_max += c.q.input_zero_point == 127;
    zp_zero += c.q.input_zero_point == 0;
    in16 += c.in_type == DataType::kInt16;
    out16 += c.out_type == DataType::kInt16;
    no_bias += c.bias.empty();
    // Some outputs must reach the type's limits, or saturation goes untested.
    std::vector<uint8_t> y(c.output_bytes());
    c.Run(&quantized_conv__ref, y.data());
    for (size_t i = 0; i < static_cast<size_t>(c.output_count()); ++i) {
      const int32_t v = CodeAt(y, c.out_type, i);
      if (v == TypeMin(c.out_type) || v == TypeMax(c.out_type)) {
        ++saturated;
        break;
      }
    }
  }
  for (int count : {depthwise, grouped, strided, dilated, padded, tails, batched, one_d, zp_min, zp_max, zp_zero, in16,
                    out16, no_bias, saturated}) {
    EXPECT_GE(count, 3);
  }
  EXPECT_GE(cases.size(), 150u);
}

TEST(KernelHarness, CatchesAnIgnoredZeroPointADroppedBiasAndAnOffByOne) {
  const std::vector<ConvCase> cases = ConvCases(4, 40);
  const KernelDiff zp = CompareQuantizedConv(&ConvIgnoringZeroPoint, cases);
  EXPECT_GT(zp.max_steps, 1);
  EXPECT_GT(zp.differing_share(), 0.1);
  const KernelDiff bias = CompareQuantizedConv(&ConvDroppingBias, cases);
  EXPECT_GT(bias.max_steps, 1);
  const KernelDiff rounding = CompareQuantizedConv(&ConvRoundingOffByOne, cases);
  EXPECT_EQ(rounding.max_steps, 1);  // one step off: ExpectBitExact refuses it
  EXPECT_GT(rounding.differing, 0u);
  EXPECT_LT(rounding.differing_share(), 0.05);
  EXPECT_FALSE(rounding.worst_case.empty());
}

TEST(KernelHarness, ResidualsAreAttachedAndAnIgnoredOneIsCaught) {
  std::vector<ConvCase> cases = ConvCases(7, 60);
  AttachResiduals(8, &cases);
  int int8 = 0, int16 = 0;
  for (const ConvCase& c : cases) {
    if (c.residual.empty()) continue;
    EXPECT_EQ(c.residual.size(), static_cast<size_t>(c.output_count()) * TypeBytes(c.residual_quant.type));
    (c.residual_quant.type == DataType::kInt16 ? int16 : int8) += 1;
  }
  EXPECT_GE(int8, 5);
  EXPECT_GE(int16, 5);
  const KernelDiff q = CompareQuantizedConv(&ConvIgnoringResidual, cases);
  EXPECT_GT(q.max_steps, 1);
  const KernelDiff f = CompareFloatConv(&FloatConvIgnoringResidual, cases);
  EXPECT_GT(f.max_nmse, 1e-3);
}

TEST(KernelHarness, CatchesFloatErrorsTransposeBiasAndLayoutBugs) {
  const KernelDiff f = CompareFloatConv(&FloatConvSlightlyOff, ConvCases(5, 20));
  EXPECT_GT(f.max_nmse, 1e-7);  // (1.001 - 1)^2
  EXPECT_LT(f.max_nmse, 1e-5);
  const KernelDiff t = CompareQuantizedConvTranspose(&ConvTransposeDroppingBias, ConvTransposeCases(6, 30));
  EXPECT_GT(t.max_steps, 1);
  // Square weights (K == N) read in the wrong layout: the buffer fits, the values do not.
  std::vector<GemmCase> square;
  for (GemmCase& c : GemmCases(7, 200)) {
    if (c.p.k == c.p.n && c.p.k > 1) square.push_back(std::move(c));
  }
  ASSERT_FALSE(square.empty());
  EXPECT_GT(CompareQuantizedGemm(&GemmIgnoringTransposeB, square).max_steps, 1);
}

}  // namespace
}  // namespace testing
}  // namespace npurt
