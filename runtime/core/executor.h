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

// Evaluates the nodes in order. `profiler` may be nullptr. With `deadline_ns` (a NowNs() time; 0: none)
// the run stops with kTimeout after the first op that ends past it.
Status RunNodes(std::vector<OpNode>* nodes, Profiler* profiler, int64_t deadline_ns = 0);

}  // namespace npurt
