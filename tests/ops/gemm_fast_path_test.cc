// The Gemm op on its optimized path (runtime/ops/gemm_fast_path.h) against the
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
#include "tests/common/isa_skip.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace testing {
namespace {

std::vector<uint8_t> RunGemmOp(const GemmCase& c, std::string* kernel) {
  const GemmParams& p = c.p;
  OpRunner op("Gemm");
  if (p.trans_b) op.attrs().SetInt("transB", 1);
  if (p.activation.kind == FusedActivation::kRelu) op.attrs().SetString("activation", "Relu");
  if (p.activation.kind == FusedActivation::kHardSwish) op.attrs().SetString("activation", "HardSwish");
  if (c.out_type != c.a_type) op.attrs().SetString("output_type", c.out_type == DataType::kInt16 ? "INT16" : "INT8");
  if (c.a_type == DataType::kInt16) {
    std::vector<int16_t> a(c.a.size() / 2);
    std::memcpy(a.data(), c.a.data(), c.a.size());
    op.AddInput<int16_t>({p.m, p.k}, a, DataType::kInt16);
  } else {
    op.AddInput<int8_t>({p.m, p.k}, std::vector<int8_t>(c.a.begin(), c.a.end()), DataType::kInt8);
  }
  const float a_scale = 0.01f;  // any: the op only sees acc_scale = a scale * b scale
  op.SetInputQuant(0, PerTensor(a_scale, c.q.a_zero_point));
  op.AddInput<int8_t>(p.trans_b ? Shape{p.n, p.k} : Shape{p.k, p.n}, c.b, DataType::kInt8, true);
  std::vector<float> b_scales;
  for (float s : c.q.acc_scale) b_scales.push_back(s / a_scale);
  op.SetInputQuant(1, accumulating::PerAxis(b_scales, p.trans_b ? 0 : 1));
  if (!c.bias.empty()) op.AddInput<int32_t>({p.n}, c.bias, DataType::kInt32, true);
  op.SetOutputQuant(0, PerTensor(c.q.output_scale, c.q.output_zero_point));
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << c.name << ": " << s.message();
  *kernel = op.node().kernel;
  const Tensor& y = op.output();
  const uint8_t* bytes = y.as<uint8_t>();
  return std::vector<uint8_t>(bytes, bytes + y.bytes);
}

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
