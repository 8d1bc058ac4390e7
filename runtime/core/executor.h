// Executor: runs prepared op nodes in model order over pre-bound tensors.
// Nothing is allocated here; that happened in Context creation.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/profiler.h"
#include "runtime/core/status.h"
#include "runtime/ops/op.h"

namespace npurt {

// Runs every node's infer on its bound inputs, checks the result against the
// shapes and types the model recorded, then prepares the node.
Status PrepareNodes(std::vector<OpNode>* nodes);

// fp16 overflows of one run: finite values that an op's fp16 output rounding made +-inf.
struct HalfOverflows {
  int64_t values = 0;
  int first_op = -1;  // the first node that overflowed, -1: none
  int64_t first_op_values = 0;
};

// Evaluates the nodes in order, rounding the outputs of nodes with round_to_half after each eval (before
// the profiler's EndOp, so observers see what the next op reads). `profiler` and `overflows` may be
// nullptr. With `deadline_ns` (a NowNs() time; 0: none) the run stops with kTimeout after the first op
// that ends past it.
Status RunNodes(std::vector<OpNode>* nodes, Profiler* profiler, int64_t deadline_ns = 0,
                HalfOverflows* overflows = nullptr);

}  // namespace npurt
