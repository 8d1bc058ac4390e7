// Threads: contexts run concurrently and independently; calls on one context
// serialize (no crash, no torn results); destroying a context while another
// thread uses it is reported as RKNN_ERR_CTX_INVALID, never a crash.
#include <atomic>
#include <thread>

#include "api_test_util.h"

namespace apitest {
namespace {

constexpr int kIterations = 200;

TEST(ConcurrencyTest, TwoContextsInTwoThreadsGiveCorrectResults) {
  rknn_context a = 0, b = 0;
  ASSERT_EQ(InitFromBytes(&a, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(rknn_dup_context(&a, &b), RKNN_SUCC);
  std::atomic<int> failures{0};
  std::atomic<bool> go{false};
  auto worker = [&](rknn_context ctx, uint32_t seed_base) {
    while (!go.load()) std::this_thread::yield();
    for (int i = 0; i < kIterations; ++i) {
      const uint32_t seed = seed_base + static_cast<uint32_t>(i % 4);
      std::vector<float> y, z;
      if (RunOnce(ctx, seed, &y, &z) != RKNN_SUCC || !OutputsMatch(y, z, seed)) ++failures;
    }
  };
  std::thread t1(worker, a, 0u);
  std::thread t2(worker, b, 8u);
  go = true;
  t1.join();
  t2.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
}

TEST(ConcurrencyTest, FourIndependentInitsInFourThreads) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      rknn_context ctx = 0;
      if (InitFromBytes(&ctx, ConvReluPoolModel()) != RKNN_SUCC) {
        ++failures;
        return;
      }
      for (int i = 0; i < kIterations / 2; ++i) {
        std::vector<float> y, z;
        if (RunOnce(ctx, t * 3, &y, &z) != RKNN_SUCC || !OutputsMatch(y, z, t * 3)) ++failures;
      }
      if (rknn_destroy(ctx) != RKNN_SUCC) ++failures;
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ConcurrencyTest, OneContextHammeredFromTwoThreads) {
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  // Both threads feed the same data, so whatever the interleaving, every
  // successful get must see the oracle's values (no torn or stale state).
  const uint32_t seed = 3;
  std::atomic<int> failures{0};
  std::atomic<bool> go{false};
  auto runner = [&] {
    while (!go.load()) std::this_thread::yield();
    for (int i = 0; i < kIterations; ++i) {
      std::vector<float> y, z;
      if (RunOnce(ctx.get(), seed, &y, &z) != RKNN_SUCC || !OutputsMatch(y, z, seed)) ++failures;
    }
  };
  auto querier = [&] {
    while (!go.load()) std::this_thread::yield();
    for (int i = 0; i < kIterations; ++i) {
      rknn_tensor_attr attr;
      std::memset(&attr, 0, sizeof(attr));
      attr.index = static_cast<uint32_t>(i % 2);
      if (rknn_query(ctx.get(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, &attr, sizeof(attr)) != RKNN_SUCC ||
          attr.fmt != RKNN_TENSOR_NC1HWC2) {
        ++failures;
      }
      rknn_perf_run perf;
      const int r = rknn_query(ctx.get(), RKNN_QUERY_PERF_RUN, &perf, sizeof(perf));
      if (r != RKNN_SUCC && r != RKNN_ERR_FAIL) ++failures;  // FAIL only before the first run
      if (SetDefaultInput(ctx.get(), seed) != RKNN_SUCC) ++failures;
      rknn_output out[2];
      std::memset(out, 0, sizeof(out));
      out[0].index = 1;
      out[0].want_float = 1;
      out[1].index = 0;
      const int g = rknn_outputs_get(ctx.get(), 2, out, nullptr);
      if (g == RKNN_SUCC) {
        const ConvReluPoolExpected e = Oracle(seed);
        if (!AllNear(static_cast<float*>(out[0].buf), e.z, "z")) ++failures;
        if (!AllNear(DecodeHalves(out[1].buf, 32).data(), e.y, "y")) ++failures;
        if (rknn_outputs_release(ctx.get(), 2, out) != RKNN_SUCC) ++failures;
      } else if (g != RKNN_ERR_FAIL) {
        ++failures;
      }
    }
  };
  std::thread t1(runner), t2(runner), t3(querier);
  go = true;
  t1.join();
  t2.join();
  t3.join();
  EXPECT_EQ(failures.load(), 0);
}

// inputs_set + run + outputs_get into caller buffers (no runtime-owned memory
// that a concurrent rknn_destroy could free while this thread reads it).
int RunPrealloc(rknn_context ctx, uint32_t seed, std::vector<float>* y, std::vector<float>* z) {
  int r = SetDefaultInput(ctx, seed);
  if (r != RKNN_SUCC) return r;
  r = rknn_run(ctx, nullptr);
  if (r != RKNN_SUCC) return r;
  y->assign(kYC * kH * kW, 0.0f);
  z->assign(kC, 0.0f);
  rknn_output out[2];
  std::memset(out, 0, sizeof(out));
  out[0].index = 0;
  out[0].want_float = 1;
  out[0].is_prealloc = 1;
  out[0].buf = y->data();
  out[0].size = static_cast<uint32_t>(y->size() * sizeof(float));
  out[1].index = 1;
  out[1].want_float = 1;
  out[1].is_prealloc = 1;
  out[1].buf = z->data();
  out[1].size = static_cast<uint32_t>(z->size() * sizeof(float));
  return rknn_outputs_get(ctx, 2, out, nullptr);
}

TEST(ConcurrencyTest, DestroyWhileAnotherThreadCalls) {
  for (int round = 0; round < 10; ++round) {
    rknn_context ctx = 0;
    ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
    std::atomic<int> bad_codes{0};
    std::atomic<int> successes{0};
    std::atomic<int> finished{0};
    auto user = [&] {
      for (int i = 0; i < 100000; ++i) {
        std::vector<float> y, z;
        const int r = RunPrealloc(ctx, 0, &y, &z);
        if (r == RKNN_SUCC) {
          if (!OutputsMatch(y, z, 0)) ++bad_codes;
          ++successes;
        } else if (r == RKNN_ERR_CTX_INVALID) {
          break;  // destroyed under us: the only acceptable failure
        } else {
          ++bad_codes;
          break;
        }
      }
      ++finished;
    };
    std::thread t1(user), t2(user);
    while (successes.load() < 5 && finished.load() == 0) std::this_thread::yield();
    EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
    t1.join();
    t2.join();
    EXPECT_EQ(bad_codes.load(), 0) << "round " << round;
    EXPECT_GE(successes.load(), 5) << "round " << round;
    EXPECT_EQ(rknn_destroy(ctx), RKNN_ERR_CTX_INVALID);
  }
}

TEST(ConcurrencyTest, ParallelDupAndDestroy) {
  ScopedContext orig(ConvReluPoolModel());
  ASSERT_EQ(orig.init_result(), RKNN_SUCC);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        rknn_context in = orig.get(), dup = 0;
        if (rknn_dup_context(&in, &dup) != RKNN_SUCC) {
          ++failures;
          continue;
        }
        std::vector<float> y, z;
        const uint32_t seed = static_cast<uint32_t>(t + i);
        if (RunOnce(dup, seed, &y, &z) != RKNN_SUCC || !OutputsMatch(y, z, seed)) ++failures;
        if (rknn_destroy(dup) != RKNN_SUCC) ++failures;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace apitest
