// Every function of rknn_api.h against a context that is 0, was never handed
// out, or was destroyed (RKNN_ERR_CTX_INVALID, or NULL for the rknn_tensor_mem*
// functions), and against NULL pointer arguments on a valid context
// (RKNN_ERR_PARAM_INVALID). Each rejected call must also log an "E RKNN:" line.
//
// rknn_init has no context argument; its NULL-pointer cases are in
// init_destroy_test.cc.
#include <functional>

#include "api_test_util.h"

namespace apitest {
namespace {

struct IntCall {
  const char* name;
  std::function<int(rknn_context)> call;
};

struct MemCall {
  const char* name;
  std::function<rknn_tensor_mem*(rknn_context)> call;
};

// Arguments that are valid in themselves, so that only the context is wrong.
struct Args {
  Args() {
    std::memset(&attr, 0, sizeof(attr));
    std::memset(&mem, 0, sizeof(mem));
    std::memset(&num, 0, sizeof(num));
    std::memset(outputs, 0, sizeof(outputs));
    outputs[0].index = 0;
    outputs[0].want_float = 1;
    input = MakeInput(data, sizeof(data), RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
    std::memset(&run_ext, 0, sizeof(run_ext));
    mem.virt_addr = data;
    mem.size = sizeof(data);
    mem.fd = -1;
  }
  uint8_t data[4096] = {};
  rknn_tensor_attr attr;
  rknn_tensor_mem mem;
  rknn_input_output_num num;
  rknn_output outputs[1];
  rknn_input input;
  rknn_run_extend run_ext;
};

Args& A() {
  static Args* args = new Args();
  return *args;
}

// The 22 functions that take a context (rknn_init creates one).
std::vector<IntCall> IntFunctions() {
  return {
      {"rknn_dup_context",
       [](rknn_context c) {
         rknn_context in = c, out = 0;
         return rknn_dup_context(&in, &out);
       }},
      {"rknn_destroy", [](rknn_context c) { return rknn_destroy(c); }},
      {"rknn_query",
       [](rknn_context c) { return rknn_query(c, RKNN_QUERY_IN_OUT_NUM, &A().num, sizeof(A().num)); }},
      {"rknn_inputs_set", [](rknn_context c) { return rknn_inputs_set(c, 1, &A().input); }},
      {"rknn_set_batch_core_num", [](rknn_context c) { return rknn_set_batch_core_num(c, 1); }},
      {"rknn_set_core_mask", [](rknn_context c) { return rknn_set_core_mask(c, RKNN_NPU_CORE_AUTO); }},
      {"rknn_run", [](rknn_context c) { return rknn_run(c, &A().run_ext); }},
      {"rknn_wait", [](rknn_context c) { return rknn_wait(c, &A().run_ext); }},
      {"rknn_outputs_get", [](rknn_context c) { return rknn_outputs_get(c, 1, A().outputs, nullptr); }},
      {"rknn_outputs_release", [](rknn_context c) { return rknn_outputs_release(c, 1, A().outputs); }},
      {"rknn_destroy_mem", [](rknn_context c) { return rknn_destroy_mem(c, &A().mem); }},
      {"rknn_set_weight_mem", [](rknn_context c) { return rknn_set_weight_mem(c, &A().mem); }},
      {"rknn_set_internal_mem", [](rknn_context c) { return rknn_set_internal_mem(c, &A().mem); }},
      {"rknn_set_io_mem", [](rknn_context c) { return rknn_set_io_mem(c, &A().mem, &A().attr); }},
      {"rknn_set_input_shape", [](rknn_context c) { return rknn_set_input_shape(c, &A().attr); }},
      {"rknn_set_input_shapes", [](rknn_context c) { return rknn_set_input_shapes(c, 1, &A().attr); }},
      {"rknn_mem_sync", [](rknn_context c) { return rknn_mem_sync(c, &A().mem, RKNN_MEMORY_SYNC_TO_DEVICE); }},
  };
}

std::vector<MemCall> MemFunctions() {
  return {
      {"rknn_create_mem_from_phys",
       [](rknn_context c) { return rknn_create_mem_from_phys(c, 0x10000000u, A().data, sizeof(A().data)); }},
      {"rknn_create_mem_from_fd", [](rknn_context c) { return rknn_create_mem_from_fd(c, 0, A().data, 4096, 0); }},
      {"rknn_create_mem_from_mb_blk", [](rknn_context c) { return rknn_create_mem_from_mb_blk(c, A().data, 0); }},
      {"rknn_create_mem", [](rknn_context c) { return rknn_create_mem(c, 4096); }},
      {"rknn_create_mem2",
       [](rknn_context c) { return rknn_create_mem2(c, 4096, RKNN_FLAG_MEMORY_FLAGS_DEFAULT); }},
  };
}

TEST(ContextValidityTest, TableCoversAll23Functions) {
  EXPECT_EQ(IntFunctions().size() + MemFunctions().size() + 1 /* rknn_init */, 23u);
}

enum class BadContext { kZero, kUnknown, kDestroyed };

rknn_context Make(BadContext kind) {
  switch (kind) {
    case BadContext::kZero: return 0;
    case BadContext::kUnknown: return kUnknownContext;
    case BadContext::kDestroyed: return DestroyedContext();
  }
  return 0;
}

const char* KindName(BadContext kind) {
  switch (kind) {
    case BadContext::kZero: return "ZeroContext";
    case BadContext::kUnknown: return "UnknownContext";
    case BadContext::kDestroyed: return "DestroyedContext";
  }
  return "?";
}

class IntCtxInvalidTest : public ::testing::TestWithParam<std::tuple<BadContext, size_t>> {};

TEST_P(IntCtxInvalidTest, ReturnsCtxInvalidAndLogs) {
  const IntCall call = IntFunctions()[std::get<1>(GetParam())];
  const rknn_context ctx = Make(std::get<0>(GetParam()));
  int ret = RKNN_SUCC;
  const std::string log = CaptureStderrOf([&] { ret = call.call(ctx); });
  EXPECT_EQ(ret, RKNN_ERR_CTX_INVALID) << call.name << " on context " << ctx;
  EXPECT_NE(log.find("E RKNN:"), std::string::npos) << call.name << " logged: " << log;
  EXPECT_NE(log.find("context"), std::string::npos) << call.name << " logged: " << log;
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, IntCtxInvalidTest,
                         ::testing::Combine(::testing::Values(BadContext::kZero, BadContext::kUnknown,
                                                              BadContext::kDestroyed),
                                            ::testing::Range<size_t>(0, 17)),
                         [](const ::testing::TestParamInfo<std::tuple<BadContext, size_t>>& info) {
                           return std::string(KindName(std::get<0>(info.param))) + "_" +
                                  IntFunctions()[std::get<1>(info.param)].name;
                         });

class MemCtxInvalidTest : public ::testing::TestWithParam<std::tuple<BadContext, size_t>> {};

TEST_P(MemCtxInvalidTest, ReturnsNullAndLogs) {
  const MemCall call = MemFunctions()[std::get<1>(GetParam())];
  const rknn_context ctx = Make(std::get<0>(GetParam()));
  rknn_tensor_mem* mem = reinterpret_cast<rknn_tensor_mem*>(1);
  const std::string log = CaptureStderrOf([&] { mem = call.call(ctx); });
  EXPECT_EQ(mem, nullptr) << call.name << " on context " << ctx;
  EXPECT_NE(log.find("E RKNN:"), std::string::npos) << call.name << " logged: " << log;
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, MemCtxInvalidTest,
                         ::testing::Combine(::testing::Values(BadContext::kZero, BadContext::kUnknown,
                                                              BadContext::kDestroyed),
                                            ::testing::Range<size_t>(0, 5)),
                         [](const ::testing::TestParamInfo<std::tuple<BadContext, size_t>>& info) {
                           return std::string(KindName(std::get<0>(info.param))) + "_" +
                                  MemFunctions()[std::get<1>(info.param)].name;
                         });

TEST(ContextValidityTest, TableSizesMatchInstantiations) {
  EXPECT_EQ(IntFunctions().size(), 17u);
  EXPECT_EQ(MemFunctions().size(), 5u);
}

// ------------------------------------------------------------ NULL pointers

std::vector<IntCall> NullPointerCalls() {
  return {
      {"rknn_dup_context_in", [](rknn_context) {
         rknn_context out = 0;
         return rknn_dup_context(nullptr, &out);
       }},
      {"rknn_dup_context_out", [](rknn_context c) {
         rknn_context in = c;
         return rknn_dup_context(&in, nullptr);
       }},
      {"rknn_query", [](rknn_context c) { return rknn_query(c, RKNN_QUERY_IN_OUT_NUM, nullptr, 8); }},
      {"rknn_inputs_set", [](rknn_context c) { return rknn_inputs_set(c, 1, nullptr); }},
      {"rknn_inputs_set_buf", [](rknn_context c) {
         rknn_input in = MakeInput(nullptr, 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
         return rknn_inputs_set(c, 1, &in);
       }},
      {"rknn_outputs_get", [](rknn_context c) { return rknn_outputs_get(c, 1, nullptr, nullptr); }},
      {"rknn_outputs_release", [](rknn_context c) { return rknn_outputs_release(c, 1, nullptr); }},
      {"rknn_destroy_mem", [](rknn_context c) { return rknn_destroy_mem(c, nullptr); }},
      {"rknn_set_weight_mem", [](rknn_context c) { return rknn_set_weight_mem(c, nullptr); }},
      {"rknn_set_internal_mem", [](rknn_context c) { return rknn_set_internal_mem(c, nullptr); }},
      {"rknn_set_io_mem_mem", [](rknn_context c) { return rknn_set_io_mem(c, nullptr, &A().attr); }},
      {"rknn_set_io_mem_attr", [](rknn_context c) { return rknn_set_io_mem(c, &A().mem, nullptr); }},
      {"rknn_set_input_shape", [](rknn_context c) { return rknn_set_input_shape(c, nullptr); }},
      {"rknn_set_input_shapes", [](rknn_context c) { return rknn_set_input_shapes(c, 1, nullptr); }},
      {"rknn_mem_sync", [](rknn_context c) { return rknn_mem_sync(c, nullptr, RKNN_MEMORY_SYNC_BIDIRECTIONAL); }},
  };
}

class NullPointerTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  ScopedContext ctx_{ConvReluPoolModel()};
};

TEST_P(NullPointerTest, ReturnsParamInvalidAndLogs) {
  const IntCall call = NullPointerCalls()[GetParam()];
  int ret = RKNN_SUCC;
  const std::string log = CaptureStderrOf([&] { ret = call.call(ctx_.get()); });
  EXPECT_EQ(ret, RKNN_ERR_PARAM_INVALID) << call.name;
  EXPECT_NE(log.find("E RKNN:"), std::string::npos) << call.name << " logged: " << log;
  // The context is still usable afterwards.
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx_.get(), 1, &y, &z), RKNN_SUCC) << "after " << call.name;
  EXPECT_TRUE(OutputsMatch(y, z, 1));
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, NullPointerTest, ::testing::Range<size_t>(0, 15),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return std::string(NullPointerCalls()[info.param].name);
                         });

TEST(ContextValidityTest, NullPointerTableSize) { EXPECT_EQ(NullPointerCalls().size(), 15u); }

TEST(ContextValidityTest, MemFunctionsRejectNullPointersOnValidContext) {
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx.get(), 0x10000000u, nullptr, 4096), nullptr);
  EXPECT_EQ(rknn_create_mem_from_fd(ctx.get(), -1, nullptr, 4096, 0), nullptr);
  EXPECT_EQ(rknn_create_mem_from_mb_blk(ctx.get(), nullptr, 0), nullptr);
}

}  // namespace
}  // namespace apitest
