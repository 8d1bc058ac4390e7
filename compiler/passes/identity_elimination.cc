// Identity elimination: readers of an Identity's output read its input
// instead. When the output is a graph output (whose tensor and name must stay),
// the input's producer writes the output tensor directly and the input's other
// readers follow; that needs the input to be an ordinary intermediate (not a
// graph input, graph output or constant), else the Identity stays: the model
// needs a node to write that output anyway.
//
// Dropout never reaches the runtime's op set, but should an importer keep one
// in inference mode (no mask read, training_mode absent or constant false),
// it is the identity on input 0 and goes the same way.
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

bool IsIdentityLike(const Graph& graph, const GraphIndex& index, const IrNode& node) {
  if (node.inputs.empty() || node.inputs[0] < 0 || node.outputs.empty()) return false;
  if (node.op_type == "Identity") return node.inputs.size() == 1 && node.outputs.size() == 1;
  if (node.op_type != "Dropout") return false;
  for (size_t i = 1; i < node.outputs.size(); ++i) {
    const int mask = node.outputs[i];
    if (index.is_graph_output(mask) || !index.uses(mask).empty()) return false;
  }
  if (node.inputs.size() > 2 && node.inputs[2] >= 0) {
    float training = 1.0f;
    if (!ReadScalarConstant(graph, node.inputs[2], &training) || training != 0.0f) return false;
  }
  int64_t training_mode = 0;  // not an ONNX attribute, but refuse any hint of training
  if (!node.attrs.GetInt("training_mode", 0, &training_mode).ok() || training_mode != 0) return false;
  return true;
}

bool EliminateAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& node = graph->nodes()[k];
  if (!IsIdentityLike(*graph, index, node)) return false;
  const int x = node.inputs[0];
  const int y = node.outputs[0];
  if (x == y) return false;
  if (!index.is_graph_output(y)) {
    ReplaceUses(graph, y, x);
    (*dead)[k] = true;
    return true;
  }
  const int p = index.producer(x);
  if (p < 0 || index.is_graph_input(x) || index.is_graph_output(x) || graph->tensors()[x].is_constant) return false;
  IrNode& producer = graph->nodes()[p];
  for (int& o : producer.outputs) {
    if (o == x) o = y;
  }
  ReplaceUses(graph, x, y);
  (*dead)[k] = true;
  return true;
}

}  // namespace

int EliminateIdentities(Graph* graph) { return RewriteToFixpoint(graph, EliminateAt); }

}  // namespace compiler
}  // namespace npurt
