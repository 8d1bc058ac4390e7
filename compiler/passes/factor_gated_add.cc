// Gated-add factoring: x + x * g becomes x * (g + 1). The residual squeeze-and-
// excite blocks of PP-OCRv4 det's neck (RSE-FPN: x + SE(x), SE(x) = x * gate)
// then cost one full-size elementwise op instead of two: the gate's + 1 is a
// per-channel op on a [1, C, 1, 1] tensor, which Build later folds into the
// gate's convolution as its output shift (fuse_output_affine.cc). Results move
// by float rounding only; a quantized model rounds the full-size tensor once
// where it rounded it twice.
//
// Conditions: the Mul's output is read by the Add alone and is not a graph
// output (nor rounded by a QDQ model: GraphIndex::SoleConsumer); neither node has a fused activation; x, x * g and the sum have one
// shape (g broadcasts onto x); all float32. The Mul's slot computes g + 1
// (a new tensor) and the Add's slot the product, which keeps the Add's output
// tensor.
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

bool FactorAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>*) {
  const IrNode& add = graph->nodes()[k];
  if (add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1 || add.attrs.Has("activation")) {
    return false;
  }
  for (int side = 0; side < 2; ++side) {
    const int x = add.inputs[1 - side], product = add.inputs[side];
    if (x < 0 || product < 0 || index.SoleConsumer(product) != k) continue;
    const int m = index.producer(product);
    if (m < 0) continue;
    const IrNode& mul = graph->nodes()[m];
    if (mul.op_type != "Mul" || mul.inputs.size() != 2 || mul.outputs.size() != 1 || mul.attrs.Has("activation")) {
      continue;
    }
    if (mul.inputs[0] != x && mul.inputs[1] != x) continue;
    const int g = mul.inputs[0] == x ? mul.inputs[1] : mul.inputs[0];
    if (g < 0 || g == x) continue;
    const IrTensor& xt = graph->tensors()[x];
    const IrTensor& gt = graph->tensors()[g];
    const IrTensor& pt = graph->tensors()[product];
    const IrTensor& yt = graph->tensors()[add.outputs[0]];
    if (!xt.has_shape || !gt.has_shape || !pt.has_shape || !yt.has_shape || pt.shape != xt.shape ||
        yt.shape != xt.shape) {
      continue;
    }
    bool all_float = true;
    for (const IrTensor* t : {&xt, &gt, &pt, &yt}) all_float = all_float && t->dtype == DataType::kFloat32;
    if (!all_float) continue;

    // Copies: adding tensors may move the ones referenced above.
    const std::string base = gt.name;
    const Shape gate_shape = gt.shape;
    const int one = AddUniqueFloatConstant(graph, base + ":one", {1}, {1.0f});
    const int gate = graph->AddTensor(UniqueTensorName(*graph, base + ":plus_one"), gate_shape, DataType::kFloat32);
    IrNode& plus_one = graph->nodes()[m];
    plus_one.op_type = "Add";
    plus_one.attrs = Attributes();
    plus_one.inputs = {g, one};
    plus_one.outputs = {gate};
    IrNode& scaled = graph->nodes()[k];
    scaled.op_type = "Mul";
    scaled.inputs = {x, gate};
    return true;
  }
  return false;
}

}  // namespace

int FactorGatedAdds(Graph* graph) { return RewriteToFixpoint(graph, FactorAt); }

}  // namespace compiler
}  // namespace npurt
