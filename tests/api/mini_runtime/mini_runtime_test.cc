// librknnmrt.so, the RV1106 / RV1103-class runtime: its platforms' int8 models run through the zero-copy
// API (rknn_create_mem + rknn_set_io_mem: uint8 NHWC or native int8 in, native int8 out); what the board's
// librknnmrt refuses -- the copying API, rknn_dup_context, dynamic shapes, some queries, float models and
// float buffers, other platforms' models -- is refused with the board's code and a log line. This binary
// links librknnmrt.so only.
#include "api_test_util.h"

namespace apitest {
namespace {

// ConvReluPool quantized by hand-set ranges (tests/common/test_models.h): x codes = x - 128.
const std::vector<uint8_t>& Rv1106Model() {
  static const std::vector<uint8_t>* model =
      new std::vector<uint8_t>(npurt::testing::ConvReluPoolInt8Model("rv1106"));
  return *model;
}

// The float y and z of int8 codes in a native layout: NC1HWC2 (c2 = dims[4]) or NHWC, rows of w_stride.
std::vector<float> Dequantize(const int8_t* codes, const rknn_tensor_attr& a, uint32_t channels, uint32_t h,
                              uint32_t w) {
  std::vector<float> out(channels * h * w);
  const uint32_t stride = a.w_stride != 0 ? a.w_stride : w;
  for (uint32_t c = 0; c < channels; ++c)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const size_t at = a.fmt == RKNN_TENSOR_NC1HWC2
                              ? (((c / a.dims[4]) * h + y) * stride + x) * a.dims[4] + c % a.dims[4]
                              : (y * stride + x) * channels + c;
        out[(c * h + y) * w + x] = (static_cast<float>(codes[at]) - static_cast<float>(a.zp)) * a.scale;
      }
  return out;
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
  // Output 0 in NC1HWC2 (RKNN_QUERY_NATIVE_OUTPUT_ATTR), output 1 in NHWC (..._NATIVE_NHWC_OUTPUT_ATTR).
  const rknn_tensor_attr out_attr[2] = {QueryTensorAttr(ctx(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, 0),
                                        QueryTensorAttr(ctx(), RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR, 1)};
  ASSERT_EQ(out_attr[0].fmt, RKNN_TENSOR_NC1HWC2);
  ASSERT_EQ(out_attr[1].fmt, RKNN_TENSOR_NHWC);
  rknn_tensor_mem* out_mem[2] = {nullptr, nullptr};
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_EQ(out_attr[i].type, RKNN_TENSOR_INT8);
    out_mem[i] = rknn_create_mem(ctx(), out_attr[i].size_with_stride);
    ASSERT_NE(out_mem[i], nullptr);
    rknn_tensor_attr a = out_attr[i];
    ASSERT_EQ(rknn_set_io_mem(ctx(), out_mem[i], &a), RKNN_SUCC);
  }
  for (uint32_t seed : {1u, 4u}) {
    WriteImage(static_cast<uint8_t*>(in_mem->virt_addr), stride, seed);
    ASSERT_EQ(rknn_mem_sync(ctx(), in_mem, RKNN_MEMORY_SYNC_TO_DEVICE), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
    ASSERT_EQ(rknn_mem_sync(ctx(), out_mem[0], RKNN_MEMORY_SYNC_FROM_DEVICE), RKNN_SUCC);
    const ConvReluPoolExpected want = Oracle(seed);
    const std::vector<float> y = Dequantize(static_cast<const int8_t*>(out_mem[0]->virt_addr), out_attr[0], kYC, kH, kW);
    const std::vector<float> z = Dequantize(static_cast<const int8_t*>(out_mem[1]->virt_addr), out_attr[1], kC, 1, 1);
    // Half a step of the convolution's int8 grid (range [-100, 80]) and of y's; z: half a step of its grid.
    const float y_tolerance = 0.5f * 180.0f / 255.0f + 0.5f * out_attr[0].scale + 1e-4f;
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want.y[i], y_tolerance) << "y " << i << " seed " << seed;
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(z[i], want.z[i], 0.5f * out_attr[1].scale + 1e-4f) << "z " << i;
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

// The CN C API reference: the model buffer the runtime holds (its address, size, fd, physical address).
TEST_F(MiniRuntimeTest, DeviceMemInfoDescribesTheModelBufferTheRuntimeHolds) {
  rknn_tensor_mem mem, again;
  std::memset(&mem, 0, sizeof(mem));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_DEVICE_MEM_INFO, &mem, sizeof(mem)), RKNN_SUCC);
  const std::vector<uint8_t>& model = Rv1106Model();
  ASSERT_EQ(mem.size, model.size());
  ASSERT_NE(mem.virt_addr, nullptr);
  EXPECT_NE(mem.virt_addr, static_cast<const void*>(model.data()));  // the runtime's own copy ...
  EXPECT_EQ(std::memcmp(mem.virt_addr, model.data(), model.size()), 0);  // ... of these bytes
  EXPECT_EQ(mem.offset, 0);
  EXPECT_EQ(mem.fd, -1);
  EXPECT_GE(mem.phys_addr, 0x100000000ull);  // npurt's device address space (rknn_create_mem's too)
  EXPECT_EQ(mem.phys_addr % 4096, 0u);
  EXPECT_EQ(mem.flags, RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE);
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_DEVICE_MEM_INFO, &again, sizeof(again)), RKNN_SUCC);
  EXPECT_EQ(again.phys_addr, mem.phys_addr);
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_DEVICE_MEM_INFO, &again, sizeof(again) - 1), RKNN_ERR_PARAM_INVALID);
}

TEST_F(MiniRuntimeTest, FloatBuffersAreRefusedAsTheBoardConvertsNone) {
  rknn_tensor_mem* mem = rknn_create_mem(ctx(), 4096);
  ASSERT_NE(mem, nullptr);
  rknn_tensor_attr in = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  in.type = RKNN_TENSOR_FLOAT32;
  in.fmt = RKNN_TENSOR_NCHW;
  EXPECT_EQ(rknn_set_io_mem(ctx(), mem, &in), RKNN_ERR_PARAM_INVALID);
  in = QueryTensorAttr(ctx(), RKNN_QUERY_NATIVE_INPUT_ATTR, 0);
  in.pass_through = 0;  // int8 codes must come in the native layout as they are
  EXPECT_EQ(rknn_set_io_mem(ctx(), mem, &in), RKNN_ERR_PARAM_INVALID);
  in.pass_through = 1;
  EXPECT_EQ(rknn_set_io_mem(ctx(), mem, &in), RKNN_SUCC);
  rknn_tensor_attr out = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0);
  out.type = RKNN_TENSOR_FLOAT32;
  out.fmt = RKNN_TENSOR_NCHW;
  EXPECT_EQ(rknn_set_io_mem(ctx(), mem, &out), RKNN_ERR_PARAM_INVALID);
  out.type = RKNN_TENSOR_INT8;  // int8, but NCHW: not a native layout
  EXPECT_EQ(rknn_set_io_mem(ctx(), mem, &out), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_destroy_mem(ctx(), mem), RKNN_SUCC);
}

TEST(MiniRuntime, FloatModelsAreRefusedAsTheNpuRunsInt8) {
  rknn_context ctx = 0;
  EXPECT_EQ(InitFromBytes(&ctx, ConvReluPoolModelFor("rv1106")), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, 0u);
}

TEST(MiniRuntime, OtherPlatformsModelsAreTargetPlatformUnmatch) {
  for (const char* platform : {"rk3588", "rk3566"}) {
    rknn_context ctx = 0;
    EXPECT_EQ(InitFromBytes(&ctx, npurt::testing::ConvReluPoolInt8Model(platform)), RKNN_ERR_TARGET_PLATFORM_UNMATCH)
        << platform;
    EXPECT_EQ(ctx, 0u);
  }
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, npurt::testing::ConvReluPoolInt8Model("rv1103")), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  // Nor does the board's librknnmrt read a model buffer in place.
  EXPECT_EQ(InitFromBytes(&ctx, Rv1106Model(), RKNN_FLAG_MODEL_BUFFER_ZERO_COPY), RKNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace apitest
