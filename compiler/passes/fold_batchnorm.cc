// BatchNormalization folding: Conv(x, W, B) -> BN(scale, bias, mean, var) is
// Conv(x, W', B') with, per output channel o,
//   f = scale[o] / sqrt(var[o] + epsilon)
//   W'[weights of o] = W[weights of o] * f
//   B'[o] = (B[o] - mean[o]) * f + bias[o]      (B = 0 when the Conv has none)
// The same holds for ConvTranspose, whose weights are [C, M/group, k...]:
// output channel o = g * (M/group) + m gathers W[c, m, ...] over the input
// channels c of group g.
// f and B' are computed in double, like the BN kernel. W' and B' are new
// constants (W may be shared with another Conv). The Conv then writes the BN's
// output tensor, so a BN feeding a graph output folds too.
//
// Conditions: the Conv's output is read only by the BN and is not a graph
// output; the Conv carries no fused activation; W, B and the four BN parameters
// are float32 constants of the expected sizes; every f is finite (a BN that
// divides by zero stays as it is). A BN anywhere else stays too (the runtime
// runs BatchNormalization as is).
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

bool ReadFloat32Constant(const Graph& graph, int tensor, int64_t count, std::vector<float>* values) {
  if (ConstantElements(graph, tensor) != count || graph.tensors()[tensor].dtype != DataType::kFloat32) return false;
  return ReadConstantFloats(graph, tensor, values);
}

bool FoldAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& bn = graph->nodes()[k];
  if (bn.op_type != "BatchNormalization" || bn.inputs.size() != 5 || bn.outputs.size() != 1) return false;
  const int t = bn.inputs[0];
  if (t < 0 || index.SoleConsumer(t) != k) return false;
  const int p = index.producer(t);
  if (p < 0) return false;
  const IrNode& conv = graph->nodes()[p];
  const bool transposed = conv.op_type == "ConvTranspose";
  if ((conv.op_type != "Conv" && !transposed) || conv.outputs.size() != 1 || conv.inputs.size() < 2) return false;
  std::string activation;
  if (!conv.attrs.GetString("activation", "", &activation).ok() || !activation.empty()) return false;
  int64_t training_mode = 0, spatial = 1;
  float epsilon = 1e-5f;
  if (!bn.attrs.GetInt("training_mode", 0, &training_mode).ok() || training_mode != 0) return false;
  if (!bn.attrs.GetInt("spatial", 1, &spatial).ok() || spatial != 1) return false;
  if (!bn.attrs.GetFloat("epsilon", 1e-5f, &epsilon).ok() || !std::isfinite(epsilon)) return false;

  const int w_id = conv.inputs[1];
  const int b_id = conv.inputs.size() > 2 ? conv.inputs[2] : -1;
  const int64_t w_count = ConstantElements(*graph, w_id);
  if (w_count <= 0) return false;
  const IrTensor& w_tensor = graph->tensors()[w_id];
  if (w_tensor.dtype != DataType::kFloat32 || w_tensor.shape.size() < 3) return false;
  const Shape ws = w_tensor.shape;
  int64_t maps = 0;
  std::vector<int64_t> channel_of;
  if (!WeightOutputChannels(conv, ws, &maps, &channel_of)) return false;

  std::vector<float> w, b(static_cast<size_t>(maps), 0.0f), scale, bias, mean, var;
  if (!ReadConstantFloats(*graph, w_id, &w)) return false;
  if (b_id >= 0 && !ReadFloat32Constant(*graph, b_id, maps, &b)) return false;
  if (!ReadFloat32Constant(*graph, bn.inputs[1], maps, &scale) ||
      !ReadFloat32Constant(*graph, bn.inputs[2], maps, &bias) ||
      !ReadFloat32Constant(*graph, bn.inputs[3], maps, &mean) ||
      !ReadFloat32Constant(*graph, bn.inputs[4], maps, &var)) {
    return false;
  }

  std::vector<float> new_b(static_cast<size_t>(maps));
  std::vector<double> factor(static_cast<size_t>(maps));
  for (int64_t o = 0; o < maps; ++o) {
    const double f = scale[o] / std::sqrt(static_cast<double>(var[o]) + epsilon);
    if (!std::isfinite(f)) return false;
    factor[o] = f;
    new_b[o] = static_cast<float>((static_cast<double>(b[o]) - mean[o]) * f + bias[o]);
  }
  for (int64_t i = 0; i < w_count; ++i) w[i] = static_cast<float>(w[i] * factor[channel_of[i]]);

  const std::string w_name = w_tensor.name + ":bn_folded";
  const std::string b_name = b_id >= 0 ? graph->tensors()[b_id].name + ":bn_folded" : conv.name + ":bias_bn_folded";
  const Shape w_shape = ws;
  const int new_w = AddUniqueFloatConstant(graph, w_name, w_shape, w);
  const int new_bias = AddUniqueFloatConstant(graph, b_name, {maps}, new_b);
  const int y = bn.outputs[0];
  IrNode& fused = graph->nodes()[p];  // `conv` and `bn` stay valid: AddConstant grows tensors only
  fused.inputs.resize(3);
  fused.inputs[1] = new_w;
  fused.inputs[2] = new_bias;
  fused.outputs[0] = y;
  (*dead)[k] = true;
  return true;
}

}  // namespace

int FoldBatchNorm(Graph* graph) { return RewriteToFixpoint(graph, FoldAt); }

}  // namespace compiler
}  // namespace npurt
