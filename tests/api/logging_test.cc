// Errors are logged by default (RKNN_LOG_LEVEL unset) as vendor-style lines
// "E RKNN: [hh:mm:ss.mmm] <reason>", and successful calls print nothing.
#include <regex>

#include "api_test_util.h"

namespace apitest {
namespace {

// Runs `fn`, which must return `code`, and checks that exactly the error lines
// it printed are well-formed and mention `word`.
template <typename Fn>
void ExpectLoggedError(Fn fn, int code, const std::string& word) {
  int ret = RKNN_SUCC;
  const std::string log = CaptureStderrOf([&] { ret = fn(); });
  EXPECT_EQ(ret, code);
  static const std::regex kLine(R"(E RKNN: \[\d\d:\d\d:\d\d\.\d\d\d\] .+)");
  bool found = false;
  std::string::size_type start = 0;
  while (start < log.size()) {
    std::string::size_type end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(start, end - start);
    if (line.find("E RKNN:") != std::string::npos) {
      EXPECT_TRUE(std::regex_search(line, kLine)) << "malformed line: " << line;
      if (line.find(word) != std::string::npos) found = true;
    }
    start = end + 1;
  }
  EXPECT_TRUE(found) << "no \"E RKNN:\" line mentioning \"" << word << "\" in:\n" << log;
}

TEST(LoggingTest, LogLevelIsUnset) { EXPECT_EQ(std::getenv("RKNN_LOG_LEVEL"), nullptr); }

TEST(LoggingTest, SuccessfulCallsPrintNothingByDefault) {
  const std::string log = CaptureStderrOf([] {
    rknn_context ctx = 0;
    ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
    std::vector<float> y, z;
    ASSERT_EQ(RunOnce(ctx, 0, &y, &z), RKNN_SUCC);
    rknn_sdk_version v;
    ASSERT_EQ(rknn_query(ctx, RKNN_QUERY_SDK_VERSION, &v, sizeof(v)), RKNN_SUCC);
    ASSERT_EQ(rknn_set_core_mask(ctx, RKNN_NPU_CORE_0_1), RKNN_SUCC);  // its warning is level 1
    ASSERT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  });
  EXPECT_EQ(log, "") << "info and warning lines must stay hidden at the default level";
}

TEST(LoggingTest, MissingModelFile) {
  const std::string path = ::testing::TempDir() + "npurt_no_such_model_file.rknn";
  ExpectLoggedError(
      [&] {
        rknn_context ctx = 0;
        return rknn_init(&ctx, const_cast<char*>(path.c_str()), 0, 0, nullptr);
      },
      RKNN_ERR_MODEL_INVALID, "npurt_no_such_model_file.rknn");
}

TEST(LoggingTest, VendorModel) {
  std::vector<uint8_t> vendor(1024, 0);
  std::memcpy(vendor.data(), "RKNN", 4);
  ExpectLoggedError(
      [&] {
        rknn_context ctx = 0;
        return InitFromBytes(&ctx, vendor);
      },
      RKNN_ERR_MODEL_INVALID, "vendor");
}

TEST(LoggingTest, CorruptModel) {
  std::vector<uint8_t> bad = ConvReluPoolModel();
  bad[bad.size() / 2] ^= 1;
  ExpectLoggedError(
      [&] {
        rknn_context ctx = 0;
        return InitFromBytes(&ctx, bad);
      },
      RKNN_ERR_MODEL_INVALID, "checksum");
}

TEST(LoggingTest, UnsupportedInitFlag) {
  ExpectLoggedError(
      [] {
        rknn_context ctx = 0;
        return InitFromBytes(&ctx, ConvReluPoolModel(), RKNN_FLAG_FENCE_IN_OUTSIDE);
      },
      RKNN_ERR_PARAM_INVALID, "not supported");
}

TEST(LoggingTest, ZeroAndDestroyedContext) {
  ExpectLoggedError([] { return rknn_run(0, nullptr); }, RKNN_ERR_CTX_INVALID, "context");
  const rknn_context dead = DestroyedContext();
  ExpectLoggedError([&] { return rknn_run(dead, nullptr); }, RKNN_ERR_CTX_INVALID, std::to_string(dead));
}

class ContextLoggingTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{ConvReluPoolModel()};
};

TEST_F(ContextLoggingTest, InputTooSmall) {
  std::vector<uint8_t> x = InputNhwcU8();
  rknn_input in = MakeInput(x.data(), 40, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  ExpectLoggedError([&] { return rknn_inputs_set(ctx(), 1, &in); }, RKNN_ERR_INPUT_INVALID, "40");
}

TEST_F(ContextLoggingTest, RunBeforeInputsSet) {
  ExpectLoggedError([&] { return rknn_run(ctx(), nullptr); }, RKNN_ERR_INPUT_INVALID, "rknn_inputs_set");
}

TEST_F(ContextLoggingTest, OutputsGetBeforeRun) {
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  ExpectLoggedError([&] { return rknn_outputs_get(ctx(), 1, &out, nullptr); }, RKNN_ERR_FAIL, "rknn_run");
}

TEST_F(ContextLoggingTest, PreallocTooSmall) {
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  float buf[4];
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.want_float = 1;
  out.is_prealloc = 1;
  out.buf = buf;
  out.size = sizeof(buf);
  ExpectLoggedError([&] { return rknn_outputs_get(ctx(), 1, &out, nullptr); }, RKNN_ERR_OUTPUT_INVALID, "128");
}

TEST_F(ContextLoggingTest, QueryIndexOutOfRange) {
  rknn_tensor_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.index = 5;
  ExpectLoggedError([&] { return rknn_query(ctx(), RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof(attr)); },
                    RKNN_ERR_PARAM_INVALID, "out of range");
}

TEST_F(ContextLoggingTest, PerfDetailWithoutFlag) {
  rknn_perf_detail perf;
  ExpectLoggedError([&] { return rknn_query(ctx(), RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)); }, RKNN_ERR_FAIL,
                    "RKNN_FLAG_COLLECT_PERF_MASK");
}

TEST_F(ContextLoggingTest, ForeignRelease) {
  int foreign = 0;
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.buf = &foreign;
  ExpectLoggedError([&] { return rknn_outputs_release(ctx(), 1, &out); }, RKNN_ERR_PARAM_INVALID,
                    "rknn_outputs_get");
}

}  // namespace
}  // namespace apitest
