// Helpers the graph passes share: who produces and who reads each tensor,
// reading small constants, adding constants under fresh names, and removing
// nodes. The Graph class itself stays a plain container.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace npurt {
namespace compiler {

// One read of a tensor: node `node` has it as input `slot`.
struct TensorUse {
  int node = -1;
  int slot = -1;
};

// Producers and readers of every tensor of a graph, as of construction. Any
// rewrite of the graph's nodes makes it stale: build a new one.
class GraphIndex {
 public:
  explicit GraphIndex(const Graph& graph);

  // The node writing `tensor`, or -1 (graph input, constant, or dangling).
  int producer(int tensor) const { return producer_[tensor]; }
  // Every (node, slot) reading `tensor`, in node order.
  const std::vector<TensorUse>& uses(int tensor) const { return uses_[tensor]; }
  bool is_graph_output(int tensor) const { return is_output_[tensor]; }
  bool is_graph_input(int tensor) const { return is_input_[tensor]; }
  // The one node reading `tensor`, in exactly one slot, when `tensor` is not a
  // graph output and the model gives it no quantization parameters (a QDQ
  // model rounds it: IrTensor::model_quant); otherwise -1. What every fusion
  // asks of an intermediate, so no fusion drops a rounding the model defines.
  int SoleConsumer(int tensor) const;

 private:
  std::vector<int> producer_;
  std::vector<std::vector<TensorUse>> uses_;
  std::vector<bool> is_output_;
  std::vector<bool> is_input_;
  std::vector<bool> has_model_quant_;
};

// The element count of a constant, or -1 when `tensor` is not a constant whose
// data matches its shape.
int64_t ConstantElements(const Graph& graph, int tensor);
// A constant's values as floats (float32, int32, int64, uint8 and bool
// constants); false otherwise, or for a negative (omitted) tensor index.
bool ReadConstantFloats(const Graph& graph, int tensor, std::vector<float>* values);
// A constant with exactly one element (any rank), as a float.
bool ReadScalarConstant(const Graph& graph, int tensor, float* value);
// True when `tensor` is a one-element constant within `tolerance` of `expected`.
bool IsScalarConstant(const Graph& graph, int tensor, float expected, float tolerance = 0.0f);

bool IsConstantTensor(const Graph& graph, int tensor);
// The constant operand and the other input of a two-input node whose inputs are one constant and one
// computed tensor, or false.
bool SplitConstant(const Graph& graph, const IrNode& node, int* constant, int* other);

// The per-channel values (`maps` of them) of constant `c` broadcast against a
// tensor of rank `rank` with `maps` channels on axis 1 (a scalar repeats);
// false when it varies along another dim or is not a finite float32 constant.
bool PerChannelValues(const Graph& graph, int c, size_t rank, int64_t maps, std::vector<float>* values);

// A Clip node's bounds: attributes (opset < 11) or constant float32 scalar
// inputs (opset >= 11), an absent bound being -inf/+inf. False when a bound is
// computed at run time or the node is malformed.
bool ReadClipBounds(const Graph& graph, const IrNode& clip, float* lo, float* hi);

// For a Conv (weights [M, C/group, k...]) or a ConvTranspose (weights
// [C, M/group, k...]) whose weights have shape `w`: the output channel count M
// and, for every weight element in row-major order, the output channel it
// feeds. False for other ops, a bad group or a weight of rank < 3.
bool WeightOutputChannels(const IrNode& conv, const Shape& w, int64_t* maps, std::vector<int64_t>* channel_of);

// `base`, or `base` with a numeric suffix, so that no tensor has the name yet.
std::string UniqueTensorName(const Graph& graph, const std::string& base);
// Adds a float32 constant under a fresh name derived from `base`.
int AddUniqueFloatConstant(Graph* graph, const std::string& base, Shape shape, const std::vector<float>& values);

// Erases the nodes marked in `dead` (indexed by node), keeping the order of the rest.
void EraseNodes(Graph* graph, const std::vector<bool>& dead);
// Makes every node that reads `from` read `to` instead (graph outputs unchanged).
void ReplaceUses(Graph* graph, int from, int to);

// A rewrite attempted at node `node`: returns true when it changed the graph,
// having marked the nodes it replaced in `dead` (sized to the node count).
using NodeRewrite = std::function<bool(Graph* graph, const GraphIndex& index, int node, std::vector<bool>* dead)>;
// Tries `rewrite` at each node in order; after each success erases the dead
// nodes, re-indexes and starts over, until no node matches. Returns the number
// of successful rewrites.
int RewriteToFixpoint(Graph* graph, const NodeRewrite& rewrite);

}  // namespace compiler
}  // namespace npurt
