#include "runtime/planner/greedy_memory_planner.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace npurt {
namespace {

bool LifetimesIntersect(const PlannedBuffer& a, const PlannedBuffer& b) {
  return a.first_use <= b.last_use && b.first_use <= a.last_use;
}

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

int GreedyMemoryPlanner::AddBuffer(uint64_t size, int first_use, int last_use) {
  PlannedBuffer b;
  b.size = size;
  b.first_use = first_use;
  b.last_use = std::max(first_use, last_use);
  buffers_.push_back(b);
  planned_ = false;
  return static_cast<int>(buffers_.size()) - 1;
}

void GreedyMemoryPlanner::Plan() {
  if (planned_) return;
  std::vector<int> order(buffers_.size());
  std::iota(order.begin(), order.end(), 0);
  // Largest first; ties by earlier first use keep the plan deterministic.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (buffers_[a].size != buffers_[b].size) return buffers_[a].size > buffers_[b].size;
    return buffers_[a].first_use < buffers_[b].first_use;
  });
  std::vector<int> placed;
  arena_size_ = 0;
  for (int id : order) {
    PlannedBuffer& cur = buffers_[id];
    // Collect the live neighbours sorted by offset, then first-fit into the gaps.
    std::vector<const PlannedBuffer*> live;
    for (int other : placed) {
      if (LifetimesIntersect(cur, buffers_[other])) live.push_back(&buffers_[other]);
    }
    std::sort(live.begin(), live.end(),
              [](const PlannedBuffer* a, const PlannedBuffer* b) { return a->offset < b->offset; });
    uint64_t candidate = 0;
    for (const PlannedBuffer* other : live) {
      if (candidate + cur.size <= other->offset) break;
      candidate = std::max(candidate, AlignUp(other->offset + other->size, alignment_));
    }
    cur.offset = candidate;
    arena_size_ = std::max(arena_size_, AlignUp(cur.offset + cur.size, alignment_));
    placed.push_back(id);
  }
  planned_ = true;
}

uint64_t GreedyMemoryPlanner::GetOffset(int id) {
  Plan();
  return buffers_[id].offset;
}

uint64_t GreedyMemoryPlanner::GetArenaSize() {
  Plan();
  return arena_size_;
}

std::string GreedyMemoryPlanner::PrintPlan() {
  Plan();
  std::string out;
  char line[160];
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const PlannedBuffer& b = buffers_[i];
    std::snprintf(line, sizeof(line), "buffer %3zu: offset %10llu size %10llu ops [%d, %d]\n", i,
                  static_cast<unsigned long long>(b.offset), static_cast<unsigned long long>(b.size), b.first_use,
                  b.last_use);
    out += line;
  }
  return out;
}

bool PlanHasOverlap(const std::vector<PlannedBuffer>& buffers, uint64_t arena_size, std::string* what) {
  // Sweep by offset: only buffers whose byte ranges intersect need a lifetime check.
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return buffers[a].offset < buffers[b].offset; });
  for (size_t i = 0; i < order.size(); ++i) {
    const PlannedBuffer& a = buffers[order[i]];
    if (a.size > arena_size || a.offset > arena_size - a.size) {
      if (what) *what = "buffer " + std::to_string(order[i]) + " ends past the arena";
      return true;
    }
    for (size_t j = i + 1; j < order.size(); ++j) {
      const PlannedBuffer& b = buffers[order[j]];
      if (b.offset >= a.offset + a.size) break;
      if (a.size == 0 || b.size == 0) continue;
      if (LifetimesIntersect(a, b)) {
        if (what) {
          *what = "buffers " + std::to_string(order[i]) + " and " + std::to_string(order[j]) +
                  " overlap while both are live";
        }
        return true;
      }
    }
  }
  return false;
}

}  // namespace npurt
