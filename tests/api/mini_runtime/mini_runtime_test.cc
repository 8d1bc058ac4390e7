// librknnmrt.so, the RV1106 / RV1103-class runtime: its platforms' models run through the zero-copy API
// (rknn_create_mem + rknn_set_io_mem) and give the same numbers as librknnrt; what the board's librknnmrt
// refuses -- the copying API, rknn_dup_context, dynamic shapes, some queries, other platforms' models --
// is refused with the board's code and a log line. This binary links librknnmrt.so only.
#include "api_test_util.h"

namespace apitest {
namespace {

const std::vector<uint8_t>& Rv1106Model() {
  static const std::vector<uint8_t>* model = new std::vector<uint8_t>(ConvReluPoolModelFor("rv1106"));
  return *model;
}

class MiniRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{Rv1106Model()};
};

TEST_F(MiniRuntimeTest, RunsThroughTheZeroCopyApi) {
  rknn_tensor_attr in = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  in.type = RKNN_TENSOR_UINT8;
  in.fmt = RKNN_TENSOR_NHWC;
  const uint32_t stride = in.w_stride != 0 ? in.w_stride : kW;
  rknn_tensor_mem* in_mem = rknn_create_mem(ctx(), stride * kH * kC);
  ASSERT_NE(in_mem, nullptr);
  ASSERT_EQ(rknn_set_io_mem(ctx(), in_mem, &in), RKNN_SUCC);
  rknn_tensor_mem* out_mem[2] = {nullptr, nullptr};
  for (uint32_t i = 0; i < 2; ++i) {
    rknn_tensor_attr a = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, i);
    a.type = RKNN_TENSOR_FLOAT32;
    a.fmt = RKNN_TENSOR_NCHW;
    out_mem[i] = rknn_create_mem(ctx(), a.n_elems * sizeof(float));
    ASSERT_NE(out_mem[i], nullptr);
    ASSERT_EQ(rknn_set_io_mem(ctx(), out_mem[i], &a), RKNN_SUCC);
  }
  for (uint32_t seed : {1u, 4u}) {
    WriteImage(static_cast<uint8_t*>(in_mem->virt_addr), stride, seed);
    ASSERT_EQ(rknn_mem_sync(ctx(), in_mem, RKNN_MEMORY_SYNC_TO_DEVICE), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
    const ConvReluPoolExpected want = Oracle(seed);
    EXPECT_TRUE(AllNear(static_cast<const float*>(out_mem[0]->virt_addr), want.y, "y")) << seed;
    EXPECT_TRUE(AllNear(static_cast<const float*>(out_mem[1]->virt_addr), want.z, "z")) << seed;
  }
  for (rknn_tensor_mem* m : {in_mem, out_mem[0], out_mem[1]}) EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
}

TEST_F(MiniRuntimeTest, TheCopyingApiAndDupContextAreRefusedAsOnTheBoard) {
  std::vector<uint8_t> image = InputNhwcU8(0);
  rknn_input input{};
  input.index = 0;
  input.buf = image.data();
  input.size = static_cast<uint32_t>(image.size());
  input.type = RKNN_TENSOR_UINT8;
  input.fmt = RKNN_TENSOR_NHWC;
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &input), RKNN_ERR_CTX_INVALID);
  rknn_output outputs[2] = {};
  outputs[0].want_float = outputs[1].want_float = 1;
  EXPECT_EQ(rknn_outputs_get(ctx(), 2, outputs, nullptr), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, outputs), RKNN_ERR_CTX_INVALID);
  rknn_context in = ctx(), dup = 0;
  EXPECT_EQ(rknn_dup_context(&in, &dup), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(dup, 0u);
  rknn_tensor_attr attr = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 1, &attr), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_set_input_shape(ctx(), &attr), RKNN_ERR_CTX_INVALID);
  // An unknown context is still that, not a refusal.
  EXPECT_EQ(rknn_inputs_set(0, 1, &input), RKNN_ERR_CTX_INVALID);
}

TEST_F(MiniRuntimeTest, QueriesTheBoardDoesNotAnswerAreParamInvalid) {
  rknn_input_output_num num{};
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_SUCC);
  EXPECT_EQ(num.n_input, 1u);
  rknn_perf_run perf{};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_RUN, &perf, sizeof(perf)), RKNN_ERR_PARAM_INVALID);
  rknn_perf_detail detail{};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_DETAIL, &detail, sizeof(detail)), RKNN_ERR_PARAM_INVALID);
  rknn_tensor_attr attr{};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR, &attr, sizeof(attr)), RKNN_ERR_PARAM_INVALID);
  rknn_input_range range{};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)), RKNN_ERR_PARAM_INVALID);
}

TEST(MiniRuntime, OtherPlatformsModelsAreTargetPlatformUnmatch) {
  for (const char* platform : {"rk3588", "rk3566"}) {
    rknn_context ctx = 0;
    EXPECT_EQ(InitFromBytes(&ctx, ConvReluPoolModelFor(platform)), RKNN_ERR_TARGET_PLATFORM_UNMATCH) << platform;
    EXPECT_EQ(ctx, 0u);
  }
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModelFor("rv1103")), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  // Nor does the board's librknnmrt read a model buffer in place.
  EXPECT_EQ(InitFromBytes(&ctx, Rv1106Model(), RKNN_FLAG_MODEL_BUFFER_ZERO_COPY), RKNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace apitest
