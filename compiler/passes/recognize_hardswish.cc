// Hard-swish recognition. Exporters without a HardSwish op (opset < 14) write
// it out; the two shapes PP-OCR (paddle2onnx) and PyTorch produce are
//
//   x * Clip(x + 3, 0, 6) / 6       Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(., 6)
//                                   also Mul(., 1/6) for the Div, the Mul/Div the
//                                   other way round (x * (Clip(...) / 6)), and
//                                   operands of Add and Mul in either order
//   x * HardSigmoid(x, 1/6, 0.5)    HardSigmoid(x) -> Mul(x, .)
//
// Each becomes HardSwish(x) = x * max(0, min(1, x / 6 + 0.5)) writing the
// pattern's last tensor, placed where the pattern's last node was. Every
// intermediate must be read only inside the pattern and not be a graph output;
// constants must be one-element values (3, 0, 6, 1/6 within 1e-6 relative) and
// the result must have x's shape (no broadcasting from the constants).
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

constexpr float kSixth = 1.0f / 6.0f;

bool Near(float v, float expected) { return std::fabs(v - expected) <= 1e-6f * std::fmax(1.0f, std::fabs(expected)); }

bool IsNearScalar(const Graph& graph, int tensor, float expected) {
  float v = 0.0f;
  return ReadScalarConstant(graph, tensor, &v) && Near(v, expected);
}

// Node `k` is a two-input `op` reading `operand` and, in the other slot, a
// one-element constant near `value`. `commutative`: `operand` may be in either slot.
bool IsOpWithScalar(const Graph& graph, int k, const char* op, int operand, float value, bool commutative) {
  const IrNode& n = graph.nodes()[k];
  if (n.op_type != op || n.inputs.size() != 2 || n.outputs.size() != 1) return false;
  for (int slot = 0; slot < (commutative ? 2 : 1); ++slot) {
    if (n.inputs[slot] == operand && IsNearScalar(graph, n.inputs[1 - slot], value)) return true;
  }
  return false;
}

// Node `k` is Mul(a, b) in either order.
bool IsMulOf(const Graph& graph, int k, int a, int b) {
  const IrNode& n = graph.nodes()[k];
  if (n.op_type != "Mul" || n.inputs.size() != 2 || n.outputs.size() != 1) return false;
  return (n.inputs[0] == a && n.inputs[1] == b) || (n.inputs[0] == b && n.inputs[1] == a);
}

// Multiplies by 1/6: Div(t, 6) or Mul(t, 1/6) / Mul(1/6, t).
bool IsDivBySix(const Graph& graph, int k, int t) {
  return IsOpWithScalar(graph, k, "Div", t, 6.0f, false) || IsOpWithScalar(graph, k, "Mul", t, kSixth, true);
}

bool SameShapeFloat(const Graph& graph, int a, int b) {
  const IrTensor& ta = graph.tensors()[a];
  const IrTensor& tb = graph.tensors()[b];
  return ta.has_shape && tb.has_shape && ta.shape == tb.shape && ta.dtype == DataType::kFloat32 &&
         tb.dtype == DataType::kFloat32;
}

// Replaces the pattern: node `last` becomes HardSwish(x), the others die.
void Rewrite(Graph* graph, int x, int last, const std::vector<int>& others, std::vector<bool>* dead) {
  IrNode& n = graph->nodes()[last];
  n.op_type = "HardSwish";
  n.inputs = {x};
  n.attrs = Attributes();
  n.name += ":hardswish";
  for (int k : others) (*dead)[k] = true;
}

// Add(x, 3) -> Clip(0, 6) -> ... starting at the Clip.
bool MatchClipForm(Graph* graph, const GraphIndex& index, int clip, std::vector<bool>* dead) {
  const IrNode& c = graph->nodes()[clip];
  float lo = 0.0f, hi = 0.0f;
  if (c.outputs.size() != 1 || !ReadClipBounds(*graph, c, &lo, &hi) || lo != 0.0f || !Near(hi, 6.0f)) return false;
  const int a = c.inputs[0];
  if (a < 0 || index.SoleConsumer(a) != clip) return false;
  const int add = index.producer(a);
  if (add < 0 || graph->nodes()[add].op_type != "Add" || graph->nodes()[add].inputs.size() != 2) return false;
  int x = -1;
  for (int slot = 0; slot < 2 && x < 0; ++slot) {
    if (IsNearScalar(*graph, graph->nodes()[add].inputs[1 - slot], 3.0f)) x = graph->nodes()[add].inputs[slot];
  }
  if (x < 0 || !SameShapeFloat(*graph, x, a)) return false;

  const int cc = c.outputs[0];
  const int q = index.SoleConsumer(cc);
  if (q < 0) return false;
  const int q_out = graph->nodes()[q].outputs.empty() ? -1 : graph->nodes()[q].outputs[0];
  int last = -1;
  if (IsMulOf(*graph, q, x, cc)) {
    // (x * clip) / 6
    const int r = index.SoleConsumer(q_out);
    if (r >= 0 && IsDivBySix(*graph, r, q_out)) last = r;
  } else if (IsDivBySix(*graph, q, cc)) {
    // x * (clip / 6)
    const int r = index.SoleConsumer(q_out);
    if (r >= 0 && IsMulOf(*graph, r, x, q_out)) last = r;
  }
  if (last < 0 || !SameShapeFloat(*graph, x, graph->nodes()[last].outputs[0])) return false;
  Rewrite(graph, x, last, {add, clip, q}, dead);
  return true;
}

// HardSigmoid(x, 1/6, 0.5) -> Mul(x, .) starting at the HardSigmoid.
bool MatchHardSigmoidForm(Graph* graph, const GraphIndex& index, int hs, std::vector<bool>* dead) {
  const IrNode& h = graph->nodes()[hs];
  if (h.inputs.size() != 1 || h.outputs.size() != 1 || h.inputs[0] < 0) return false;
  float alpha = 0.2f, beta = 0.5f;
  if (!h.attrs.GetFloat("alpha", 0.2f, &alpha).ok() || !h.attrs.GetFloat("beta", 0.5f, &beta).ok()) return false;
  if (!Near(alpha, kSixth) || !Near(beta, 0.5f)) return false;
  const int x = h.inputs[0];
  const int y = h.outputs[0];
  const int m = index.SoleConsumer(y);
  if (m < 0 || !IsMulOf(*graph, m, x, y) || !SameShapeFloat(*graph, x, graph->nodes()[m].outputs[0])) return false;
  Rewrite(graph, x, m, {hs}, dead);
  return true;
}

bool RecognizeAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const std::string& op = graph->nodes()[k].op_type;
  if (op == "Clip") return MatchClipForm(graph, index, k, dead);
  if (op == "HardSigmoid") return MatchHardSigmoidForm(graph, index, k, dead);
  return false;
}

}  // namespace

int RecognizeHardSwish(Graph* graph) { return RewriteToFixpoint(graph, RecognizeAt); }

}  // namespace compiler
}  // namespace npurt
