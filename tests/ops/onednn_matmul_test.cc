// The oneDNN matmul (runtime/kernels/x86/onednn_matmul.h) against the reference
// Gemm kernel on the harness's cases (K over vector-width edges, random M, N, K,
// transposed B, activations), float within a relative tolerance, for 1, 2 and 3 bands of rows.
// (Quantized Gemm / MatMul sum their codes here as floats: tests/ops/gemm_fast_path_test.cc.)
#include <gtest/gtest.h>

#if NPURT_HAVE_ONEDNN

#include <memory>

#include "runtime/kernels/dispatch.h"
#include "tests/common/isa_skip.h"
#include "runtime/kernels/x86/onednn_matmul.h"
#include "tests/ops/kernel_harness.h"

namespace npurt {
namespace testing {
namespace {

int g_slices = 1;
int g_taken = 0;

bool RunOnednn(const GemmParams& p, const void* a, const void* b, const void* bias, void* y) {
  OnednnMatMulShape s;
  s.m = p.m, s.n = p.n, s.k = p.k, s.trans_b = p.trans_b, s.activation = p.activation;
  std::unique_ptr<OnednnMatMul> mm;
  if (p.trans_a || !OnednnMatMul::Supports(s) || !OnednnMatMul::Create(s, b, bias, g_slices, &mm).ok()) {
    return false;
  }
  std::vector<uint8_t> scratch(mm->scratch_bytes_per_slice() + 1);
  for (int i = 0; i < mm->slices(); ++i) EXPECT_TRUE(mm->Run(i, a, y, scratch.data()).ok());
  ++g_taken;
  return true;
}

class OnednnMatMulTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    g_slices = GetParam();
    g_taken = 0;
  }
};

TEST_P(OnednnMatMulTest, FloatMatchesReference) {
  NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx2);
  const std::vector<GemmCase> cases = GemmCases(0x6e34 + GetParam(), 100);
  KernelDiff d;
  for (const GemmCase& c : cases) {
    if (c.p.trans_a) continue;
    std::vector<float> a(static_cast<size_t>(c.p.m * c.p.k)), b(c.b.size()), bias(c.bias.size());
    for (size_t i = 0; i < a.size(); ++i) a[i] = 0.01f * static_cast<float>(CodeAt(c.a, c.a_type, i));
    for (size_t i = 0; i < b.size(); ++i) b[i] = 0.02f * c.b[i];
    for (size_t i = 0; i < bias.size(); ++i) bias[i] = 1e-4f * static_cast<float>(c.bias[i]);
    GemmParams p = c.p;
    p.c_col_stride = 1;  // C is the bias row
    std::vector<float> want(static_cast<size_t>(p.m * p.n)), got(want.size(), -7.0f);
    f32_gemm__ref(p, a.data(), b.data(), bias.empty() ? nullptr : bias.data(), want.data());
    ASSERT_TRUE(RunOnednn(p, a.data(), b.data(), bias.empty() ? nullptr : bias.data(), got.data())) << c.name;
    CompareFloats(c.name, want, got, &d);
  }
  ExpectNmseBelow(d, 1e-10);
  EXPECT_GE(g_taken, 50);
}

INSTANTIATE_TEST_SUITE_P(Bands, OnednnMatMulTest, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace testing
}  // namespace npurt

#endif  // NPURT_HAVE_ONEDNN
