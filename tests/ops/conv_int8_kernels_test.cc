// npurt's int8 convolution kernels (runtime/kernels/int8) through the Conv op against the op on the
// reference kernels: every kernel this machine runs -- the real ones of its ISA, the portable one and the
// emulated policies of the ISAs it lacks -- on the kernel harness's shapes (tails, strides, pads,
// dilations, groups, depthwise, zero points, every int8 / int16 mix, affines, residuals, NCHW and
// channels-last, one and three threads). Each must give the reference's bits.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/dwconv.h"
#include "runtime/kernels/int8/igemm.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"
#include "tests/ops/quantized_conv_op.h"

namespace npurt {
namespace testing {
namespace {

bool IsDepthwiseKernel(const std::string& name) { return name.rfind("s8_dwconv", 0) == 0; }

// Runs the harness's cases with `igemm` (or, when `dw` is set, that depthwise kernel) chosen; each result
// must be the reference's bits. Returns how many cases took the kernel under test.
struct Taken {
  int cases = 0, int16_inputs = 0, in_place = 0, patches = 0;
};
Taken ExpectReferenceBits(const char* name, uint32_t seed) {
  std::vector<ConvCase> cases = ConvCases(seed, 120);
  std::vector<std::vector<float>> affines;
  AttachOutputAffines(seed + 1, &cases, &affines);
  AttachResiduals(seed + 2, &cases);
  Taken taken;
  for (size_t i = 0; i < cases.size(); ++i) {
    const ConvCase& c = cases[i];
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunConvOp(c, &ref_kernel);
    }
    const bool residual_last = c.residual.size() % 3 == 0;
    const bool io_last = i % 2 == 0;
    const int threads = i % 3 == 0 ? 3 : 1;
    std::vector<uint8_t> got = RunConvOp(c, &kernel, residual_last, io_last, threads);
    // Channels-last tensors are for the NHWC kernels: where another kernel took the case, run it as the
    // layout pass would give it.
    if (kernel.rfind("s8_", 0) != 0 && (residual_last || io_last)) got = RunConvOp(c, &kernel, false, false, threads);
    EXPECT_EQ(ref_kernel, "ref");
    // Whichever kernel ran (the depthwise one for depthwise cases), the bits are the reference's.
    EXPECT_EQ(got, want) << c.name << " (" << kernel << ", " << threads << " threads)";
    const std::string patches = std::string(name) + " over patches";
    if (kernel != name && kernel != std::string(name) + " in 2 pieces" && kernel != patches) continue;
    ++taken.cases;
    taken.patches += kernel == patches ? 1 : 0;
    taken.int16_inputs += c.in_type == DataType::kInt16 ? 1 : 0;
    taken.in_place += io_last ? 1 : 0;
  }
  return taken;
}

TEST(ConvInt8Kernels, EveryKernelGivesTheReferenceBits) {
  int ran = 0;
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k)) {
      std::printf("[ INFO     ] %s: not on this CPU (its emulated policy runs instead)\n", k->name);
      continue;
    }
    SCOPED_TRACE(k->name);
    const ScopedIgemmKernelChoice use(k);
    const Taken taken = ExpectReferenceBits(k->name, 0x18e + static_cast<uint32_t>(ran));
    // Only depthwise cases (their own kernel) and int16 inputs whose accumulators could pass int32 go
    // elsewhere.
    EXPECT_GE(taken.cases, 70) << k->name;
    if (k->int16_inputs) EXPECT_GE(taken.int16_inputs, 20) << k->name;
    EXPECT_GE(taken.in_place, 30) << k->name;
    if (!IsDepthwiseKernel(k->name)) EXPECT_GE(taken.patches, 20) << k->name;  // few channels, several taps
    ++ran;
  }
  // The portable kernel always; on x86-64 AVX2 and the four emulated policies at least; on AArch64 NEON
  // (and dotprod where the CPU has it: qemu's `max` CPU does).
#if defined(__x86_64__)
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) EXPECT_GE(ran, 6);
#elif defined(__aarch64__)
  if (ActiveCpuTarget() >= CpuTarget::kPortable) EXPECT_GE(ran, 2);
#endif
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

TEST(ConvInt8Kernels, EveryDepthwiseKernelGivesTheReferenceBits) {
  int ran = 0;
  for (const DwconvKernel* k : AllDwconvKernels()) {
    if (!DwconvKernelRuns(*k)) {
      std::printf("[ INFO     ] %s: not on this CPU (its emulated policy runs instead)\n", k->name);
      continue;
    }
    SCOPED_TRACE(k->name);
    const ScopedDwconvKernelChoice use(k);
    const Taken taken = ExpectReferenceBits(k->name, 0xd3 + static_cast<uint32_t>(ran));
    EXPECT_GE(taken.cases, 10) << k->name;  // the harness's depthwise cases
    // int16 inputs are for the int16-pair kernels (the quads' go to the pairs kernel of the CPU).
    if (!k->int16_inputs) {
      EXPECT_EQ(taken.int16_inputs, 0) << k->name;
      ++ran;
      continue;
    }
    EXPECT_GE(taken.int16_inputs, 3) << k->name;
    // int16 inputs whose bias alone could push the accumulators out of int32: int32 sums, the bias apart.
    std::mt19937 rng(0xd31);
    for (int64_t channels : {24, 37}) {
      ConvCase c;
      ASSERT_TRUE(MakeConvCase(&rng, {1, channels, channels, channels, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
                               DataType::kInt16, DataType::kInt16, FusedActivation::kRelu, &c));
      c.bias.resize(static_cast<size_t>(channels));
      for (size_t m = 0; m < c.bias.size(); ++m) c.bias[m] = (m % 2 ? 1 : -1) * (INT32_MAX - static_cast<int32_t>(m) * 3);
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunConvOp(c, &ref_kernel);
      }
      EXPECT_EQ(RunConvOp(c, &kernel, false, channels == 24), want) << c.name;
      EXPECT_EQ(kernel, std::string(k->name) + " int32 sums") << c.name;
    }
    ++ran;
  }
  // The portable kernel always; on x86-64 AVX2 and the four emulated policies at least.
#if defined(__x86_64__)
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) EXPECT_GE(ran, 6);
#endif
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

// The op picks a real kernel of this CPU (never an emulated one), and the reference target none.
TEST(ConvInt8Kernels, ChoosesARealKernelOfThisCpu) {
  const IgemmKernel* k = ChooseIgemmKernel(false);
  if (ActiveCpuTarget() < CpuTarget::kPortable) {
    EXPECT_EQ(k, nullptr);
    return;
  }
  ASSERT_NE(k, nullptr);
  EXPECT_FALSE(k->emulated) << k->name;
  EXPECT_TRUE(IgemmKernelRuns(*k)) << k->name;
  const IgemmKernel* wide = ChooseIgemmKernel(true);
  ASSERT_NE(wide, nullptr);
  EXPECT_TRUE(wide->int16_inputs) << wide->name;
  // The depthwise kernel likewise, of the same ISA as the igemm's.
  for (bool int16_input : {false, true}) {
    const DwconvKernel* dw = ChooseDwconvKernel(int16_input);
    ASSERT_NE(dw, nullptr);
    EXPECT_FALSE(dw->emulated) << dw->name;
    EXPECT_TRUE(DwconvKernelRuns(*dw)) << dw->name;
    EXPECT_TRUE(!int16_input || dw->int16_inputs) << dw->name;
    const IgemmKernel* igemm = ChooseIgemmKernel(int16_input);
    EXPECT_STREQ(std::strstr(dw->name, "__"), std::strstr(igemm->name, "__")) << dw->name << " / " << igemm->name;
    EXPECT_EQ(dw->format, igemm->format) << dw->name << " / " << igemm->name;
  }
  {
    const ScopedCpuTargetCap reference(CpuTarget::kRef);
    EXPECT_EQ(ChooseIgemmKernel(false), nullptr);
    EXPECT_EQ(ChooseDwconvKernel(false), nullptr);
  }
}

// An int16 input whose accumulators could pass int32 in one piece (65535 * sum|w| past 2^31: long
// reductions) runs in two pieces, d = 256 h + l, on every kernel that reads int16; one whose bias alone
// could push them out sums in int32 with the bias joined apart; others in one piece of float sums. All
// give the reference's bits, with residuals, affines, groups and both layouts.
TEST(ConvInt8Kernels, LongInt16SumsRunInTwoPieces) {
  const ConvShape longs[] = {
      {1, 2048, 4, 1, 1, 3, 1, 1},                              // a Gemm-like 1x1: K 2048
      {1, 320, 24, 1, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},      // 3x3, K 2880, same pads
      {1, 256, 34, 2, 5, 9, 3, 3, 2, 1, 1, 2, 1, 2, 0, 1},      // groups, strides, dilation
      {2, 1200, 40, 1, 3, 4, 1, 2},                             // batch 2, 1x2, 40 outputs past a 32-wide block
  };
  std::vector<ConvCase> cases;
  std::mt19937 rng(0x2b16);
  const FusedActivation acts[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kHardSwish};
  for (const ConvShape& s : longs) {
    for (DataType out : {DataType::kInt8, DataType::kInt16}) {
      ConvCase c;
      ASSERT_TRUE(MakeConvCase(&rng, s, DataType::kInt16, out, acts[cases.size() % 3], &c));
      cases.push_back(std::move(c));
    }
  }
  std::vector<std::vector<float>> affines;
  AttachOutputAffines(0x2b17, &cases, &affines);
  AttachResiduals(0x2b18, &cases);
  int ran = 0;
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k) || !k->int16_inputs) continue;
    SCOPED_TRACE(k->name);
    const ScopedIgemmKernelChoice use(k);
    for (size_t i = 0; i < cases.size(); ++i) {
      const ConvCase& c = cases[i];
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunConvOp(c, &ref_kernel);
      }
      const bool io_last = i % 2 == 1;
      const std::vector<uint8_t> got = RunConvOp(c, &kernel, c.residual.size() % 3 == 0, io_last, i % 3 == 0 ? 3 : 1);
      EXPECT_EQ(kernel, std::string(k->name) + " in 2 pieces") << c.name;
      ASSERT_EQ(got, want) << c.name << " (" << kernel << ")";
    }
    // Short sums whose bias alone could pass int32 keep one piece of int32 sums, the bias joined apart.
    {
      ConvCase c;
      ASSERT_TRUE(MakeConvCase(&rng, {1, 24, 40, 1, 4, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, DataType::kInt16,
                               DataType::kInt16, FusedActivation::kRelu, &c));
      c.bias.resize(static_cast<size_t>(c.p.out_channels));
      for (size_t m = 0; m < c.bias.size(); ++m) c.bias[m] = (m % 2 ? 1 : -1) * (INT32_MAX - static_cast<int32_t>(m) * 977);
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunConvOp(c, &ref_kernel);
      }
      EXPECT_EQ(RunConvOp(c, &kernel, false, true), want) << c.name;
      EXPECT_EQ(kernel, std::string(k->name) + " int32 sums") << c.name;
    }
    // Short sums and biases keep one piece of float sums.
    ConvCase c;
    ASSERT_TRUE(MakeConvCase(&rng, {1, 16, 8, 1, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, DataType::kInt16, DataType::kInt8,
                             FusedActivation::kNone, &c));
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunConvOp(c, &ref_kernel);
    }
    EXPECT_EQ(RunConvOp(c, &kernel), want) << c.name;
    EXPECT_EQ(kernel, k->name) << c.name;
    ++ran;
  }
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

// ConvTranspose with kernel == stride (PP-OCRv4 det's upsampling head) on every igemm kernel: the 1x1
// convolution to kH * kW * M channels and the requantization's depth to space against the reference
// ConvTranspose, int8 and int16 inputs and outputs, activations, both layouts, batches and threads.
struct TransposeCase {
  int64_t n, c, m, h, w, kh, kw;
  DataType in, out;
  bool relu;
};

std::vector<uint8_t> RunConvTransposeOp(const TransposeCase& t, uint32_t seed, bool io_last, int threads,
                                        std::string* kernel) {
  std::mt19937 rng(seed);
  OpRunner op("ConvTranspose");
  op.set_threads(threads);
  op.attrs().SetInts("strides", {t.kh, t.kw});
  op.attrs().SetInts("kernel_shape", {t.kh, t.kw});
  if (t.relu) op.attrs().SetString("activation", "Relu");
  if (t.out != t.in) op.attrs().SetString("output_type", t.out == DataType::kInt16 ? "INT16" : "INT8");
  const std::vector<uint8_t> x = RandomActivationBytes(&rng, t.in, t.n * t.c * t.h * t.w);
  if (t.in == DataType::kInt16) {
    std::vector<int16_t> v(x.size() / 2);
    std::memcpy(v.data(), x.data(), x.size());
    op.AddInput<int16_t>({t.n, t.c, t.h, t.w}, v, DataType::kInt16);
  } else {
    op.AddInput<int8_t>({t.n, t.c, t.h, t.w}, std::vector<int8_t>(x.begin(), x.end()), DataType::kInt8);
  }
  const float x_scale = 0.01f;
  op.SetInputQuant(0, PerTensor(x_scale, RandomZeroPoint(&rng, t.in)));
  op.AddInput<int8_t>({t.c, t.m, t.kh, t.kw}, RandomWeightCodes(&rng, t.c * t.m * t.kh * t.kw), DataType::kInt8, true);
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
  std::vector<float> acc_scale;
  SpreadOutputScales(&rng, t.m, t.c, t.in, t.out, &out_scale, &out_zero_point, &acc_scale);
  std::vector<float> w_scales;
  for (float s : acc_scale) w_scales.push_back(s / x_scale);
  op.SetInputQuant(1, accumulating::PerAxis(w_scales, 1));
  std::vector<int32_t> bias(static_cast<size_t>(t.m));
  for (int32_t& b : bias) b = std::uniform_int_distribution<int32_t>(-(1 << 16), 1 << 16)(rng);
  op.AddInput<int32_t>({t.m}, bias, DataType::kInt32, true);
  op.SetOutputQuant(0, PerTensor(out_scale, out_zero_point));
  if (io_last) op.SetChannelsLast({true, false, false}, true);
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << s.message();
  *kernel = op.node().kernel;
  const Tensor& y = op.output();
  const uint8_t* bytes = y.as<uint8_t>();
  return std::vector<uint8_t>(bytes, bytes + y.bytes);
}

TEST(ConvInt8Kernels, ConvTransposeKernelEqualsStrideOnEveryKernel) {
  const TransposeCase cases[] = {
      {1, 24, 24, 7, 13, 2, 2, DataType::kInt8, DataType::kInt8, true},    // det's head
      {1, 24, 1, 7, 13, 2, 2, DataType::kInt8, DataType::kInt8, false},    // ... to one channel
      {2, 5, 37, 3, 4, 3, 1, DataType::kInt8, DataType::kInt16, true},     // 3x1, channels past a block
      {1, 40, 9, 2, 5, 1, 3, DataType::kInt16, DataType::kInt8, false},    // int16 in
      {1, 16, 20, 4, 4, 2, 3, DataType::kInt16, DataType::kInt16, true},   // int16 in and out
      {1, 3, 2, 1, 9, 2, 2, DataType::kInt8, DataType::kInt8, false},      // one input row
  };
  int ran = 0;
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k)) continue;
    SCOPED_TRACE(k->name);
    const ScopedIgemmKernelChoice use(k);
    int taken = 0;
    for (size_t i = 0; i < std::size(cases); ++i) {
      const TransposeCase& t = cases[i];
      const uint32_t seed = 0x7d5 + static_cast<uint32_t>(i);
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunConvTransposeOp(t, seed, false, 1, &ref_kernel);
      }
      EXPECT_EQ(ref_kernel, "ref");
      const bool io_last = i % 2 == 0;
      std::vector<uint8_t> got = RunConvTransposeOp(t, seed, io_last, i % 3 == 0 ? 3 : 1, &kernel);
      if (kernel.rfind("s8_", 0) != 0 && io_last) got = RunConvTransposeOp(t, seed, false, 1, &kernel);
      EXPECT_EQ(got, want) << "case " << i << " (" << kernel << ")";
      if (kernel == std::string(k->name) + "+depth_to_space") ++taken;
      // int16 inputs take only the kernels that read them.
      if (t.in == DataType::kInt16 && !k->int16_inputs) EXPECT_EQ(kernel.find(k->name), std::string::npos) << kernel;
    }
    EXPECT_GE(taken, k->int16_inputs ? 6 : 4) << k->name;
    ++ran;
  }
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

}  // namespace
}  // namespace testing
}  // namespace npurt
