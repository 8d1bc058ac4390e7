#include "compiler/quant/smooth_activations.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "compiler/passes/graph_utils.h"

namespace npurt {
namespace compiler {
namespace {

constexpr float kMaxScale = 64.0f;

// How the producer of the smoothed tensor absorbs 1 / s.
struct Absorber {
  enum Kind { kNone, kAffine, kScale, kConv } kind = kNone;
  int add = -1, mul = -1, conv = -1;  // node indices
};

Absorber FindAbsorber(const Graph& g, const GraphIndex& index, int x, int64_t channels) {
  Absorber a;
  const int p = index.producer(x);
  if (p < 0) return a;
  const IrNode& n = g.nodes()[p];
  std::vector<float> values;
  int c = -1, other = -1;
  if (n.op_type == "Add" && SplitConstant(g, n, &c, &other) && PerChannelValues(g, c, 4, channels, &values)) {
    const int q = index.producer(other);
    if (q < 0 || index.SoleConsumer(other) != p) return a;
    const IrNode& m = g.nodes()[q];
    int ca = -1, y = -1;
    if (m.op_type == "Mul" && SplitConstant(g, m, &ca, &y) && PerChannelValues(g, ca, 4, channels, &values)) {
      a.kind = Absorber::kAffine;
      a.add = p;
      a.mul = q;
    }
    return a;
  }
  if (n.op_type == "Mul" && SplitConstant(g, n, &c, &other) && PerChannelValues(g, c, 4, channels, &values)) {
    a.kind = Absorber::kScale;
    a.mul = p;
    return a;
  }
  if (n.op_type == "Conv" && n.outputs.size() == 1) {
    // Any group: output channel k's weights and bias are its own, so dividing them by s_k is exact.
    std::string activation;
    if (!n.attrs.GetString("activation", "", &activation).ok() || !(activation.empty() || activation == "Relu")) return a;
    if (!IsConstantTensor(g, n.inputs[1])) return a;
    if (n.inputs.size() > 2 && n.inputs[2] >= 0 && !IsConstantTensor(g, n.inputs[2])) return a;
    a.kind = Absorber::kConv;
    a.conv = p;
  }
  return a;
}

// Replaces the constant operand of two-input node `k` by its per-channel values times `factor[c]`.
void ScaleConstantOperand(Graph* g, int k, const std::vector<float>& factor) {
  IrNode& n = g->nodes()[k];
  int c = -1, other = -1;
  SplitConstant(*g, n, &c, &other);
  std::vector<float> values;
  PerChannelValues(*g, c, 4, static_cast<int64_t>(factor.size()), &values);
  for (size_t i = 0; i < values.size(); ++i) values[i] *= factor[i];
  const int scaled = AddUniqueFloatConstant(g, g->tensors()[c].name + ":smoothed",
                                            {1, static_cast<int64_t>(factor.size()), 1, 1}, values);
  for (int& t : g->nodes()[k].inputs) {
    if (t == c) t = scaled;
  }
}

// Multiplies the slices of constant `w` along `axis` by `factor` into a fresh constant; returns it.
int ScaleAlongAxis(Graph* g, int w, int axis, const std::vector<float>& factor) {
  std::vector<float> values;
  ReadConstantFloats(*g, w, &values);
  const Shape shape = g->tensors()[w].shape;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t channels = shape[static_cast<size_t>(axis)];
  for (size_t i = 0; i < values.size(); ++i) values[i] *= factor[static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels)];
  return AddUniqueFloatConstant(g, g->tensors()[w].name + ":smoothed", shape, values);
}

}  // namespace

Status SmoothActivations(const std::map<std::string, TensorStats>& stats, Graph* graph, int* count) {
  Graph& g = *graph;
  int smoothed = 0;
  const size_t num_tensors = g.tensors().size();
  GraphIndex index(g);
  for (size_t t = 0; t < num_tensors; ++t) {
    const IrTensor& x = g.tensors()[t];
    if (x.is_constant || x.shape.size() != 4 || index.is_graph_input(static_cast<int>(t)) ||
        index.is_graph_output(static_cast<int>(t)) || index.uses(static_cast<int>(t)).empty()) {
      continue;
    }
    auto it = stats.find(x.name);
    const int64_t channels = x.shape[1];
    if (it == stats.end() || static_cast<int64_t>(it->second.channel_absmax.size()) != channels) continue;
    // Every reader: input 0 of an ungrouped Conv with constant weights.
    std::vector<float> w_absmax(static_cast<size_t>(channels), 0.0f);
    bool readers_ok = true;
    for (const TensorUse& use : index.uses(static_cast<int>(t))) {
      const IrNode& n = g.nodes()[use.node];
      int64_t group = 1;
      if (n.op_type != "Conv" || use.slot != 0 || !n.attrs.GetInt("group", 1, &group).ok() || group != 1 ||
          !IsConstantTensor(g, n.inputs[1])) {
        readers_ok = false;
        break;
      }
      std::vector<float> w;
      const Shape& ws = g.tensors()[n.inputs[1]].shape;
      if (!ReadConstantFloats(g, n.inputs[1], &w) || ws.size() != 4 || ws[1] != channels) {
        readers_ok = false;
        break;
      }
      const int64_t taps = ws[2] * ws[3];
      for (size_t i = 0; i < w.size(); ++i) {
        float& m = w_absmax[static_cast<size_t>((static_cast<int64_t>(i) / taps) % channels)];
        m = std::max(m, std::fabs(w[i]));
      }
    }
    if (!readers_ok) continue;
    const Absorber absorber = FindAbsorber(g, index, static_cast<int>(t), channels);
    if (absorber.kind == Absorber::kNone) continue;

    std::vector<float> s(static_cast<size_t>(channels), 1.0f), inv(s.size(), 1.0f);
    for (size_t k = 0; k < s.size(); ++k) {
      const float xa = it->second.channel_absmax[k], wa = w_absmax[k];
      if (xa > 0.0f && wa > 0.0f) s[k] = std::clamp(std::sqrt(xa / wa), 1.0f / kMaxScale, kMaxScale);
      inv[k] = 1.0f / s[k];
    }
    // Readers: weights of input channel k times s_k (a fresh constant per reader).
    std::vector<TensorUse> uses = index.uses(static_cast<int>(t));
    for (const TensorUse& use : uses) {
      const int w = g.nodes()[use.node].inputs[1];
      const int scaled = ScaleAlongAxis(&g, w, 1, s);
      g.nodes()[use.node].inputs[1] = scaled;
    }
    // Producer: output channel k divided by s_k.
    switch (absorber.kind) {
      case Absorber::kAffine:
        ScaleConstantOperand(&g, absorber.mul, inv);
        ScaleConstantOperand(&g, absorber.add, inv);
        break;
      case Absorber::kScale: ScaleConstantOperand(&g, absorber.mul, inv); break;
      case Absorber::kConv: {
        IrNode& conv = g.nodes()[absorber.conv];
        conv.inputs[1] = ScaleAlongAxis(&g, conv.inputs[1], 0, inv);
        if (conv.inputs.size() > 2 && conv.inputs[2] >= 0) {
          g.nodes()[absorber.conv].inputs[2] = ScaleAlongAxis(&g, g.nodes()[absorber.conv].inputs[2], 0, inv);
        }
        break;
      }
      case Absorber::kNone: break;
    }
    ++smoothed;
    index = GraphIndex(g);  // the rewrite added constants and changed the readers' inputs
  }
  *count = smoothed;
  return smoothed > 0 ? g.InferShapes() : Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
