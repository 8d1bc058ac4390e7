// RKNN_FLAG_ASYNC_MASK: rknn_run starts the frame and returns; rknn_outputs_get
// returns the previous frame's outputs with its frame_id (zeros and frame 0
// before any frame finished), so the application post-processes frame N-1
// while frame N runs. No frame's outputs are lost or mixed with another's.
#include <thread>

#include "api_test_util.h"

namespace apitest {
namespace {

struct Outputs {
  std::vector<float> y, z;
  uint64_t frame_id = ~uint64_t{0};
};

int GetOutputs(rknn_context ctx, Outputs* out) { return GetFloatOutputs(ctx, &out->y, &out->z, &out->frame_id); }

TEST(AsyncTest, OutputsAreThePreviousFramesWithTheirIds) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  for (uint64_t frame = 1; frame <= 12; ++frame) {
    const uint32_t seed = static_cast<uint32_t>(frame % 7);  // frame N runs pattern N % 7
    ASSERT_EQ(SetDefaultInput(ctx.get(), seed), RKNN_SUCC);
    rknn_run_extend run;
    std::memset(&run, 0, sizeof(run));
    ASSERT_EQ(rknn_run(ctx.get(), &run), RKNN_SUCC);
    EXPECT_EQ(run.frame_id, frame);
    Outputs out;
    ASSERT_EQ(GetOutputs(ctx.get(), &out), RKNN_SUCC);
    EXPECT_EQ(out.frame_id, frame - 1);
    if (frame == 1) {
      // Nothing has finished yet: zeros, frame 0 (the vendor's first result is undefined).
      EXPECT_TRUE(std::all_of(out.y.begin(), out.y.end(), [](float v) { return v == 0.0f; }));
      EXPECT_TRUE(std::all_of(out.z.begin(), out.z.end(), [](float v) { return v == 0.0f; }));
      continue;
    }
    const uint32_t previous_seed = static_cast<uint32_t>((frame - 1) % 7);
    EXPECT_TRUE(AllNear(out.y.data(), Oracle(previous_seed).y, "y")) << "frame " << frame;
    EXPECT_TRUE(AllNear(out.z.data(), Oracle(previous_seed).z, "z")) << "frame " << frame;
    // Asking again gives the same frame: the one in flight is not mixed in.
    Outputs again;
    ASSERT_EQ(GetOutputs(ctx.get(), &again), RKNN_SUCC);
    EXPECT_EQ(again.frame_id, out.frame_id);
    EXPECT_EQ(again.y, out.y);
  }
}

TEST(AsyncTest, SameResultsAsSynchronousRuns) {
  ScopedContext async(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ScopedContext sync(ConvReluPoolModel());
  ASSERT_EQ(async.init_result(), RKNN_SUCC);
  ASSERT_EQ(sync.init_result(), RKNN_SUCC);
  std::vector<float> want_y, want_z;
  ASSERT_EQ(RunOnce(sync.get(), 4, &want_y, &want_z), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(async.get(), 4), RKNN_SUCC);
  ASSERT_EQ(rknn_run(async.get(), nullptr), RKNN_SUCC);
  ASSERT_EQ(rknn_run(async.get(), nullptr), RKNN_SUCC);  // the same input again: frame 1 becomes "previous"
  Outputs out;
  ASSERT_EQ(GetOutputs(async.get(), &out), RKNN_SUCC);
  EXPECT_EQ(out.frame_id, 1u);
  EXPECT_EQ(out.y, want_y);
  EXPECT_EQ(out.z, want_z);
  rknn_perf_run perf;
  EXPECT_EQ(rknn_query(async.get(), RKNN_QUERY_PERF_RUN, &perf, sizeof(perf)), RKNN_SUCC);
}

TEST(AsyncTest, BoundOutputMemoryHoldsThePreviousFrameToo) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  rknn_tensor_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.index = 0;
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof(attr)), RKNN_SUCC);
  attr.type = RKNN_TENSOR_FLOAT32;
  rknn_tensor_mem* y = rknn_create_mem(ctx.get(), attr.n_elems * sizeof(float));
  ASSERT_NE(y, nullptr);
  ASSERT_EQ(rknn_set_io_mem(ctx.get(), y, &attr), RKNN_SUCC);
  for (uint32_t frame = 1; frame <= 6; ++frame) {
    ASSERT_EQ(SetDefaultInput(ctx.get(), frame), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx.get(), nullptr), RKNN_SUCC);
    // Written by this rknn_run when frame - 1 became "the previous frame"; the frame in flight leaves it alone.
    const float* got = static_cast<const float*>(y->virt_addr);
    if (frame == 1) {
      EXPECT_TRUE(std::all_of(got, got + attr.n_elems, [](float v) { return v == 0.0f; }));
    } else {
      EXPECT_TRUE(AllNear(got, Oracle(frame - 1).y, "y")) << "frame " << frame;
    }
  }
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), y), RKNN_SUCC);
}

TEST(AsyncTest, DestroyWithAFrameInFlight) {
  for (int i = 0; i < 20; ++i) {
    rknn_context ctx = 0;
    ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK), RKNN_SUCC);
    ASSERT_EQ(SetDefaultInput(ctx, 1), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
    EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);  // waits for the frame, stops the worker
  }
}

TEST(AsyncTest, OutputsGetBeforeAnyRunIsAnError) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  Outputs out;
  EXPECT_EQ(GetOutputs(ctx.get(), &out), RKNN_ERR_FAIL);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_INPUT_INVALID);  // checked before the frame starts
}

TEST(AsyncTest, PipelinedThreadsEachWithItsContext) {
  // Two threads, each an async context of a duplicated model, each checking every frame it gets back.
  ScopedContext first(ConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(first.init_result(), RKNN_SUCC);
  rknn_context src = first.get(), second = 0;
  ASSERT_EQ(rknn_dup_context(&src, &second), RKNN_SUCC);
  auto pipeline = [](rknn_context ctx, uint32_t offset, int* failures) {
    for (uint32_t frame = 1; frame <= 30; ++frame) {
      if (SetDefaultInput(ctx, (frame + offset) % 9) != RKNN_SUCC || rknn_run(ctx, nullptr) != RKNN_SUCC) {
        ++*failures;
        return;
      }
      Outputs out;
      if (GetOutputs(ctx, &out) != RKNN_SUCC || out.frame_id != frame - 1) {
        ++*failures;
        continue;
      }
      if (frame > 1 && !AllNear(out.y.data(), Oracle((frame - 1 + offset) % 9).y, "y")) ++*failures;
    }
  };
  int failures_a = 0, failures_b = 0;
  std::thread a(pipeline, first.get(), 0u, &failures_a);
  std::thread b(pipeline, second, 4u, &failures_b);
  a.join();
  b.join();
  EXPECT_EQ(failures_a, 0);
  EXPECT_EQ(failures_b, 0);
  EXPECT_EQ(rknn_destroy(second), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
