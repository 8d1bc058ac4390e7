#include <gtest/gtest.h>

#include <random>

#include "runtime/planner/greedy_memory_planner.h"

namespace npurt {
namespace {

TEST(GreedyMemoryPlanner, ReusesMemoryOfDeadBuffers) {
  GreedyMemoryPlanner p(64);
  // A chain a -> b -> c: a and c never live together, so they can share bytes.
  const int a = p.AddBuffer(1000, 0, 1);
  const int b = p.AddBuffer(1000, 1, 2);
  const int c = p.AddBuffer(1000, 2, 3);
  EXPECT_EQ(p.GetArenaSize(), 2048u);  // two aligned 1000-byte slots
  EXPECT_NE(p.GetOffset(a), p.GetOffset(b));
  EXPECT_NE(p.GetOffset(b), p.GetOffset(c));
  EXPECT_EQ(p.GetOffset(a), p.GetOffset(c));
}

TEST(GreedyMemoryPlanner, OffsetsAreAligned) {
  GreedyMemoryPlanner p(64);
  for (int i = 0; i < 10; ++i) p.AddBuffer(7 + i * 13, i, i + 2);
  for (const PlannedBuffer& b : p.buffers()) EXPECT_EQ(b.offset % 64, 0u);
}

TEST(GreedyMemoryPlanner, RandomPlansNeverOverlapLiveBuffers) {
  std::mt19937 rng(7767517);
  for (int trial = 0; trial < 200; ++trial) {
    GreedyMemoryPlanner p(64);
    const int n = 1 + static_cast<int>(rng() % 60);
    uint64_t sum = 0;
    for (int i = 0; i < n; ++i) {
      const int first = static_cast<int>(rng() % 40);
      const uint64_t size = 1 + rng() % 5000;
      sum += (size + 63) / 64 * 64;
      p.AddBuffer(size, first, first + static_cast<int>(rng() % 10));
    }
    std::string what;
    EXPECT_FALSE(PlanHasOverlap(p.buffers(), p.GetArenaSize(), &what)) << what;
    EXPECT_LE(p.GetArenaSize(), sum);  // never worse than no reuse
  }
}

TEST(PlanHasOverlap, DetectsOverlapAndOutOfArena) {
  std::vector<PlannedBuffer> bufs(2);
  bufs[0] = {100, 0, 2, 0};
  bufs[1] = {100, 1, 3, 50};
  std::string what;
  EXPECT_TRUE(PlanHasOverlap(bufs, 1000, &what));
  EXPECT_NE(what.find("overlap"), std::string::npos);
  bufs[1].first_use = 3;  // lifetimes no longer intersect
  EXPECT_FALSE(PlanHasOverlap(bufs, 1000, &what));
  bufs[1].offset = 950;
  EXPECT_TRUE(PlanHasOverlap(bufs, 1000, &what));
  EXPECT_NE(what.find("past the arena"), std::string::npos);
}

}  // namespace
}  // namespace npurt
