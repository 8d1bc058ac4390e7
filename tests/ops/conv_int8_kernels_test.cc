// npurt's int8 convolution kernels (runtime/kernels/int8) through the Conv op against the op on the
// reference kernels: every kernel this machine runs -- the real ones of its ISA, the portable one and the
// emulated policies of the ISAs it lacks -- on the kernel harness's shapes (tails, strides, pads,
// dilations, groups, depthwise, zero points, every int8 / int16 mix, affines, residuals, NCHW and
// channels-last, one and three threads). Each must give the reference's bits.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/dwconv.h"
#include "runtime/kernels/int8/igemm.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/quantized_conv_op.h"

namespace npurt {
namespace testing {
namespace {

bool IsDepthwiseKernel(const std::string& name) { return name.rfind("s8_dwconv", 0) == 0; }

// Runs the harness's cases with `igemm` (or, when `dw` is set, that depthwise kernel) chosen; each result
// must be the reference's bits. Returns how many cases took the kernel under test.
struct Taken {
  int cases = 0, int16_inputs = 0, in_place = 0;
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
    if (kernel != name && kernel != std::string(name) + " in 2 pieces") continue;
    ++taken.cases;
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
    if (ActiveCpuTarget() < k->needs) {
      std::printf("[ INFO     ] %s: not on this CPU\n", k->name);
      continue;
    }
    SCOPED_TRACE(k->name);
    const ScopedDwconvKernelChoice use(k);
    const Taken taken = ExpectReferenceBits(k->name, 0xd3 + static_cast<uint32_t>(ran));
    EXPECT_GE(taken.cases, 10) << k->name;  // the harness's depthwise cases
    EXPECT_GE(taken.int16_inputs, 3) << k->name;
    ++ran;
  }
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
  {
    const ScopedCpuTargetCap reference(CpuTarget::kRef);
    EXPECT_EQ(ChooseIgemmKernel(false), nullptr);
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

}  // namespace
}  // namespace testing
}  // namespace npurt
