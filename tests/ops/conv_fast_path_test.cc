// The Conv op on its optimized path (runtime/ops/conv_fast_path.h) against the
// same op on the reference kernels, for every int8 / int16 type mix of the
// kernel harness's shapes, two thirds with an affine after the activation and
// a third with a residual (int8 or int16, NCHW or channels-last):
// with VNNI every mix sums in oneDNN's int32 accumulators (int16 tensors as int8 pieces) and npurt
// requantizes, without it the sums are exact float sums: both must give the reference's bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/igemm.h"
#include "tests/common/isa_skip.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"
#include "tests/ops/quantized_conv_op.h"

namespace npurt {
namespace testing {
namespace {

TEST(ConvFastPath, Int32SumsGiveTheReferenceBitsForEveryMix) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512Vnni);
  const ScopedIgemmKernelChoice library_only(nullptr);  // the library path, not npurt's int8 kernels
  int optimized = 0, in_place = 0;
  std::vector<ConvCase> cases = ConvCases(0x16a, 120);
  std::vector<std::vector<float>> affines;
  AttachOutputAffines(0x16b, &cases, &affines);
  AttachResiduals(0x16c, &cases);
  for (const ConvCase& c : cases) {
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunConvOp(c, &ref_kernel);
    }
    const bool residual_last = c.residual.size() % 3 == 0;  // some residuals channels-last
    const bool io_last = c.input.size() % 2 == 0;          // some inputs and outputs channels-last
    const std::vector<uint8_t> got = RunConvOp(c, &kernel, residual_last, io_last);
    EXPECT_EQ(ref_kernel, "ref");
    if (kernel != "ref") EXPECT_EQ(kernel.rfind("onednn_s32sum", 0), 0u) << c.name << ": " << kernel;
    optimized += kernel != "ref" ? 1 : 0;
    in_place += kernel != "ref" && io_last ? 1 : 0;
    if (kernel == "ref" && (residual_last || io_last)) continue;  // the reference reads the ONNX layout only
    ASSERT_EQ(got, want) << c.name << " (" << kernel << ")";
  }
  EXPECT_GE(optimized, 100);
  EXPECT_GE(in_place, 30);  // int8 and int16 inputs read, outputs written channels-last
}

// Without VNNI every quantized mix sums in a float32 oneDNN convolution, kept exact (int16 inputs in two
// pieces): the reference's bits.
TEST(ConvFastPath, FloatSumsGiveTheReferenceBits) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const ScopedCpuTargetCap no_vnni(CpuTarget::kAvx2);
  const ScopedIgemmKernelChoice library_only(nullptr);
  int optimized = 0, subsampled = 0, residuals = 0, split = 0;
  std::vector<ConvCase> cases = ConvCases(0xf5, 120);
  std::vector<std::vector<float>> affines;
  AttachOutputAffines(0xf6, &cases, &affines);
  AttachResiduals(0xf7, &cases);
  for (const ConvCase& c : cases) {
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunConvOp(c, &ref_kernel);
    }
    const std::vector<uint8_t> got = RunConvOp(c, &kernel, c.residual.size() % 3 == 0);
    ASSERT_EQ(got.size(), want.size()) << c.name;
    EXPECT_EQ(ref_kernel, "ref");
    if (kernel == "ref") continue;
    ++optimized;
    const ConvParams& p = c.p;
    const bool strided_pointwise = p.kernel[1] == 1 && p.kernel[2] == 1 && p.pad_begin[1] == 0 &&
                                   p.pad_begin[2] == 0 && (p.stride[1] > 1 || p.stride[2] > 1) &&
                                   (p.out[1] - 1) * p.stride[1] < p.in[1] && (p.out[2] - 1) * p.stride[2] < p.in[2];
    // A strided pointwise convolution that reads no padding runs as a stride-1 one on the pixels it reads.
    EXPECT_EQ(kernel.rfind(strided_pointwise ? "onednn_f32sum_subsampled:" : "onednn_f32sum:", 0), 0u)
        << c.name << ": " << kernel;
    subsampled += strided_pointwise ? 1 : 0;
    residuals += c.residual.empty() ? 0 : 1;
    split += kernel.find(" in 2 pieces") != std::string::npos ? 1 : 0;
    ASSERT_EQ(got, want) << c.name << " (" << kernel << ")";
  }
  EXPECT_GE(optimized, 100);
  EXPECT_GE(split, 20);      // the int16 inputs
  EXPECT_GE(subsampled, 9);  // at least the harness's three strided pointwise shapes in three type mixes
  EXPECT_GE(residuals, 25);
}

// Long sums: int8 codes over 2400 channels (partial sums past 2^24 at full scale) sum in two pieces, an int16
// input over 2048 channels would need three and keeps the reference kernel; both give the reference's bits.
TEST(ConvFastPath, FloatSumsStayExactOnLongSums) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const ScopedCpuTargetCap no_vnni(CpuTarget::kAvx2);
  const ScopedIgemmKernelChoice library_only(nullptr);
  struct Long {
    ConvShape shape;
    DataType in;
    const char* kernel;  // what the op must pick
  };
  const Long longs[] = {{{1, 2400, 8, 1, 2, 9, 1, 1}, DataType::kInt8, " in 2 pieces"},
                        {{1, 16, 8, 1, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, DataType::kInt16, " in 2 pieces"},
                        {{1, 2048, 4, 1, 1, 3, 1, 1}, DataType::kInt16, "ref"}};
  std::mt19937 rng(0x10e6);
  for (const Long& l : longs) {
    ConvCase c;
    ASSERT_TRUE(MakeConvCase(&rng, l.shape, l.in, DataType::kInt8, FusedActivation::kNone, &c));
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunConvOp(c, &ref_kernel);
    }
    const std::vector<uint8_t> got = RunConvOp(c, &kernel);
    EXPECT_NE(kernel.find(l.kernel), std::string::npos) << c.name << ": " << kernel;
    ASSERT_EQ(got, want) << c.name << " (" << kernel << ")";
  }
}

// Output rows that read only padding (pads of a whole kernel), with a residual: bias + residual there,
// hand-computed. oneDNN 2.6.3's brgconv (AVX-512) dropped the bias on such rows under its sum post-op, and
// crashed on some of them; the op must not hand it such a convolution.
TEST(ConvFastPath, PaddingOnlyOutputsKeepTheBias) {
  const int64_t h = 3, w = 13, pad_bottom = 1, oh = h + pad_bottom, ow = 6;  // kernel 1x5, stride 1x2, pads 1 left and right
  struct Channels {
    int64_t c, m, group;
  };
  for (const Channels& g : {Channels{2, 4, 1}, Channels{16, 16, 16}}) {  // and depthwise: oneDNN's brdgmm_dw, right here
    const int64_t per_group = g.c / g.group;
    for (int threads : {1, 3}) {
      OpRunner op("Conv");
      op.attrs().SetInt("group", g.group);
      op.attrs().SetInts("strides", {1, 2});
      op.attrs().SetInts("pads", {0, 1, pad_bottom, 1});
      op.set_threads(threads);
      op.AddFloatInput({1, g.c, h, w}, std::vector<float>(static_cast<size_t>(g.c * h * w), 1.0f));
      op.AddFloatInput({g.m, per_group, 1, 5}, std::vector<float>(static_cast<size_t>(g.m * per_group * 5), 0.5f), true);
      op.AddFloatInput({g.m}, std::vector<float>(static_cast<size_t>(g.m), 1.0f), true);
      op.AddFloatInput({1, g.m, oh, ow}, std::vector<float>(static_cast<size_t>(g.m * oh * ow), 2.0f));
      const Status status = op.Run();
      ASSERT_TRUE(status.ok()) << status.message();
      const float* y = op.output().as<float>();
      for (int64_t m = 0; m < g.m; ++m) {
        for (int64_t r = 0; r < oh; ++r) {
          for (int64_t c = 0; c < ow; ++c) {
            int64_t taps = 0;  // input columns the 1x5 window at c reads, on an input row
            for (int64_t k = 0; k < 5; ++k) taps += (c * 2 - 1 + k >= 0 && c * 2 - 1 + k < w) ? 1 : 0;
            const float sum = 0.5f * static_cast<float>(taps * per_group);
            const float want = 1.0f + 2.0f + (r < h ? sum : 0.0f);
            ASSERT_EQ(y[(m * oh + r) * ow + c], want) << "groups " << g.group << " channel " << m << " row " << r
                                                      << " column " << c << " (" << op.node().kernel << ", "
                                                      << threads << " threads)";
          }
        }
      }
    }
  }
}

// The float path: oneDNN with a residual (sum post-op) and the strided pointwise convolutions it runs on
// the pixels they read, with every operand NCHW or channels-last, on 1 and 3 threads, against the reference.
TEST(ConvFastPath, FloatResidualsAndSubsamplingInEveryLayout) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  struct Shape2d {
    int64_t c, m, group, h, w, k, stride, pad;
  };
  const Shape2d shapes[] = {{16, 24, 1, 9, 13, 3, 1, 1}, {12, 8, 1, 10, 7, 1, 1, 0}, {20, 12, 1, 11, 9, 1, 2, 0},
                            {8, 16, 1, 7, 12, 1, 3, 0},  {24, 24, 24, 8, 8, 3, 2, 1}, {5, 3, 1, 1, 30, 1, 2, 0}};
  std::mt19937 rng(0x2e5);
  std::normal_distribution<float> value(0.0f, 1.0f);
  auto random = [&](int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = value(rng);
    return v;
  };
  int subsampled = 0, residuals = 0;
  for (const Shape2d& g : shapes) {
    const int64_t oh = (g.h + 2 * g.pad - g.k) / g.stride + 1, ow = (g.w + 2 * g.pad - g.k) / g.stride + 1;
    const Shape xs{2, g.c, g.h, g.w}, ws{g.m, g.c / g.group, g.k, g.k}, ys{2, g.m, oh, ow};
    const std::vector<float> x = random(NumElements(xs)), w = random(NumElements(ws)), b = random(g.m),
                             r = random(NumElements(ys));
    for (bool with_residual : {false, true}) {
      auto run = [&](bool last, int threads, std::string* kernel) {
        OpRunner op("Conv");
        op.attrs().SetInt("group", g.group);
        op.attrs().SetInts("strides", {g.stride, g.stride});
        op.attrs().SetInts("pads", {g.pad, g.pad, g.pad, g.pad});
        op.attrs().SetString("activation", "Relu");
        op.set_threads(threads);
        op.AddFloatInput(xs, x);
        op.AddFloatInput(ws, w, true);
        op.AddFloatInput({g.m}, b, true);
        if (with_residual) op.AddFloatInput(ys, r);
        op.SetChannelsLast({last, false, false, last}, last);
        EXPECT_TRUE(op.Run().ok());
        *kernel = op.node().kernel;
        return op.FloatOutput();
      };
      std::string ref_kernel, kernel;
      std::vector<float> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = run(false, 1, &ref_kernel);
      }
      ASSERT_EQ(ref_kernel, "ref");
      for (bool last : {false, true}) {
        for (int threads : {1, 3}) {
          const std::vector<float> got = run(last, threads, &kernel);
          ASSERT_EQ(got.size(), want.size());
          const bool strided_pointwise = g.k == 1 && g.stride > 1;
          EXPECT_EQ(kernel.rfind(strided_pointwise ? "onednn_subsampled:" : "onednn:", 0), 0u) << kernel;
          for (size_t i = 0; i < want.size(); ++i) {
            ASSERT_NEAR(got[i], want[i], 1e-4f * (1.0f + std::fabs(want[i])))
                << "shape " << &g - shapes << " residual " << with_residual << " channels-last " << last
                << " threads " << threads << " element " << i;
          }
          subsampled += strided_pointwise ? 1 : 0;
          residuals += with_residual ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GE(subsampled, 12);
  EXPECT_GE(residuals, 24);
}

}  // namespace
}  // namespace testing
}  // namespace npurt
