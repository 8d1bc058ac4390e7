// rknn_query: every command, the attrs it reports (normal, native NC1HWC2,
// native NHWC, per platform), struct sizes, indices, and the perf/memory/
// version/custom-string queries.
#include <chrono>

#include "api_test_util.h"

namespace apitest {
namespace {

rknn_tensor_attr QueryAttrOrDie(rknn_context ctx, rknn_query_cmd cmd, uint32_t index) {
  rknn_tensor_attr attr;
  std::memset(&attr, 0xA5, sizeof(attr));  // the runtime must fill every field, not rely on a memset
  attr.index = index;
  EXPECT_EQ(rknn_query(ctx, cmd, &attr, sizeof(attr)), RKNN_SUCC) << "cmd " << cmd << " index " << index;
  return attr;
}

std::vector<uint32_t> Dims(const rknn_tensor_attr& a) {
  return std::vector<uint32_t>(a.dims, a.dims + std::min<uint32_t>(a.n_dims, RKNN_MAX_DIMS));
}

// Fields every attr must get right regardless of the view.
void ExpectWellFormed(const rknn_tensor_attr& a, const char* name) {
  EXPECT_LE(a.n_dims, static_cast<uint32_t>(RKNN_MAX_DIMS));
  for (uint32_t i = a.n_dims; i < RKNN_MAX_DIMS; ++i) EXPECT_EQ(a.dims[i], 0u) << "dims[" << i << "] past n_dims";
  EXPECT_NE(std::memchr(a.name, '\0', sizeof(a.name)), nullptr) << "name is not NUL-terminated";
  EXPECT_STREQ(a.name, name);
  EXPECT_EQ(a.qnt_type, RKNN_TENSOR_QNT_NONE);
  EXPECT_EQ(a.zp, 0);
  EXPECT_EQ(a.fl, 0);
  EXPECT_EQ(a.pass_through, 0);
  EXPECT_EQ(a.h_stride, 0u);
}

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{ConvReluPoolModel()};
};

TEST_F(QueryTest, InOutNum) {
  rknn_input_output_num num;
  std::memset(&num, 0xff, sizeof(num));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_SUCC);
  EXPECT_EQ(num.n_input, 1u);
  EXPECT_EQ(num.n_output, 2u);

  ScopedContext two(AddMulModel());
  ASSERT_EQ(two.init_result(), RKNN_SUCC);
  ASSERT_EQ(rknn_query(two.get(), RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_SUCC);
  EXPECT_EQ(num.n_input, 2u);
  EXPECT_EQ(num.n_output, 2u);
}

TEST_F(QueryTest, InputAttrIsNhwcFp16ForThreeChannels) {
  const rknn_tensor_attr a = QueryAttrOrDie(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  ExpectWellFormed(a, "x");
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(a.n_dims, 4u);
  EXPECT_EQ(Dims(a), (std::vector<uint32_t>{1, 4, 4, 3}));  // NHWC
  EXPECT_EQ(a.fmt, RKNN_TENSOR_NHWC);
  EXPECT_EQ(a.type, RKNN_TENSOR_FLOAT16);  // float models are FP16 on the board
  EXPECT_EQ(a.n_elems, 48u);
  EXPECT_EQ(a.size, 96u);
  EXPECT_EQ(a.w_stride, 4u);
  EXPECT_EQ(a.size_with_stride, 96u);
  EXPECT_FLOAT_EQ(a.scale, 1.0f);
}

TEST_F(QueryTest, OutputAttrsAreNchwFp16) {
  const rknn_tensor_attr y = QueryAttrOrDie(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0);
  ExpectWellFormed(y, "y");
  EXPECT_EQ(y.index, 0u);
  EXPECT_EQ(Dims(y), (std::vector<uint32_t>{1, 2, 4, 4}));
  EXPECT_EQ(y.fmt, RKNN_TENSOR_NCHW);
  EXPECT_EQ(y.type, RKNN_TENSOR_FLOAT16);
  EXPECT_EQ(y.n_elems, 32u);
  EXPECT_EQ(y.size, 64u);
  EXPECT_EQ(y.w_stride, 0u);  // the vendor reports 0 ("same as width") for NCHW outputs
  EXPECT_EQ(y.size_with_stride, 64u);

  const rknn_tensor_attr z = QueryAttrOrDie(ctx(), RKNN_QUERY_OUTPUT_ATTR, 1);
  ExpectWellFormed(z, "z");
  EXPECT_EQ(z.index, 1u);
  EXPECT_EQ(Dims(z), (std::vector<uint32_t>{1, 3, 1, 1}));
  EXPECT_EQ(z.fmt, RKNN_TENSOR_NCHW);
  EXPECT_EQ(z.type, RKNN_TENSOR_FLOAT16);
  EXPECT_EQ(z.n_elems, 3u);
  EXPECT_EQ(z.size, 6u);
  EXPECT_EQ(z.size_with_stride, 6u);
}

TEST_F(QueryTest, NativeOutputAttrIsNc1hwc2OnRk3588) {
  // FP16 on RK3588: C2 = 8, width aligned to 16.
  const rknn_tensor_attr y = QueryAttrOrDie(ctx(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, 0);
  ExpectWellFormed(y, "y");
  EXPECT_EQ(y.fmt, RKNN_TENSOR_NC1HWC2);
  EXPECT_EQ(y.type, RKNN_TENSOR_FLOAT16);
  EXPECT_EQ(y.n_dims, 5u);
  EXPECT_EQ(Dims(y), (std::vector<uint32_t>{1, 1, 4, 4, 8}));  // [N, C1, H, W, C2]
  EXPECT_EQ(y.n_elems, 32u);
  EXPECT_EQ(y.size, 64u);
  EXPECT_EQ(y.w_stride, 16u);
  EXPECT_EQ(y.size_with_stride, 1u * 1 * 4 * 16 * 8 * 2);  // C1 * H * align16(W) * C2 * sizeof(fp16)

  const rknn_tensor_attr z = QueryAttrOrDie(ctx(), RKNN_QUERY_NATIVE_NC1HWC2_OUTPUT_ATTR, 1);
  ExpectWellFormed(z, "z");
  EXPECT_EQ(z.fmt, RKNN_TENSOR_NC1HWC2);
  EXPECT_EQ(Dims(z), (std::vector<uint32_t>{1, 1, 1, 1, 8}));
  EXPECT_EQ(z.w_stride, 16u);
  EXPECT_EQ(z.size_with_stride, 1u * 1 * 1 * 16 * 8 * 2);
}

TEST_F(QueryTest, NativeInputAttrIsNhwcWithAlignedWidth) {
  const rknn_tensor_attr a = QueryAttrOrDie(ctx(), RKNN_QUERY_NATIVE_INPUT_ATTR, 0);
  ExpectWellFormed(a, "x");
  EXPECT_EQ(a.fmt, RKNN_TENSOR_NHWC);  // 3 channels: native input stays NHWC
  EXPECT_EQ(a.type, RKNN_TENSOR_FLOAT16);
  EXPECT_EQ(Dims(a), (std::vector<uint32_t>{1, 4, 4, 3}));
  EXPECT_EQ(a.size, 96u);
  EXPECT_EQ(a.w_stride, 16u);
  EXPECT_EQ(a.size_with_stride, 1u * 4 * 16 * 3 * 2);

  const rknn_tensor_attr b = QueryAttrOrDie(ctx(), RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR, 0);
  EXPECT_EQ(b.fmt, RKNN_TENSOR_NHWC);
  EXPECT_EQ(Dims(b), (std::vector<uint32_t>{1, 4, 4, 3}));
  EXPECT_EQ(b.w_stride, 16u);
  EXPECT_EQ(b.size_with_stride, 384u);
}

TEST_F(QueryTest, NativeNhwcOutputAttr) {
  const rknn_tensor_attr y = QueryAttrOrDie(ctx(), RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR, 0);
  ExpectWellFormed(y, "y");
  EXPECT_EQ(y.fmt, RKNN_TENSOR_NHWC);
  EXPECT_EQ(y.type, RKNN_TENSOR_FLOAT16);
  EXPECT_EQ(Dims(y), (std::vector<uint32_t>{1, 4, 4, 2}));
  EXPECT_EQ(y.n_elems, 32u);
  EXPECT_EQ(y.size, 64u);
  EXPECT_GE(y.size_with_stride, y.size);
}

TEST_F(QueryTest, CurrentAttrsEqualStaticAttrs) {
  const std::pair<rknn_query_cmd, rknn_query_cmd> pairs[] = {
      {RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_CURRENT_INPUT_ATTR},
      {RKNN_QUERY_OUTPUT_ATTR, RKNN_QUERY_CURRENT_OUTPUT_ATTR},
      {RKNN_QUERY_NATIVE_INPUT_ATTR, RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR},
      {RKNN_QUERY_NATIVE_OUTPUT_ATTR, RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR},
  };
  for (const auto& p : pairs) {
    const rknn_tensor_attr a = QueryAttrOrDie(ctx(), p.first, 0);
    const rknn_tensor_attr b = QueryAttrOrDie(ctx(), p.second, 0);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0) << "cmd " << p.first << " vs " << p.second;
  }
}

TEST(QueryPlatformTest, NativeOutputAttrOnRk3566UsesC2Of4AndAlign8) {
  ScopedContext ctx(ConvReluPoolModelFor("rk3566"));
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  const rknn_tensor_attr y = QueryAttrOrDie(ctx.get(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, 0);
  EXPECT_EQ(y.fmt, RKNN_TENSOR_NC1HWC2);
  EXPECT_EQ(Dims(y), (std::vector<uint32_t>{1, 1, 4, 4, 4}));
  EXPECT_EQ(y.w_stride, 8u);
  EXPECT_EQ(y.size_with_stride, 1u * 1 * 4 * 8 * 4 * 2);
  const rknn_tensor_attr z = QueryAttrOrDie(ctx.get(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, 1);
  EXPECT_EQ(Dims(z), (std::vector<uint32_t>{1, 1, 1, 1, 4}));
  EXPECT_EQ(z.size_with_stride, 1u * 1 * 1 * 8 * 4 * 2);
  const rknn_tensor_attr x = QueryAttrOrDie(ctx.get(), RKNN_QUERY_NATIVE_INPUT_ATTR, 0);
  EXPECT_EQ(x.w_stride, 8u);
  EXPECT_EQ(x.size_with_stride, 1u * 4 * 8 * 3 * 2);
  // The normal view does not depend on the platform.
  const rknn_tensor_attr n = QueryAttrOrDie(ctx.get(), RKNN_QUERY_OUTPUT_ATTR, 0);
  EXPECT_EQ(Dims(n), (std::vector<uint32_t>{1, 2, 4, 4}));
  EXPECT_EQ(n.size_with_stride, 64u);
}

TEST(QueryPlatformTest, TwoInputModelAttrsAreUndefinedFormat) {
  ScopedContext ctx(AddMulModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  const char* in_names[] = {"a", "b"};
  const char* out_names[] = {"sum", "prod"};
  for (uint32_t i = 0; i < 2; ++i) {
    const rknn_tensor_attr in = QueryAttrOrDie(ctx.get(), RKNN_QUERY_INPUT_ATTR, i);
    ExpectWellFormed(in, in_names[i]);
    EXPECT_EQ(in.index, i);
    EXPECT_EQ(Dims(in), (std::vector<uint32_t>{2, 3}));
    EXPECT_EQ(in.fmt, RKNN_TENSOR_UNDEFINED);  // non-4-D: model layout
    EXPECT_EQ(in.type, RKNN_TENSOR_FLOAT16);
    EXPECT_EQ(in.n_elems, 6u);
    EXPECT_EQ(in.size, 12u);
    const rknn_tensor_attr out = QueryAttrOrDie(ctx.get(), RKNN_QUERY_OUTPUT_ATTR, i);
    ExpectWellFormed(out, out_names[i]);
    EXPECT_EQ(Dims(out), (std::vector<uint32_t>{2, 3}));
    EXPECT_EQ(out.fmt, RKNN_TENSOR_UNDEFINED);
    const rknn_tensor_attr native = QueryAttrOrDie(ctx.get(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, i);
    EXPECT_EQ(native.fmt, RKNN_TENSOR_UNDEFINED);
    EXPECT_EQ(Dims(native), (std::vector<uint32_t>{2, 3}));
  }
}

TEST_F(QueryTest, BadIndexIsParamInvalid) {
  const std::pair<rknn_query_cmd, uint32_t> cases[] = {
      {RKNN_QUERY_INPUT_ATTR, 1},          {RKNN_QUERY_INPUT_ATTR, 0xffffffffu},
      {RKNN_QUERY_OUTPUT_ATTR, 2},         {RKNN_QUERY_NATIVE_INPUT_ATTR, 1},
      {RKNN_QUERY_NATIVE_OUTPUT_ATTR, 2},  {RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR, 7},
      {RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR, 2}, {RKNN_QUERY_CURRENT_OUTPUT_ATTR, 2},
  };
  for (const auto& c : cases) {
    rknn_tensor_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.index = c.second;
    EXPECT_EQ(rknn_query(ctx(), c.first, &attr, sizeof(attr)), RKNN_ERR_PARAM_INVALID)
        << "cmd " << c.first << " index " << c.second;
  }
}

TEST_F(QueryTest, WrongStructSizeIsParamInvalid) {
  union {
    rknn_input_output_num num;
    rknn_tensor_attr attr;
    rknn_perf_run perf_run;
    rknn_sdk_version sdk;
    rknn_mem_size mem;
    rknn_custom_string custom;
  } info;
  std::memset(&info, 0, sizeof(info));
  const std::pair<rknn_query_cmd, uint32_t> cases[] = {
      {RKNN_QUERY_IN_OUT_NUM, sizeof(rknn_input_output_num) - 1},
      {RKNN_QUERY_IN_OUT_NUM, 0},
      {RKNN_QUERY_INPUT_ATTR, sizeof(rknn_tensor_attr) - 1},
      {RKNN_QUERY_OUTPUT_ATTR, 4},
      {RKNN_QUERY_NATIVE_INPUT_ATTR, sizeof(rknn_tensor_attr) - 4},
      {RKNN_QUERY_NATIVE_OUTPUT_ATTR, 0},
      {RKNN_QUERY_SDK_VERSION, sizeof(rknn_sdk_version) - 1},
      {RKNN_QUERY_MEM_SIZE, sizeof(rknn_mem_size) - 8},
      {RKNN_QUERY_CUSTOM_STRING, sizeof(rknn_custom_string) - 1},
      {RKNN_QUERY_PERF_RUN, sizeof(rknn_perf_run) - 1},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(rknn_query(ctx(), c.first, &info, c.second), RKNN_ERR_PARAM_INVALID)
        << "cmd " << c.first << " size " << c.second;
  }
}

TEST_F(QueryTest, SmallStructSizeDoesNotWritePastIt) {
  // A too-small size must be rejected before anything is written.
  std::vector<uint8_t> buf(sizeof(rknn_tensor_attr), 0x77);
  reinterpret_cast<rknn_tensor_attr*>(buf.data())->index = 0;
  const std::vector<uint8_t> before = buf;
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_ATTR, buf.data(), 100), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(buf, before);
}

TEST_F(QueryTest, NullInfoIsParamInvalid) {
  const rknn_query_cmd cmds[] = {RKNN_QUERY_IN_OUT_NUM,  RKNN_QUERY_INPUT_ATTR,  RKNN_QUERY_OUTPUT_ATTR,
                                 RKNN_QUERY_SDK_VERSION, RKNN_QUERY_MEM_SIZE,    RKNN_QUERY_CUSTOM_STRING,
                                 RKNN_QUERY_PERF_RUN,    RKNN_QUERY_PERF_DETAIL, RKNN_QUERY_NATIVE_OUTPUT_ATTR};
  for (rknn_query_cmd cmd : cmds) {
    EXPECT_EQ(rknn_query(ctx(), cmd, nullptr, 1024), RKNN_ERR_PARAM_INVALID) << "cmd " << cmd;
  }
}

TEST_F(QueryTest, UnknownCommandIsParamInvalid) {
  uint8_t info[4096] = {};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_CMD_MAX, info, sizeof(info)), RKNN_ERR_PARAM_INVALID);
  // Other values inside the enum's value range (0..31), so the cast itself is defined C++.
  EXPECT_EQ(rknn_query(ctx(), static_cast<rknn_query_cmd>(19), info, sizeof(info)), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_query(ctx(), static_cast<rknn_query_cmd>(31), info, sizeof(info)), RKNN_ERR_PARAM_INVALID);
}

TEST_F(QueryTest, DynamicRangeOnStaticModelIsModelInvalid) {
  // What the board answers (RKNNLite probes this on every init).
  auto* range = new rknn_input_range();
  range->index = 0;
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, range, sizeof(*range)), RKNN_ERR_MODEL_INVALID);
  delete range;
}

// Answered for RV1106 / RV1103-class models only (tests/api/mini_runtime: what it answers).
TEST_F(QueryTest, DeviceMemInfoIsNotOnThisPlatformClass) {
  rknn_tensor_mem mem;
  std::memset(&mem, 0, sizeof(mem));
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_DEVICE_MEM_INFO, &mem, sizeof(mem)), RKNN_ERR_PARAM_INVALID);
}

TEST_F(QueryTest, SdkVersion) {
  rknn_sdk_version v;
  std::memset(&v, 0x41, sizeof(v));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_SDK_VERSION, &v, sizeof(v)), RKNN_SUCC);
  ASSERT_NE(std::memchr(v.api_version, '\0', sizeof(v.api_version)), nullptr);
  ASSERT_NE(std::memchr(v.drv_version, '\0', sizeof(v.drv_version)), nullptr);
  EXPECT_EQ(std::string(v.api_version).rfind("2.3.2", 0), 0u) << v.api_version;  // "2.3.2 (...)"
  EXPECT_GT(std::strlen(v.drv_version), 0u);
}

TEST_F(QueryTest, CustomString) {
  rknn_custom_string cs;
  std::memset(&cs, 0x41, sizeof(cs));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), RKNN_SUCC);
  EXPECT_STREQ(cs.string, kCustomString);

  ScopedContext none(AddMulModel());  // emitted without a custom string
  ASSERT_EQ(none.init_result(), RKNN_SUCC);
  std::memset(&cs, 0x41, sizeof(cs));
  ASSERT_EQ(rknn_query(none.get(), RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), RKNN_SUCC);
  EXPECT_STREQ(cs.string, "");
}

TEST(QueryCustomStringTest, LongCustomStringIsTruncatedAndTerminated) {
  const std::string long_string(3000, 'q');
  ScopedContext ctx(ConvReluPoolModelFor("rk3588", long_string));
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  rknn_custom_string cs;
  std::memset(&cs, 0x41, sizeof(cs));
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), RKNN_SUCC);
  EXPECT_EQ(cs.string[sizeof(cs.string) - 1], '\0');
  EXPECT_EQ(std::string(cs.string), long_string.substr(0, sizeof(cs.string) - 1));
}

TEST_F(QueryTest, MemSize) {
  rknn_mem_size mem;
  std::memset(&mem, 0xff, sizeof(mem));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem)), RKNN_SUCC);
  // conv.weight [2,3,3,3] + conv.bias [2] in float32.
  EXPECT_GE(mem.total_weight_size, (54u + 2u) * 4u);
  EXPECT_LT(mem.total_weight_size, ConvReluPoolModel().size());
  // Inputs (48 floats) and outputs (32 + 3 floats) are allocated on top of weights and internals.
  EXPECT_GE(mem.total_dma_allocated_size,
            static_cast<uint64_t>(mem.total_weight_size) + mem.total_internal_size + (48 + 32 + 3) * 2);
  EXPECT_EQ(mem.total_sram_size, 0u);
  EXPECT_EQ(mem.free_sram_size, 0u);
  for (uint32_t r : mem.reserved) EXPECT_EQ(r, 0u);
}

TEST_F(QueryTest, PerfRunBeforeRunFailsAndIsBoundedByWallTimeAfter) {
  rknn_perf_run perf{};
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_RUN, &perf, sizeof(perf)), RKNN_ERR_FAIL);
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  const auto wall_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  perf.run_duration = -12345;
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_RUN, &perf, sizeof(perf)), RKNN_SUCC);
  EXPECT_GE(perf.run_duration, 0);
  EXPECT_LE(perf.run_duration, wall_us + 1);
}

TEST_F(QueryTest, PerfDetailWithoutFlagFails) {
  rknn_perf_detail perf;
  std::memset(&perf, 0, sizeof(perf));
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)), RKNN_ERR_FAIL);
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)), RKNN_ERR_FAIL);
}

TEST(QueryPerfTest, PerfDetailWithFlagNamesEveryOp) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_COLLECT_PERF_MASK);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  rknn_perf_detail perf;
  std::memset(&perf, 0, sizeof(perf));
  EXPECT_EQ(rknn_query(ctx.get(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)), RKNN_ERR_FAIL)
      << "nothing to report before the first run";
  EXPECT_EQ(rknn_query(ctx.get(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf) - 1), RKNN_ERR_PARAM_INVALID);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx.get(), 0, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 0)) << "profiling must not change results";
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)), RKNN_SUCC);
  ASSERT_NE(perf.perf_data, nullptr);
  const std::string table(perf.perf_data);
  EXPECT_EQ(perf.data_len, table.size());
  for (const char* op : {"Conv", "Relu", "GlobalAveragePool"}) {
    EXPECT_NE(table.find(op), std::string::npos) << op << " missing from:\n" << table;
  }
  for (const char* node : {"conv", "relu", "gap"}) {  // node names from the fixture
    EXPECT_NE(table.find(node), std::string::npos) << node << " missing from:\n" << table;
  }
}

TEST(QueryInfoOnlyTest, CollectModelInfoOnlyAnswersMemSizeOnly) {
  ScopedContext full(ConvReluPoolModel());
  ASSERT_EQ(full.init_result(), RKNN_SUCC);
  rknn_mem_size want;
  ASSERT_EQ(rknn_query(full.get(), RKNN_QUERY_MEM_SIZE, &want, sizeof(want)), RKNN_SUCC);

  ScopedContext info(ConvReluPoolModel(), RKNN_FLAG_COLLECT_MODEL_INFO_ONLY);
  ASSERT_EQ(info.init_result(), RKNN_SUCC);
  rknn_mem_size got;
  std::memset(&got, 0xff, sizeof(got));
  ASSERT_EQ(rknn_query(info.get(), RKNN_QUERY_MEM_SIZE, &got, sizeof(got)), RKNN_SUCC);
  EXPECT_EQ(got.total_weight_size, want.total_weight_size);
  EXPECT_EQ(got.total_internal_size, want.total_internal_size);
  EXPECT_EQ(got.total_dma_allocated_size, want.total_dma_allocated_size);

  rknn_input_output_num num;
  EXPECT_LT(rknn_query(info.get(), RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), 0);
  rknn_tensor_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  EXPECT_LT(rknn_query(info.get(), RKNN_QUERY_INPUT_ATTR, &attr, sizeof(attr)), 0);
  rknn_custom_string cs;
  EXPECT_LT(rknn_query(info.get(), RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), 0);

  // It cannot run.
  EXPECT_LT(SetDefaultInput(info.get()), 0);
  EXPECT_LT(rknn_run(info.get(), nullptr), 0);
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  EXPECT_LT(rknn_outputs_get(info.get(), 1, &out, nullptr), 0);
}

}  // namespace
}  // namespace apitest
