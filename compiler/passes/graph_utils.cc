#include "compiler/passes/graph_utils.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

namespace npurt {
namespace compiler {

GraphIndex::GraphIndex(const Graph& graph) {
  const size_t n = graph.tensors().size();
  producer_.assign(n, -1);
  uses_.assign(n, {});
  is_output_.assign(n, false);
  is_input_.assign(n, false);
  has_model_quant_.assign(n, false);
  for (size_t t = 0; t < n; ++t) has_model_quant_[t] = !graph.tensors()[t].model_quant.empty();
  const std::vector<IrNode>& nodes = graph.nodes();
  for (size_t k = 0; k < nodes.size(); ++k) {
    for (size_t s = 0; s < nodes[k].inputs.size(); ++s) {
      const int t = nodes[k].inputs[s];
      if (t >= 0 && static_cast<size_t>(t) < n) uses_[t].push_back({static_cast<int>(k), static_cast<int>(s)});
    }
    for (int t : nodes[k].outputs) {
      if (t >= 0 && static_cast<size_t>(t) < n) producer_[t] = static_cast<int>(k);
    }
  }
  for (int t : graph.outputs()) {
    if (t >= 0 && static_cast<size_t>(t) < n) is_output_[t] = true;
  }
  for (const IrInput& in : graph.inputs()) {
    if (in.tensor >= 0 && static_cast<size_t>(in.tensor) < n) is_input_[in.tensor] = true;
  }
}

int GraphIndex::SoleConsumer(int tensor) const {
  if (is_output_[tensor] || uses_[tensor].size() != 1 || has_model_quant_[tensor]) return -1;
  return uses_[tensor][0].node;
}

int64_t ConstantElements(const Graph& graph, int tensor) {
  if (tensor < 0 || static_cast<size_t>(tensor) >= graph.tensors().size()) return -1;
  const IrTensor& t = graph.tensors()[tensor];
  if (!t.is_constant || !t.has_shape) return -1;
  const int64_t n = NumElements(t.shape);
  if (n < 0 || t.data.size() != static_cast<size_t>(n) * DataTypeSize(t.dtype)) return -1;
  return n;
}

bool ReadConstantFloats(const Graph& graph, int tensor, std::vector<float>* values) {
  const int64_t n = ConstantElements(graph, tensor);
  if (n < 0) return false;
  const IrTensor& t = graph.tensors()[tensor];
  values->resize(static_cast<size_t>(n));
  const uint8_t* src = t.data.data();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.dtype) {
      case DataType::kFloat32: {
        float v;
        std::memcpy(&v, src + i * sizeof(float), sizeof(v));
        (*values)[i] = v;
        break;
      }
      case DataType::kInt32: {
        int32_t v;
        std::memcpy(&v, src + i * sizeof(int32_t), sizeof(v));
        (*values)[i] = static_cast<float>(v);
        break;
      }
      case DataType::kInt64: {
        int64_t v;
        std::memcpy(&v, src + i * sizeof(int64_t), sizeof(v));
        (*values)[i] = static_cast<float>(v);
        break;
      }
      case DataType::kBool:
      case DataType::kUint8: (*values)[i] = static_cast<float>(src[i]); break;
      default: return false;
    }
  }
  return true;
}

bool ReadScalarConstant(const Graph& graph, int tensor, float* value) {
  if (ConstantElements(graph, tensor) != 1) return false;
  std::vector<float> v;
  if (!ReadConstantFloats(graph, tensor, &v)) return false;
  *value = v[0];
  return true;
}

bool IsScalarConstant(const Graph& graph, int tensor, float expected, float tolerance) {
  float v = 0.0f;
  return ReadScalarConstant(graph, tensor, &v) && std::fabs(v - expected) <= tolerance;
}

bool ReadClipBounds(const Graph& graph, const IrNode& clip, float* lo, float* hi) {
  if (clip.op_type != "Clip" || clip.inputs.empty() || clip.inputs.size() > 3) return false;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float bounds[2] = {-kInf, kInf};
  static const char* const kAttr[2] = {"min", "max"};
  for (int i = 0; i < 2; ++i) {
    const size_t slot = static_cast<size_t>(i) + 1;
    const int t = slot < clip.inputs.size() ? clip.inputs[slot] : -1;
    if (t >= 0) {
      if (clip.attrs.Has(kAttr[i]) || graph.tensors()[t].dtype != DataType::kFloat32) return false;
      if (!ReadScalarConstant(graph, t, &bounds[i])) return false;
    } else if (!clip.attrs.GetFloat(kAttr[i], bounds[i], &bounds[i]).ok()) {
      return false;
    }
  }
  *lo = bounds[0];
  *hi = bounds[1];
  return true;
}

std::string UniqueTensorName(const Graph& graph, const std::string& base) {
  std::unordered_set<std::string> names;
  for (const IrTensor& t : graph.tensors()) names.insert(t.name);
  if (names.count(base) == 0) return base;
  for (int i = 1;; ++i) {
    std::string candidate = base + "_" + std::to_string(i);
    if (names.count(candidate) == 0) return candidate;
  }
}

int AddUniqueFloatConstant(Graph* graph, const std::string& base, Shape shape, const std::vector<float>& values) {
  return graph->AddFloatConstant(UniqueTensorName(*graph, base), std::move(shape), values);
}

void EraseNodes(Graph* graph, const std::vector<bool>& dead) {
  std::vector<IrNode>& nodes = graph->nodes();
  size_t keep = 0;
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k < dead.size() && dead[k]) continue;
    if (keep != k) nodes[keep] = std::move(nodes[k]);
    ++keep;
  }
  nodes.resize(keep);
}

void ReplaceUses(Graph* graph, int from, int to) {
  for (IrNode& node : graph->nodes()) {
    for (int& t : node.inputs) {
      if (t == from) t = to;
    }
  }
}

int RewriteToFixpoint(Graph* graph, const NodeRewrite& rewrite) {
  int count = 0;
  for (bool changed = true; changed;) {
    changed = false;
    const GraphIndex index(*graph);
    std::vector<bool> dead(graph->nodes().size(), false);
    for (size_t k = 0; k < graph->nodes().size(); ++k) {
      if (rewrite(graph, index, static_cast<int>(k), &dead)) {
        EraseNodes(graph, dead);
        ++count;
        changed = true;
        break;
      }
    }
  }
  return count;
}

bool WeightOutputChannels(const IrNode& conv, const Shape& w, int64_t* maps, std::vector<int64_t>* channel_of) {
  const bool transposed = conv.op_type == "ConvTranspose";
  if ((conv.op_type != "Conv" && !transposed) || w.size() < 3) return false;
  int64_t group = 1;
  if (!conv.attrs.GetInt("group", 1, &group).ok() || group < 1 || w[0] <= 0 || w[1] <= 0) return false;
  if (transposed && w[0] % group != 0) return false;
  const int64_t count = NumElements(w);
  if (count <= 0) return false;
  const int64_t taps = count / (w[0] * w[1]);
  *maps = transposed ? w[1] * group : w[0];
  channel_of->resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = i / (w[1] * taps), col = (i / taps) % w[1];
    // ConvTranspose: input channel `row` belongs to group row / (C/group), whose outputs start at group * (M/group).
    (*channel_of)[static_cast<size_t>(i)] = transposed ? row / (w[0] / group) * w[1] + col : row;
  }
  return true;
}

bool IsConstantTensor(const Graph& graph, int tensor) { return tensor >= 0 && graph.tensors()[tensor].is_constant; }

bool SplitConstant(const Graph& graph, const IrNode& node, int* constant, int* other) {
  if (node.inputs.size() != 2) return false;
  for (int s = 0; s < 2; ++s) {
    if (IsConstantTensor(graph, node.inputs[s]) && !IsConstantTensor(graph, node.inputs[1 - s])) {
      *constant = node.inputs[s];
      *other = node.inputs[1 - s];
      return true;
    }
  }
  return false;
}

bool PerChannelValues(const Graph& graph, int c, size_t rank, int64_t maps, std::vector<float>* values) {
  const int64_t n = ConstantElements(graph, c);
  const IrTensor& t = graph.tensors()[c];
  if (n < 1 || t.dtype != DataType::kFloat32 || t.shape.size() > rank) return false;
  std::vector<float> raw;
  if (!ReadConstantFloats(graph, c, &raw)) return false;
  for (size_t j = 0; j < t.shape.size(); ++j) {
    const size_t pos = rank - t.shape.size() + j;  // right-aligned with the Conv output
    if (t.shape[j] != 1 && (pos != 1 || t.shape[j] != maps)) return false;
  }
  values->assign(static_cast<size_t>(maps), raw[0]);
  if (n == maps && maps != 1) *values = raw;
  for (float v : *values) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

}  // namespace compiler
}  // namespace npurt
