// The Gemm op on its oneDNN path (runtime/ops/gemm_fast_path.h) against the
// same op on the reference kernel, for every int8 / int16 type mix of the
// kernel harness's shapes, plus long reductions. Quantized Gemms sum their codes
// in a float32 oneDNN matmul, kept exact (int16 A and long int8 sums in two
// pieces), and npurt requantizes: the reference's bits.
#include <gtest/gtest.h>

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
#include "tests/ops/quantized_gemm_op.h"

namespace npurt {
namespace testing {
namespace {

// A case of the harness with K and A's type replaced: `k` taps of random full-range codes.
GemmCase LongGemm(std::mt19937* rng, int64_t k, DataType a_type) {
  GemmCase c = GemmCases(0x10e6, 0)[0];
  c.p.k = k, c.p.trans_a = false, c.a_type = a_type;
  c.q.a_zero_point = RandomZeroPoint(rng, a_type);
  SpreadOutputScales(rng, c.p.n, c.p.k, c.a_type, c.out_type, &c.q.output_scale, &c.q.output_zero_point,
                     &c.q.acc_scale);
  c.a = RandomActivationBytes(rng, a_type, c.p.m * k);
  c.b = RandomWeightCodes(rng, k * c.p.n);
  c.name += " (K " + std::to_string(k) + ", " + DataTypeName(a_type) + ")";
  return c;
}

TEST(GemmFastPath, FloatSumsGiveTheReferenceBits) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const ScopedCpuTargetCap no_vnni(CpuTarget::kAvx2);
  const ScopedIgemmKernelChoice library_only(nullptr);  // npurt's int8 kernels: gemm_int8_kernels_test.cc
  int optimized = 0, candidates = 0, split = 0;
  std::vector<GemmCase> cases = GemmCases(0x6e1, 150);
  // Long sums: int8 past 2^24 at full scale (two pieces), int16 within two pieces.
  std::mt19937 rng(0x6e2);
  cases.push_back(LongGemm(&rng, 2400, DataType::kInt8));
  cases.push_back(LongGemm(&rng, 300, DataType::kInt16));
  for (const GemmCase& c : cases) {
    if (c.p.trans_a) continue;  // the op's fast path takes A as is
    ++candidates;
    std::string kernel, ref_kernel;
    std::vector<uint8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      want = RunGemmOp(c, &ref_kernel);
    }
    const std::vector<uint8_t> got = RunGemmOp(c, &kernel);
    ASSERT_EQ(got.size(), want.size()) << c.name;
    EXPECT_EQ(ref_kernel, "ref");
    if (kernel == "ref") continue;
    ++optimized;
    EXPECT_EQ(kernel.rfind("onednn_f32sum:", 0), 0u) << c.name << ": " << kernel;
    split += kernel.find(" in 2 pieces") != std::string::npos ? 1 : 0;
    ASSERT_EQ(got, want) << c.name << " (" << kernel << ")";
  }
  EXPECT_EQ(optimized, candidates);  // with and without bias, every type mix and activation
  EXPECT_GE(split, 10);              // the int16 A and the long int8 sum
}

}  // namespace
}  // namespace testing
}  // namespace npurt
