// Decomposed LayerNorm recognition. Exporters without LayerNormalization
// (opset < 17; paddle2onnx for PP-OCRv4 rec, PyTorch) write it out as
//
//   m = ReduceMean(x, axes)          keepdims = 1
//   d = Sub(x, m)
//   p = Pow(d, 2)                    or Mul(d, d)
//   v = ReduceMean(p, axes)          keepdims = 1, same axes
//   e = Add(v, eps)                  either operand order; eps a one-element constant
//   s = Sqrt(e)
//   n = Div(d, s)
//   [g = Mul(n, gamma)]              constant, either order
//   [y = Add(g, beta)]               constant, either order
//
// where axes are the trailing dims [a, rank) (typically just the last). It
// becomes LayerNormalization(x, scale, bias; axis = a, epsilon = eps) writing
// the pattern's last tensor, placed where the last node was; scale is gamma
// (or a constant 1), bias beta (or absent). gamma/beta must vary only along
// the normalized dims; one that does not cover them all (say [W] for dims
// [H, W]) is broadcast into a new constant of the normalized shape.
//
// Every intermediate must be read only inside the pattern (d by the Pow/Mul and
// the Div) and not be a graph output, and the result must have x's shape.
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

const IrNode& NodeAt(const Graph& graph, int k) { return graph.nodes()[k]; }

bool IsFloatWithShape(const Graph& graph, int t, const Shape& shape) {
  const IrTensor& tensor = graph.tensors()[t];
  return tensor.has_shape && tensor.shape == shape && tensor.dtype == DataType::kFloat32;
}

// The first normalized axis `a` of ReduceMean node `k` over input `x` when it
// reduces exactly the dims [a, rank) with keepdims = 1.
bool TrailingReduceMean(const Graph& graph, int k, int x, int* first_axis) {
  const IrNode& n = NodeAt(graph, k);
  if (n.op_type != "ReduceMean" || n.inputs.empty() || n.inputs[0] != x || n.outputs.size() != 1) return false;
  const IrTensor& xt = graph.tensors()[x];
  if (!xt.has_shape || xt.shape.empty()) return false;
  const int rank = static_cast<int>(xt.shape.size());
  int64_t keepdims = 1, noop = 0;
  if (!n.attrs.GetInt("keepdims", 1, &keepdims).ok() || keepdims != 1) return false;
  if (!n.attrs.GetInt("noop_with_empty_axes", 0, &noop).ok()) return false;
  std::vector<int64_t> axes;
  if (n.inputs.size() > 1 && n.inputs[1] >= 0) {
    const IrTensor& at = graph.tensors()[n.inputs[1]];
    std::vector<float> values;
    if (n.attrs.Has("axes") || (at.dtype != DataType::kInt64 && at.dtype != DataType::kInt32) ||
        !ReadConstantFloats(graph, n.inputs[1], &values)) {
      return false;
    }
    for (float v : values) axes.push_back(static_cast<int64_t>(v));
  } else if (!n.attrs.GetInts("axes", {}, &axes).ok()) {
    return false;
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  if (axes.empty()) {
    if (noop != 0) return false;
    reduced.assign(static_cast<size_t>(rank), true);
  }
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank) return false;
    const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
    if (reduced[a]) return false;
    reduced[a] = true;
  }
  int a = rank;
  while (a > 0 && reduced[a - 1]) --a;
  for (int i = 0; i < a; ++i) {
    if (reduced[i]) return false;  // a reduced dim before the trailing block
  }
  if (a == rank) return false;
  *first_axis = a;
  return true;
}

// The constant operand of a two-input `op` node `k` whose other operand is `t`.
int ConstantOperand(const Graph& graph, int k, const char* op, int t) {
  const IrNode& n = NodeAt(graph, k);
  if (n.op_type != op || n.inputs.size() != 2 || n.outputs.size() != 1) return -1;
  for (int slot = 0; slot < 2; ++slot) {
    const int other = n.inputs[1 - slot];
    if (n.inputs[slot] == t && other >= 0 && other != t && graph.tensors()[other].is_constant) return other;
  }
  return -1;
}

// Whether constant `param` (gamma or beta) can be a LayerNormalization input
// for x of `x_shape` normalized from `axis`: float32, and every dim it does not
// broadcast (right-aligned) lies in the normalized block and equals x's.
bool ParamFits(const Graph& graph, int param, const Shape& x_shape, int axis) {
  if (ConstantElements(graph, param) < 0 || graph.tensors()[param].dtype != DataType::kFloat32) return false;
  const Shape& pshape = graph.tensors()[param].shape;
  const int rank = static_cast<int>(x_shape.size());
  const int prank = static_cast<int>(pshape.size());
  if (prank > rank) return false;
  for (int j = 0; j < prank; ++j) {
    const int pos = rank - prank + j;
    if (pshape[j] != 1 && (pos < axis || pshape[j] != x_shape[pos])) return false;
  }
  return true;
}

// A fitting `param` as LayerNormalization takes it: the tensor itself when it
// has one value or one per normalized element, else a new constant of the
// normalized shape holding its broadcast values.
int LayerNormParam(Graph* graph, int param, const Shape& x_shape, int axis, const std::string& name) {
  std::vector<float> values;
  if (!ReadConstantFloats(*graph, param, &values)) return -1;
  const Shape pshape = graph->tensors()[param].shape;
  const Shape normalized(x_shape.begin() + axis, x_shape.end());
  int64_t size = 1;
  for (int64_t d : normalized) size *= d;
  if (values.size() == 1 || static_cast<int64_t>(values.size()) == size) return param;
  // Broadcast (right-aligned) into the normalized shape.
  const int nrank = static_cast<int>(normalized.size());
  const int prank = static_cast<int>(pshape.size());
  std::vector<float> full(static_cast<size_t>(size));
  for (int64_t flat = 0; flat < size; ++flat) {
    int64_t rem = flat, src = 0, stride = 1;
    for (int i = nrank - 1; i >= 0; --i) {
      const int64_t idx = rem % normalized[i];
      rem /= normalized[i];
      const int j = i - nrank + prank;  // the param dim aligned with normalized dim i
      if (j >= 0) {
        if (pshape[j] != 1) src += idx * stride;
        stride *= pshape[j];
      }
    }
    full[flat] = values[src];
  }
  return AddUniqueFloatConstant(graph, name, normalized, full);
}

bool RecognizeAt(Graph* graph, const GraphIndex& index, int r1, std::vector<bool>* dead) {
  const IrNode& mean_node = NodeAt(*graph, r1);
  if (mean_node.op_type != "ReduceMean" || mean_node.inputs.empty() || mean_node.inputs[0] < 0) return false;
  const int x = mean_node.inputs[0];
  int axis = 0;
  if (!TrailingReduceMean(*graph, r1, x, &axis)) return false;
  const Shape x_shape = graph->tensors()[x].shape;
  if (!IsFloatWithShape(*graph, x, x_shape)) return false;

  // d = x - mean
  const int m = mean_node.outputs[0];
  const int sub = index.SoleConsumer(m);
  if (sub < 0 || NodeAt(*graph, sub).op_type != "Sub" || NodeAt(*graph, sub).inputs.size() != 2 ||
      NodeAt(*graph, sub).inputs[0] != x || NodeAt(*graph, sub).inputs[1] != m) {
    return false;
  }
  const int d = NodeAt(*graph, sub).outputs[0];
  if (!IsFloatWithShape(*graph, d, x_shape) || index.is_graph_output(d)) return false;

  // d is read by the square and the Div only.
  int square = -1, div = -1;
  for (const TensorUse& u : index.uses(d)) {
    const IrNode& n = NodeAt(*graph, u.node);
    if (n.inputs.size() != 2 || n.outputs.size() != 1) return false;
    if (n.op_type == "Pow" && u.slot == 0 && IsScalarConstant(*graph, n.inputs[1], 2.0f) && square < 0) {
      square = u.node;
    } else if (n.op_type == "Mul" && n.inputs[0] == d && n.inputs[1] == d && (square < 0 || square == u.node)) {
      square = u.node;
    } else if (n.op_type == "Div" && u.slot == 0 && n.inputs[1] != d && div < 0) {
      div = u.node;
    } else {
      return false;
    }
  }
  if (square < 0 || div < 0) return false;
  const int p = NodeAt(*graph, square).outputs[0];
  if (!IsFloatWithShape(*graph, p, x_shape)) return false;

  // v = mean(p) over the same axes, then + eps, sqrt.
  const int r2 = index.SoleConsumer(p);
  int axis2 = -1;
  if (r2 < 0 || !TrailingReduceMean(*graph, r2, p, &axis2) || axis2 != axis) return false;
  const int v = NodeAt(*graph, r2).outputs[0];
  const int add_eps = index.SoleConsumer(v);
  if (add_eps < 0) return false;
  const int eps_t = ConstantOperand(*graph, add_eps, "Add", v);
  float epsilon = 0.0f;
  if (eps_t < 0 || graph->tensors()[eps_t].dtype != DataType::kFloat32 ||
      !ReadScalarConstant(*graph, eps_t, &epsilon) || !std::isfinite(epsilon) || epsilon < 0.0f) {
    return false;
  }
  const int e = NodeAt(*graph, add_eps).outputs[0];
  const int sqrt_node = index.SoleConsumer(e);
  if (sqrt_node < 0 || NodeAt(*graph, sqrt_node).op_type != "Sqrt" || NodeAt(*graph, sqrt_node).outputs.size() != 1) {
    return false;
  }
  const int s = NodeAt(*graph, sqrt_node).outputs[0];
  if (index.SoleConsumer(s) != div || NodeAt(*graph, div).inputs[1] != s) return false;

  // Optional scale and bias (the pattern stops before one that does not fit).
  std::vector<int> pattern = {r1, sub, square, r2, add_eps, sqrt_node, div};
  int last = div;
  int out = NodeAt(*graph, div).outputs[0];
  int gamma = -1, beta = -1;
  int next = index.SoleConsumer(out);
  if (next >= 0) {
    gamma = ConstantOperand(*graph, next, "Mul", out);
    if (gamma >= 0 && ParamFits(*graph, gamma, x_shape, axis) &&
        IsFloatWithShape(*graph, NodeAt(*graph, next).outputs[0], x_shape)) {
      last = next;
      out = NodeAt(*graph, next).outputs[0];
      pattern.push_back(next);
      next = index.SoleConsumer(out);
    } else {
      gamma = -1;
    }
  }
  if (next >= 0) {
    beta = ConstantOperand(*graph, next, "Add", out);
    if (beta >= 0 && ParamFits(*graph, beta, x_shape, axis) &&
        IsFloatWithShape(*graph, NodeAt(*graph, next).outputs[0], x_shape)) {
      last = next;
      out = NodeAt(*graph, next).outputs[0];
      pattern.push_back(next);
    } else {
      beta = -1;
    }
  }
  if (!IsFloatWithShape(*graph, out, x_shape)) return false;

  const std::string base = mean_node.name;
  const int scale = gamma >= 0 ? LayerNormParam(graph, gamma, x_shape, axis, base + ":scale")
                               : AddUniqueFloatConstant(graph, base + ":scale", {1}, {1.0f});
  const int bias = beta >= 0 ? LayerNormParam(graph, beta, x_shape, axis, base + ":bias") : -1;
  if (scale < 0 || (beta >= 0 && bias < 0)) return false;  // not reached: ParamFits checked the constants

  IrNode& ln = graph->nodes()[last];
  ln.op_type = "LayerNormalization";
  ln.name = base + ":layernorm";
  ln.inputs = {x, scale};
  if (bias >= 0) ln.inputs.push_back(bias);
  ln.attrs = Attributes();
  ln.attrs.SetInt("axis", axis);
  ln.attrs.SetFloat("epsilon", epsilon);
  for (int k : pattern) {
    if (k != last) (*dead)[k] = true;
  }
  return true;
}

}  // namespace

int RecognizeLayerNorm(Graph* graph) { return RewriteToFixpoint(graph, RecognizeAt); }

}  // namespace compiler
}  // namespace npurt
