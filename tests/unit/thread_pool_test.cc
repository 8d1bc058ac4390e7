// ThreadPool: every index of a parallel loop (and every item of a balanced one)
// runs exactly once, slices are contiguous and run on distinct threads, concurrent callers (contexts on
// their own threads) all finish with their own results, and a pool's
// destructor joins its workers.
#include "runtime/core/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace npurt {
namespace {

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  ThreadPool pool;
  for (int64_t total : {0, 1, 2, 3, 7, 64, 1001}) {
    for (int threads : {1, 2, 3, 8}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(total));
      struct Arg {
        std::vector<std::atomic<int>>* hits;
      } arg{&hits};
      pool.ParallelFor(
          total, threads,
          [](void* a, int64_t begin, int64_t end) {
            auto* h = static_cast<Arg*>(a)->hits;
            for (int64_t i = begin; i < end; ++i) (*h)[static_cast<size_t>(i)].fetch_add(1);
          },
          &arg);
      for (int64_t i = 0; i < total; ++i) {
        EXPECT_EQ(hits[static_cast<size_t>(i)].load(), 1) << "index " << i << " of " << total << ", " << threads
                                                          << " threads";
      }
    }
  }
}

// The balanced loop: every item once, each worker index used by one thread at a time (its scratch is its
// own), items of unequal cost included (a slow first share: the others take what is left of it).
TEST(ThreadPool, BalancedItemsRunOnceWithEachWorkerOnOneThread) {
  for (int64_t items : {0, 1, 2, 5, 16, 301}) {
    for (int workers : {1, 2, 3, 8}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(items));
      std::vector<std::atomic<int>> busy(static_cast<size_t>(workers));
      std::atomic<int> overlaps{0}, bad_worker{0};
      ParallelForBalanced(items, workers, [&](int worker, int64_t i) {
        if (worker < 0 || worker >= workers) {
          bad_worker.fetch_add(1);
          return;
        }
        if (busy[static_cast<size_t>(worker)].fetch_add(1) != 0) overlaps.fetch_add(1);
        if (i < items / workers) std::this_thread::sleep_for(std::chrono::microseconds(50));  // the slow share
        hits[static_cast<size_t>(i)].fetch_add(1);
        busy[static_cast<size_t>(worker)].fetch_sub(1);
      });
      EXPECT_EQ(bad_worker.load(), 0);
      EXPECT_EQ(overlaps.load(), 0) << items << " items, " << workers << " workers";
      for (int64_t i = 0; i < items; ++i) {
        EXPECT_EQ(hits[static_cast<size_t>(i)].load(), 1) << "item " << i << " of " << items << ", " << workers << " workers";
      }
    }
  }
}

TEST(ThreadPool, SlicesAreContiguousAndRunOnDistinctThreads) {
  if (ThreadPool::HardwareThreads() < 2) GTEST_SKIP() << "one CPU: every region runs on the caller";
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> slices;
  std::set<std::thread::id> ids;
  ParallelFor(10, 2, [&](int64_t begin, int64_t end) {
    std::lock_guard<std::mutex> lock(mutex);
    slices.emplace_back(begin, end);
    ids.insert(std::this_thread::get_id());
  });
  ASSERT_EQ(slices.size(), 2u);
  std::sort(slices.begin(), slices.end());
  EXPECT_EQ(slices[0], std::make_pair(int64_t{0}, int64_t{5}));
  EXPECT_EQ(slices[1], std::make_pair(int64_t{5}, int64_t{10}));
  EXPECT_EQ(ids.size(), 2u) << "the second slice must run on a worker";
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 1u) << "the caller runs the first slice";
}

TEST(ThreadPool, OneThreadRunsInlineOnTheCaller) {
  std::set<std::thread::id> ids;
  int calls = 0;
  ParallelFor(100, 1, [&](int64_t begin, int64_t end) {
    ++calls;
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 100);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 1u);
}

// Contexts run on their own threads share the pool: a caller that finds it busy runs its
// loop alone; every caller's sums come out right.
TEST(ThreadPool, ConcurrentCallersEachGetTheirOwnResult) {
  constexpr int kCallers = 4, kRounds = 300;
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([c, &wrong] {
      for (int r = 0; r < kRounds; ++r) {
        const int64_t total = 50 + (c * 37 + r) % 200;
        std::vector<int64_t> out(static_cast<size_t>(total), 0);
        ParallelFor(total, 3, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) out[static_cast<size_t>(i)] = i * (c + 1);
        });
        for (int64_t i = 0; i < total; ++i) {
          if (out[static_cast<size_t>(i)] != i * (c + 1)) wrong.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Regions far apart in time: workers go to sleep in between and must wake for the next.
TEST(ThreadPool, WorkersWakeAfterSleeping) {
  ThreadPool pool;
  for (int round = 0; round < 3; ++round) {
    std::atomic<int64_t> sum{0};
    pool.ParallelFor(
        1000, 2,
        [](void* a, int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) static_cast<std::atomic<int64_t>*>(a)->fetch_add(i);
        },
        &sum);
    EXPECT_EQ(sum.load(), 999 * 1000 / 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST(ThreadPool, DefaultThreadsIsOneWithoutTheEnvironmentVariable) {
  ASSERT_EQ(std::getenv("NPURT_NUM_THREADS"), nullptr);
  EXPECT_EQ(ThreadPool::DefaultThreads(), 1);
}

}  // namespace
}  // namespace npurt

namespace npurt {
namespace {

// Run alone by the ctest entries unit.num_threads_env (NPURT_NUM_THREADS=2) and
// unit.num_threads_env_invalid (NPURT_NUM_THREADS=two): the variable is read once per process.
TEST(ThreadPoolEnv, DefaultThreadsFollowsTheVariable) {
  const char* env = std::getenv("NPURT_NUM_THREADS");
  ASSERT_NE(env, nullptr);
  if (std::string(env) == "2") {
    EXPECT_EQ(ThreadPool::DefaultThreads(), std::min(2, ThreadPool::HardwareThreads()));
  } else {
    EXPECT_EQ(ThreadPool::DefaultThreads(), 1) << "an invalid value falls back to one thread";
  }
}

}  // namespace
}  // namespace npurt
