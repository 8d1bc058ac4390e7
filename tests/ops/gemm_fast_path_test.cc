// The Gemm op on its optimized path (runtime/ops/gemm_fast_path.h) against the
// same op on the reference kernel, for every int8 / int16 type mix of the
// kernel harness's shapes. Under an AVX2 cap (no VNNI) quantized Gemms sum
// their codes in a float32 oneDNN matmul and npurt requantizes: the
// reference's bits while the partial sums are exact (int8 A: K < 518 taps at
// full scale), within one step beyond (int16 A), the differing count reported.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

TEST(GemmFastPath, FloatSumsGiveTheReferenceBitsWhileExact) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const ScopedCpuTargetCap no_vnni(CpuTarget::kAvx2);
  int optimized = 0, candidates = 0;
  int64_t compared = 0, differing = 0;
  for (const GemmCase& c : GemmCases(0x6e1, 150)) {
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
    const bool exact = c.a_type == DataType::kInt8 && c.p.k * 255 * 127 < (int64_t{1} << 24);
    for (size_t i = 0; i < got.size() / TypeBytes(c.out_type); ++i) {
      const int32_t g = CodeAt(got, c.out_type, i), w = CodeAt(want, c.out_type, i);
      ++compared;
      differing += g != w ? 1 : 0;
      if (exact) {
        ASSERT_EQ(g, w) << c.name << " element " << i;
      } else {
        ASSERT_LE(std::abs(g - w), 1) << c.name << " element " << i << " got " << g << " want " << w;
      }
    }
  }
  std::printf("float sums: %lld of %lld outputs differ from the reference by one step\n",
              static_cast<long long>(differing), static_cast<long long>(compared));
  EXPECT_EQ(optimized, candidates);  // with and without bias, every type mix and activation
}

}  // namespace
}  // namespace testing
}  // namespace npurt
