// The quantized Gemm and MatMul on npurt's int8 kernels (a 1x1 convolution of A's rows against the
// constant B, runtime/ops/conv_int8_path.h) against the op on the reference kernels: every igemm kernel
// this machine runs, real and emulated, on the harness's Gemm cases (both layouts of B, with and without
// bias, every int8 / int16 mix, activations) and long sums. Each must give the reference's bits.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/igemm.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"
#include "tests/ops/quantized_gemm_op.h"

namespace npurt {
namespace testing {
namespace {

// The case's product as a MatMul: A (1, m, k) x B (k, n), without its bias and activation (MatMul has
// neither; the reference run drops them too).
std::vector<uint8_t> RunMatMulOp(const GemmCase& c, std::string* kernel) {
  const GemmParams& p = c.p;
  OpRunner op("MatMul");
  if (c.out_type != c.a_type) op.attrs().SetString("output_type", c.out_type == DataType::kInt16 ? "INT16" : "INT8");
  if (c.a_type == DataType::kInt16) {
    std::vector<int16_t> a(c.a.size() / 2);
    std::memcpy(a.data(), c.a.data(), c.a.size());
    op.AddInput<int16_t>({1, p.m, p.k}, a, DataType::kInt16);
  } else {
    op.AddInput<int8_t>({1, p.m, p.k}, std::vector<int8_t>(c.a.begin(), c.a.end()), DataType::kInt8);
  }
  const float a_scale = 0.01f;
  op.SetInputQuant(0, PerTensor(a_scale, c.q.a_zero_point));
  std::vector<int8_t> b = c.b;  // as (k, n)
  if (p.trans_b) {
    for (int64_t kk = 0; kk < p.k; ++kk) {
      for (int64_t j = 0; j < p.n; ++j) b[static_cast<size_t>(kk * p.n + j)] = c.b[static_cast<size_t>(j * p.k + kk)];
    }
  }
  op.AddInput<int8_t>({p.k, p.n}, b, DataType::kInt8, true);
  std::vector<float> b_scales;
  for (float s : c.q.acc_scale) b_scales.push_back(s / a_scale);
  op.SetInputQuant(1, accumulating::PerAxis(b_scales, 1));
  op.SetOutputQuant(0, PerTensor(c.q.output_scale, c.q.output_zero_point));
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << c.name << ": " << s.message();
  *kernel = op.node().kernel;
  const Tensor& y = op.output();
  const uint8_t* bytes = y.as<uint8_t>();
  return std::vector<uint8_t>(bytes, bytes + y.bytes);
}

TEST(GemmInt8Kernels, EveryKernelGivesTheReferenceBits) {
  int ran = 0;
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k)) continue;
    SCOPED_TRACE(k->name);
    const ScopedIgemmKernelChoice use(k);
    int gemms = 0, matmuls = 0, int16_inputs = 0;
    std::vector<GemmCase> cases = GemmCases(0x9e3 + static_cast<uint32_t>(ran), 80);
    for (const GemmCase& c : cases) {
      if (c.p.trans_a) continue;  // the op's kernels take A as is
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunGemmOp(c, &ref_kernel);
      }
      EXPECT_EQ(ref_kernel, "ref");
      const std::vector<uint8_t> got = RunGemmOp(c, &kernel);
      EXPECT_EQ(got, want) << c.name << " (" << kernel << ")";
      gemms += kernel == k->name ? 1 : 0;
      int16_inputs += kernel == k->name && c.a_type == DataType::kInt16 ? 1 : 0;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunMatMulOp(c, &ref_kernel);
      }
      EXPECT_EQ(RunMatMulOp(c, &kernel), want) << "MatMul " << c.name << " (" << kernel << ")";
      matmuls += kernel == k->name ? 1 : 0;
    }
    EXPECT_GE(gemms, 30) << k->name;
    EXPECT_GE(matmuls, 30) << k->name;
    if (k->int16_inputs) EXPECT_GE(int16_inputs, 5) << k->name;
    ++ran;
  }
  EXPECT_GE(ran, ActiveCpuTarget() >= CpuTarget::kPortable ? 1 : 0);
}

}  // namespace
}  // namespace testing
}  // namespace npurt
