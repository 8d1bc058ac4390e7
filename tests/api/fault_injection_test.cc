// Job faults on purpose (NPURT_FAULT) and the job timeout (NPURT_JOB_TIMEOUT_MS):
// the right codes and log lines, and a context that stays usable. Both
// settings are read once per process, so ctest runs these suites alone with
// the environment set (api.fault_injection, api.job_timeout).
#include "api_test_util.h"

namespace apitest {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

TEST(FaultInjection, EveryNthRunFailsAndTheNextOneWorks) {
  ASSERT_EQ(Env("NPURT_FAULT"), "fail:3,timeout:5") << "run by ctest api.fault_injection";
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  for (uint32_t run = 1; run <= 16; ++run) {
    const int want = run % 3 == 0 ? RKNN_ERR_FAIL : run % 5 == 0 ? RKNN_ERR_TIMEOUT : RKNN_SUCC;
    ASSERT_EQ(SetDefaultInput(ctx.get(), run % 4), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx.get(), nullptr), want) << "run " << run;
    std::vector<float> y, z;
    if (want != RKNN_SUCC) {
      // The failed run's outputs are not handed out (the previous run's are gone too).
      EXPECT_EQ(GetFloatOutputs(ctx.get(), &y, &z), RKNN_ERR_FAIL);
      continue;
    }
    ASSERT_EQ(GetFloatOutputs(ctx.get(), &y, &z), RKNN_SUCC);
    EXPECT_TRUE(AllNear(y.data(), Oracle(run % 4).y, "y")) << "run " << run;
  }
}

TEST(FaultInjection, AsyncFramesReportTheirFaultAtTheNextRun) {
  ASSERT_EQ(Env("NPURT_FAULT"), "fail:3,timeout:5") << "run by ctest api.fault_injection";
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(ctx.get(), 1), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 1
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 2
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 3 starts, and fails on the worker
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);     // ... reported here; no frame started
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 4
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 5 times out
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_TIMEOUT);  // ... reported here
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 6 fails (a multiple of 3)
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 7
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);         // job 8; job 7's outputs are "previous"
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.want_float = 1;
  rknn_output_extend extend;
  ASSERT_EQ(rknn_outputs_get(ctx.get(), 1, &out, &extend), RKNN_SUCC);
  EXPECT_EQ(extend.frame_id, 7u);  // frames are the runs that started; failed ones never become "previous"
  EXPECT_TRUE(AllNear(static_cast<const float*>(out.buf), Oracle(1).y, "y"));
  EXPECT_EQ(rknn_outputs_release(ctx.get(), 1, &out), RKNN_SUCC);
}

TEST(JobTimeout, ARunPastTheTimeoutStopsWithTimeout) {
  ASSERT_EQ(Env("NPURT_JOB_TIMEOUT_MS"), "0.000001") << "run by ctest api.job_timeout";
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(ctx.get()), RKNN_SUCC);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_TIMEOUT);
  // No run finished: there are no outputs to get, and the context is still a context.
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  EXPECT_EQ(rknn_outputs_get(ctx.get(), 1, &out, nullptr), RKNN_ERR_FAIL);
  rknn_input_output_num num;
  EXPECT_EQ(rknn_query(ctx.get(), RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
