// Dead-node elimination: one backward sweep from the graph outputs. A node is
// live when one of its outputs is a graph output or is read by a live node.
// Every op is pure, so a node with no live output can go. Tensors stay in the
// tensor list (indices are stable); the emitter drops unreferenced ones.
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {

int EliminateDeadNodes(Graph* graph) {
  const std::vector<IrNode>& nodes = graph->nodes();
  const size_t num_tensors = graph->tensors().size();
  std::vector<bool> live_tensor(num_tensors, false);
  for (int t : graph->outputs()) {
    if (t >= 0 && static_cast<size_t>(t) < num_tensors) live_tensor[t] = true;
  }
  std::vector<bool> dead(nodes.size(), false);
  int removed = 0;
  for (size_t k = nodes.size(); k-- > 0;) {
    bool live = false;
    for (int t : nodes[k].outputs) live |= t >= 0 && static_cast<size_t>(t) < num_tensors && live_tensor[t];
    if (!live) {
      dead[k] = true;
      ++removed;
      continue;
    }
    for (int t : nodes[k].inputs) {
      if (t >= 0 && static_cast<size_t>(t) < num_tensors) live_tensor[t] = true;
    }
  }
  if (removed > 0) EraseNodes(graph, dead);
  return removed;
}

}  // namespace compiler
}  // namespace npurt
