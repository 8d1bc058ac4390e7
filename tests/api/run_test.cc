// rknn_run / rknn_wait / rknn_dup_context / rknn_set_core_mask /
// rknn_set_batch_core_num.
#include "api_test_util.h"

namespace apitest {
namespace {

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{ConvReluPoolModel()};
};

TEST_F(RunTest, RunBeforeInputsSetIsInputInvalid) {
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID);
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  EXPECT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_ERR_FAIL) << "a failed run is not a run";
}

TEST_F(RunTest, RunComputesAndRerunsWithoutNewInputs) {
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx(), 11, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 11));
  // Inputs persist: a second run without inputs_set gives the same result.
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y2, z2;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y2, &z2), RKNN_SUCC);
  EXPECT_EQ(y, y2);
  EXPECT_EQ(z, z2);
}

TEST_F(RunTest, OutputsFollowTheLatestRun) {
  std::vector<float> y, z;
  for (uint32_t seed : {0u, 1u, 2u, 0u, 15u}) {
    ASSERT_EQ(RunOnce(ctx(), seed, &y, &z), RKNN_SUCC);
    EXPECT_TRUE(OutputsMatch(y, z, seed)) << "seed " << seed;
  }
  // Different patterns really give different outputs (the oracle is discriminating).
  EXPECT_FALSE(OutputsMatch(y, z, 1));
}

TEST_F(RunTest, RuntimeBufferStaysValidAcrossNextRun) {
  std::vector<float> y, z;
  ASSERT_EQ(SetDefaultInput(ctx(), 1), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.index = 0;
  out.want_float = 1;
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_SUCC);
  // Another frame before release: the handed-out buffer keeps frame 1's data.
  ASSERT_EQ(RunOnce(ctx(), 2, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(static_cast<float*>(out.buf), Oracle(1).y, "y of the first frame"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &out), RKNN_SUCC);
}

TEST_F(RunTest, FrameIdsCountRunsPerContext) {
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  rknn_run_extend ext;
  for (uint64_t i = 1; i <= 3; ++i) {
    std::memset(&ext, 0, sizeof(ext));
    ASSERT_EQ(rknn_run(ctx(), &ext), RKNN_SUCC);
    EXPECT_EQ(ext.frame_id, i);
  }
  // rknn_wait is unsupported in librknnrt 2.3.2 (rknn_run blocks); npurt answers the same.
  rknn_run_extend wait_ext;
  std::memset(&wait_ext, 0, sizeof(wait_ext));
  EXPECT_EQ(rknn_wait(ctx(), &wait_ext), RKNN_ERR_FAIL);

  ScopedContext other(ConvReluPoolModel());
  ASSERT_EQ(other.init_result(), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(other.get()), RKNN_SUCC);
  std::memset(&ext, 0, sizeof(ext));
  ASSERT_EQ(rknn_run(other.get(), &ext), RKNN_SUCC);
  EXPECT_EQ(ext.frame_id, 1u) << "frame ids are per context";
}

TEST_F(RunTest, FailedRunDoesNotCountAsAFrame) {
  rknn_run_extend ext;
  std::memset(&ext, 0, sizeof(ext));
  EXPECT_EQ(rknn_run(ctx(), &ext), RKNN_ERR_INPUT_INVALID);
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), &ext), RKNN_SUCC);
  EXPECT_EQ(ext.frame_id, 1u);
}

TEST(ViewTest, ViewsOnSharedBytesComputeAndRerun) {
  // y = 2 * relu(x) through Flatten and Reshape planned on their inputs' bytes (ViewChainGraph).
  const std::vector<uint8_t> model = npurt::testing::EmitOrDie(npurt::testing::ViewChainGraph());
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  for (float sign : {1.0f, -1.0f}) {
    std::vector<float> x(16);
    for (size_t i = 0; i < x.size(); ++i) x[i] = sign * (static_cast<float>(i) - 5.5f);
    rknn_input in = MakeInput(x.data(), 64, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
    ASSERT_EQ(rknn_inputs_set(ctx, 1, &in), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
    std::vector<std::vector<float>> y;
    ASSERT_EQ(GetAllFloatOutputs(ctx, 1, &y), RKNN_SUCC);
    std::vector<float> want(16);
    for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] > 0 ? 2 * x[i] : 0.0f;
    EXPECT_EQ(y[0], want);
  }
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST_F(RunTest, SetCoreMask) {
  const rknn_core_mask good[] = {RKNN_NPU_CORE_AUTO, RKNN_NPU_CORE_0,     RKNN_NPU_CORE_1,  RKNN_NPU_CORE_2,
                                 RKNN_NPU_CORE_0_1,  RKNN_NPU_CORE_0_1_2, RKNN_NPU_CORE_ALL};
  for (rknn_core_mask m : good) EXPECT_EQ(rknn_set_core_mask(ctx(), m), RKNN_SUCC) << "mask " << m;
  // Inside the enum's value range (0..0x1ffff) so the casts are defined C++, but not masks.
  const int bad[] = {8, 3 << 4, 0x8000, RKNN_NPU_CORE_UNDEFINED, 0x1ffff};
  for (int m : bad) {
    EXPECT_EQ(rknn_set_core_mask(ctx(), static_cast<rknn_core_mask>(m)), RKNN_ERR_PARAM_INVALID) << "mask " << m;
  }
  // The mask does not change results.
  ASSERT_EQ(rknn_set_core_mask(ctx(), RKNN_NPU_CORE_0_1_2), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx(), 3, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 3));
}

TEST_F(RunTest, SetBatchCoreNum) {
  for (int n : {1, 2, 3}) EXPECT_EQ(rknn_set_batch_core_num(ctx(), n), RKNN_SUCC) << n;
  for (int n : {0, 4, -1, 100}) EXPECT_EQ(rknn_set_batch_core_num(ctx(), n), RKNN_ERR_PARAM_INVALID) << n;
}

// A convolution wide enough to split over threads (16 output channels, 2.7 M multiply-accumulates)
// and a Gemm on its pooled features (64 rows after a reshape): every core mask and batch core
// count must give the bits of one thread (the ops split whole output channels and rows).
std::vector<uint8_t> WideConvGemmModel() {
  using npurt::DataType;
  npurt::compiler::Graph g;
  const int x = g.AddTensor("x", {1, 8, 48, 48}, DataType::kFloat32);
  g.AddInput(x);
  std::vector<float> w(16 * 8 * 3 * 3), fc(144 * 600);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6) * 0.01f;
  for (size_t i = 0; i < fc.size(); ++i) fc[i] = static_cast<float>(static_cast<int>(i * 5 % 11) - 5) * 0.02f;
  const int wt = g.AddFloatConstant("conv.weight", {16, 8, 3, 3}, w);
  npurt::Attributes conv;
  conv.SetInts("kernel_shape", {3, 3});
  conv.SetInts("pads", {1, 1, 1, 1});
  const int c = g.AddNode("Conv", {x, wt}, conv, 1, "conv");
  g.tensors()[c].name = "y";
  const int shape = g.AddInt64Constant("flat.shape", {2}, {256, 144});
  const int flat = g.AddNode("Reshape", {c, shape}, {}, 1, "flat");
  const int fct = g.AddFloatConstant("fc.weight", {144, 600}, fc);
  const int z = g.AddNode("Gemm", {flat, fct}, {}, 1, "fc");
  g.tensors()[z].name = "z";
  g.AddOutput(c);
  g.AddOutput(z);
  return npurt::testing::EmitOrDie(g);
}

TEST(CoreMaskThreads, EveryMaskAndBatchCoreNumGivesTheSameBits) {
  ScopedContext ctx(WideConvGemmModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  std::vector<float> x(8 * 48 * 48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 31 % 97) - 48) * 0.05f;
  rknn_input in = MakeInput(x.data(), static_cast<uint32_t>(x.size() * sizeof(float)), RKNN_TENSOR_FLOAT32,
                            RKNN_TENSOR_NCHW);
  ASSERT_EQ(rknn_inputs_set(ctx.get(), 1, &in), RKNN_SUCC);
  auto run = [&](std::vector<float>* y, std::vector<float>* z) {
    ASSERT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);
    std::vector<std::vector<float>> out;
    ASSERT_EQ(GetAllFloatOutputs(ctx.get(), 2, &out), RKNN_SUCC);
    *y = out[0];
    *z = out[1];
  };
  std::vector<float> y1, z1;
  run(&y1, &z1);
  ASSERT_EQ(y1.size(), 16u * 48 * 48);
  ASSERT_EQ(z1.size(), 256u * 600);
  // The oracle for one output channel and one Gemm element, so equal-but-wrong cannot pass.
  double y_ref = 0.0, z_ref = 0.0;
  for (int ci = 0; ci < 8; ++ci) {
    for (int k = 0; k < 9; ++k) {
      const int ih = 10 + k / 3 - 1, iw = 20 + k % 3 - 1;
      y_ref += static_cast<double>(x[(ci * 48 + ih) * 48 + iw]) *
               static_cast<float>(static_cast<int>((5 * 72 + ci * 9 + k) * 7 % 13) - 6) * 0.01f;
    }
  }
  EXPECT_NEAR(y1[(5 * 48 + 10) * 48 + 20], y_ref, 1e-4);
  for (int k = 0; k < 144; ++k) {
    z_ref += static_cast<double>(y1[100 * 144 + k]) * static_cast<float>(static_cast<int>((k * 600 + 7) * 5 % 11) - 5) *
             0.02f;
  }
  EXPECT_NEAR(z1[100 * 600 + 7], z_ref, 1e-3);

  const rknn_core_mask masks[] = {RKNN_NPU_CORE_0_1, RKNN_NPU_CORE_0_1_2, RKNN_NPU_CORE_ALL, RKNN_NPU_CORE_1,
                                  RKNN_NPU_CORE_AUTO};
  for (rknn_core_mask m : masks) {
    ASSERT_EQ(rknn_set_core_mask(ctx.get(), m), RKNN_SUCC);
    std::vector<float> y, z;
    run(&y, &z);
    EXPECT_EQ(y, y1) << "core mask " << m;
    EXPECT_EQ(z, z1) << "core mask " << m;
  }
  for (int n : {3, 2, 1}) {
    ASSERT_EQ(rknn_set_batch_core_num(ctx.get(), n), RKNN_SUCC);
    std::vector<float> y, z;
    run(&y, &z);
    EXPECT_EQ(y, y1) << "batch core num " << n;
    EXPECT_EQ(z, z1) << "batch core num " << n;
  }
}

// Core selection exists only on the multi-core NPUs: RK3588 (3 cores) and RK3576 (2).
TEST(CoreMaskPlatforms, SingleCorePlatformsRefuseAndRk3576HasTwoCores) {
  ScopedContext rk3566(ConvReluPoolModelFor("rk3566"));
  ASSERT_EQ(rk3566.init_result(), RKNN_SUCC);
  EXPECT_EQ(rknn_set_core_mask(rk3566.get(), RKNN_NPU_CORE_AUTO), RKNN_ERR_FAIL);
  EXPECT_EQ(rknn_set_batch_core_num(rk3566.get(), 1), RKNN_ERR_FAIL);

  ScopedContext rk3576(ConvReluPoolModelFor("rk3576"));
  ASSERT_EQ(rk3576.init_result(), RKNN_SUCC);
  EXPECT_EQ(rknn_set_core_mask(rk3576.get(), RKNN_NPU_CORE_0_1), RKNN_SUCC);
  EXPECT_EQ(rknn_set_core_mask(rk3576.get(), RKNN_NPU_CORE_ALL), RKNN_SUCC);
  EXPECT_EQ(rknn_set_core_mask(rk3576.get(), RKNN_NPU_CORE_2), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_core_mask(rk3576.get(), RKNN_NPU_CORE_0_1_2), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_batch_core_num(rk3576.get(), 2), RKNN_SUCC);
  EXPECT_EQ(rknn_set_batch_core_num(rk3576.get(), 3), RKNN_ERR_PARAM_INVALID);
}

// ------------------------------------------------------------ rknn_dup_context

TEST_F(RunTest, DupContextNullPointersAreParamInvalid) {
  rknn_context in = ctx(), out = 0;
  EXPECT_EQ(rknn_dup_context(nullptr, &out), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_dup_context(&in, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_dup_context(nullptr, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(out, 0u);
}

TEST(DupContextTest, InvalidSourceIsCtxInvalid) {
  for (rknn_context bad : {rknn_context{0}, kUnknownContext, DestroyedContext()}) {
    rknn_context in = bad, out = 77;
    EXPECT_EQ(rknn_dup_context(&in, &out), RKNN_ERR_CTX_INVALID) << "ctx " << bad;
    EXPECT_EQ(out, 77u) << "*context_out is written only on success";
  }
}

TEST_F(RunTest, DupContextIsIndependentAndComputesTheSame) {
  ASSERT_EQ(SetDefaultInput(ctx(), 1), RKNN_SUCC);
  rknn_context in = ctx(), dup = 0;
  ASSERT_EQ(rknn_dup_context(&in, &dup), RKNN_SUCC);
  ASSERT_NE(dup, 0u);
  ASSERT_NE(dup, ctx());
  // Inputs are per context: the duplicate starts with none.
  EXPECT_EQ(rknn_run(dup, nullptr), RKNN_ERR_INPUT_INVALID);

  // Same input -> same outputs.
  std::vector<float> y1, z1, y2, z2;
  ASSERT_EQ(RunOnce(ctx(), 2, &y1, &z1), RKNN_SUCC);
  ASSERT_EQ(RunOnce(dup, 2, &y2, &z2), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y2, z2, 2));
  EXPECT_EQ(y1, y2);
  EXPECT_EQ(z1, z2);

  // Different inputs interleaved: neither context sees the other's data.
  ASSERT_EQ(SetDefaultInput(ctx(), 5), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(dup, 6), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ASSERT_EQ(rknn_run(dup, nullptr), RKNN_SUCC);
  ASSERT_EQ(GetFloatOutputs(ctx(), &y1, &z1), RKNN_SUCC);
  ASSERT_EQ(GetFloatOutputs(dup, &y2, &z2), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y1, z1, 5));
  EXPECT_TRUE(OutputsMatch(y2, z2, 6));

  // Queries agree.
  rknn_tensor_attr a, b;
  std::memset(&a, 0, sizeof(a));
  std::memset(&b, 0, sizeof(b));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, &a, sizeof(a)), RKNN_SUCC);
  ASSERT_EQ(rknn_query(dup, RKNN_QUERY_NATIVE_OUTPUT_ATTR, &b, sizeof(b)), RKNN_SUCC);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(dup), RKNN_ERR_CTX_INVALID);
}

TEST(DupContextTest, DuplicateOutlivesTheOriginal) {
  rknn_context orig = 0, dup = 0;
  ASSERT_EQ(InitFromBytes(&orig, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(rknn_dup_context(&orig, &dup), RKNN_SUCC);
  ASSERT_EQ(rknn_destroy(orig), RKNN_SUCC);  // the shared weights must stay alive for dup
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(dup, 7, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 7));
  rknn_custom_string cs;
  ASSERT_EQ(rknn_query(dup, RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), RKNN_SUCC);
  EXPECT_STREQ(cs.string, kCustomString);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
}

TEST(DupContextTest, DuplicateKeepsInitFlags) {
  ScopedContext orig(ConvReluPoolModel(), RKNN_FLAG_COLLECT_PERF_MASK);
  ASSERT_EQ(orig.init_result(), RKNN_SUCC);
  rknn_context in = orig.get(), dup = 0;
  ASSERT_EQ(rknn_dup_context(&in, &dup), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(dup, 0, &y, &z), RKNN_SUCC);
  rknn_perf_detail perf;
  std::memset(&perf, 0, sizeof(perf));
  EXPECT_EQ(rknn_query(dup, RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)), RKNN_SUCC);
  ASSERT_NE(perf.perf_data, nullptr);
  EXPECT_NE(std::string(perf.perf_data).find("GlobalAveragePool"), std::string::npos);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
}

TEST(DupContextTest, DupOfADupAndManyDups) {
  ScopedContext orig(ConvReluPoolModel());
  ASSERT_EQ(orig.init_result(), RKNN_SUCC);
  std::vector<rknn_context> dups;
  rknn_context src = orig.get();
  for (int i = 0; i < 8; ++i) {
    rknn_context d = 0;
    ASSERT_EQ(rknn_dup_context(&src, &d), RKNN_SUCC);
    dups.push_back(d);
    src = d;  // chain: dup of a dup
  }
  for (size_t i = 0; i < dups.size(); ++i) {
    std::vector<float> y, z;
    const uint32_t seed = static_cast<uint32_t>(i);
    ASSERT_EQ(RunOnce(dups[i], seed, &y, &z), RKNN_SUCC);
    EXPECT_TRUE(OutputsMatch(y, z, seed)) << "dup " << i;
  }
  for (rknn_context d : dups) EXPECT_EQ(rknn_destroy(d), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
