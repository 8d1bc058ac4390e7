// Static arena planning (TFLite Micro's GreedyMemoryPlanner idea): each buffer
// has a size and a lifetime [first_use, last_use] in op-execution steps.
// Buffers are placed largest first, each at the lowest offset where it does not
// overlap any already-placed buffer whose lifetime intersects its own.
// The compiler plans; the runtime only checks the plan (PlanHasOverlap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurt {

struct PlannedBuffer {
  uint64_t size = 0;
  int first_use = 0;
  int last_use = 0;
  uint64_t offset = 0;  // output of the planner
};

class GreedyMemoryPlanner {
 public:
  explicit GreedyMemoryPlanner(uint64_t alignment = 64) : alignment_(alignment) {}

  // Returns the buffer's id.
  int AddBuffer(uint64_t size, int first_use, int last_use);
  // Computes offsets; idempotent.
  void Plan();
  uint64_t GetOffset(int id);
  uint64_t GetArenaSize();
  const std::vector<PlannedBuffer>& buffers() { Plan(); return buffers_; }
  // One line per buffer: id, offset, size, lifetime. For `npurt info` and debugging.
  std::string PrintPlan();

 private:
  uint64_t alignment_;
  std::vector<PlannedBuffer> buffers_;
  uint64_t arena_size_ = 0;
  bool planned_ = false;
};

// True when two buffers with intersecting lifetimes share bytes, or a buffer
// ends past `arena_size`. Fills `what` with the first problem found.
bool PlanHasOverlap(const std::vector<PlannedBuffer>& buffers, uint64_t arena_size, std::string* what);

}  // namespace npurt
