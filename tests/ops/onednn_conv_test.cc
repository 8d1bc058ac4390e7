// The oneDNN float convolution (runtime/kernels/x86/onednn_conv.h) against the
// reference kernel on the harness's edge and random shapes (two thirds with an
// affine after the activation, a third with a residual: post-ops), within a relative tolerance.
// Every band count a pool can use (1, 2, 3 threads) must give the same answer. (Its int8 accumulator mode
// is tested through the Conv op, whose int8 results must be the reference's bits:
// tests/ops/conv_fast_path_test.cc.)
#include <gtest/gtest.h>

#if NPURT_HAVE_ONEDNN

#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "runtime/kernels/dispatch.h"
#include "tests/common/isa_skip.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/x86/onednn_conv.h"
#include "tests/ops/kernel_harness.h"

namespace npurt {
namespace testing {
namespace {

int g_slices = 1;      // bands per image the adapters ask for
int g_taken = 0;       // cases the library took (the rest cannot be compared)

// Runs a whole convolution the way the Conv op does: NCHW -> NHWC, every band, NHWC -> NCHW.
// `residual` (NCHW, nullptr: none) in the output's element type.
bool RunOnednn(const ConvParams& p, const void* input, const void* weights, const void* bias, void* output,
               bool transposed = false, const ConvResidual* residual = nullptr) {
  const size_t elem = 4;
  std::unique_ptr<OnednnConv> conv;
  if (!OnednnConv::Supports(p, false) ||
      !OnednnConv::Create(p, weights, bias, g_slices, &conv, transposed, nullptr, residual).ok()) {
    return false;
  }
  const int64_t in_spatial = p.in[1] * p.in[2], out_spatial = p.out[1] * p.out[2];
  std::vector<uint8_t> x(static_cast<size_t>(p.batch * p.in_channels * in_spatial) * elem);
  std::vector<uint8_t> y(static_cast<size_t>(p.batch * p.out_channels * out_spatial) * elem);
  std::vector<uint8_t> r(residual != nullptr ? y.size() : 0);
  std::vector<uint8_t> scratch(conv->scratch_bytes_per_slice() + 1);
  nchw_to_nhwc(input, x.data(), p.batch, p.in_channels, in_spatial, elem);
  if (residual != nullptr) nchw_to_nhwc(residual->data, r.data(), p.batch, p.out_channels, out_spatial, elem);
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int s = 0; s < conv->slices(); ++s) {
      EXPECT_TRUE(conv->Run(n, s, x.data(), y.data(), scratch.data(), residual != nullptr ? r.data() : nullptr).ok());
    }
  }
  nhwc_to_nchw(y.data(), output, p.batch, p.out_channels, out_spatial, elem);
  ++g_taken;
  return true;
}

void FloatAdapter(const ConvParams& p, const float* x, const float* w, const float* b, float* y, WorkRange,
                  const ConvResidual* r) {
  if (!RunOnednn(p, x, w, b, y, false, r)) f32_conv__ref(p, x, w, b, y, WorkRange{}, r);
}

ConvParams AsConvParams(const ConvTransposeParams& t) {
  ConvParams p;
  p.batch = t.batch, p.in_channels = t.in_channels, p.out_channels = t.out_channels, p.groups = t.groups;
  for (int d = 0; d < 3; ++d) {
    p.in[d] = t.in[d], p.out[d] = t.out[d], p.kernel[d] = t.kernel[d], p.stride[d] = t.stride[d];
    p.dilation[d] = t.dilation[d], p.pad_begin[d] = t.pad_begin[d];
  }
  p.activation = t.activation;
  return p;
}

class OnednnConvTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    g_slices = GetParam();
    g_taken = 0;
  }
};

TEST_P(OnednnConvTest, FloatMatchesReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  std::vector<ConvCase> cases = ConvCases(0xf10a7 + GetParam(), 100);
  std::vector<std::vector<float>> affines;
  AttachOutputAffines(0xf10b7 + GetParam(), &cases, &affines);
  AttachResiduals(0xf10c7 + GetParam(), &cases);
  ExpectNmseBelow(CompareFloatConv(&FloatAdapter, cases), 1e-10);
  // Outputs that read only padding stay on the reference where oneDNN would pick brgconv (AVX-512).
  const int64_t usual = std::count_if(cases.begin(), cases.end(),
                                      [](const ConvCase& c) { return !OnednnConv::HasPaddingOnlyOutputs(c.p); });
  EXPECT_GE(g_taken, static_cast<int>(usual) * 9 / 10) << "of " << usual;
}

TEST_P(OnednnConvTest, TransposedFloatMatchesReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const std::vector<ConvTransposeCase> cases = ConvTransposeCases(0xdec1 + GetParam(), 80);
  KernelDiff d;
  for (const ConvTransposeCase& c : cases) {
    std::vector<float> x(static_cast<size_t>(c.input_count())), w(c.weights.size()), b(c.bias.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.01f * static_cast<float>(CodeAt(c.input, c.in_type, i));
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.02f * c.weights[i];
    for (size_t i = 0; i < b.size(); ++i) b[i] = 1e-4f * static_cast<float>(c.bias[i]);
    std::vector<float> want(static_cast<size_t>(c.output_count())), got(want.size(), -7.0f);
    f32_conv_transpose__ref(c.p, x.data(), w.data(), b.empty() ? nullptr : b.data(), want.data());
    if (!RunOnednn(AsConvParams(c.p), x.data(), w.data(), b.empty() ? nullptr : b.data(), got.data(), true)) {
      continue;
    }
    CompareFloats(c.name, want, got, &d);
  }
  ExpectNmseBelow(d, 1e-10);
  EXPECT_GE(g_taken, static_cast<int>(cases.size()) * 3 / 4) << "of " << cases.size();
}

// Kernel = stride, no pads: a 1x1 convolution to kH * kW * M channels, then depth to space. PP-OCR det's last
// layer (24 -> 1 channel, 2x2) and uneven kernels, with a bias, batch 2; and the shapes that must not take it.
TEST_P(OnednnConvTest, TransposedKernelEqualsStrideRunsAsPointwiseThenDepthToSpace) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  struct Shape2 {
    int64_t batch, c, m, h, w, kh, kw;
    bool pointwise;
  };
  const Shape2 shapes[] = {{1, 24, 1, 6, 19, 2, 2, true}, {2, 5, 3, 4, 7, 3, 2, true}, {1, 7, 9, 1, 11, 1, 3, true},
                           {1, 4, 2, 1, 8, 2, 2, false}};  // one input row with kH > 1: the deconvolution
  std::mt19937 rng(0xd25);
  std::normal_distribution<float> value(0.0f, 1.0f);
  for (const Shape2& s : shapes) {
    ConvTransposeParams t;
    t.batch = s.batch, t.in_channels = s.c, t.out_channels = s.m;
    t.in[1] = s.h, t.in[2] = s.w, t.kernel[1] = t.stride[1] = s.kh, t.kernel[2] = t.stride[2] = s.kw;
    t.out[1] = s.h * s.kh, t.out[2] = s.w * s.kw;
    const ConvParams p = AsConvParams(t);
    std::vector<float> x(static_cast<size_t>(s.batch * s.c * s.h * s.w)), w(static_cast<size_t>(s.c * s.m * s.kh * s.kw));
    std::vector<float> b(static_cast<size_t>(s.m));
    for (float& v : x) v = value(rng);
    for (float& v : w) v = value(rng);
    for (float& v : b) v = value(rng);
    std::vector<float> want(static_cast<size_t>(s.batch * s.m * t.out[1] * t.out[2])), got(want.size(), -7.0f);
    f32_conv_transpose__ref(t, x.data(), w.data(), b.data(), want.data());
    std::unique_ptr<OnednnConv> conv;
    ASSERT_TRUE(OnednnConv::Create(p, w.data(), b.data(), g_slices, &conv, true).ok());
    EXPECT_EQ(conv->implementation().find("+depth_to_space") != std::string::npos, s.pointwise)
        << conv->implementation();
    ASSERT_TRUE(RunOnednn(p, x.data(), w.data(), b.data(), got.data(), true));
    KernelDiff d;
    CompareFloats("transposed " + std::to_string(s.kh) + "x" + std::to_string(s.kw), want, got, &d);
    ExpectNmseBelow(d, 1e-10);
  }
}

INSTANTIATE_TEST_SUITE_P(Bands, OnednnConvTest, ::testing::Values(1, 2, 3, 5));  // 5: inner bands share a primitive

}  // namespace
}  // namespace testing
}  // namespace npurt

#endif  // NPURT_HAVE_ONEDNN
