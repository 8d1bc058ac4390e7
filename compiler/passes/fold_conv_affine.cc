// Per-channel affine folding: a Conv or ConvTranspose followed by an
// elementwise Mul, Add, Sub or Div with a constant that is one value or one value per output channel
// (shape [M,1,1], [1,M,1,1], [1], ...) becomes part of the Conv:
//   Mul(c): W'[weights of o] = W[weights of o] * c[o], B'[o] = B[o] * c[o]
//   Div(c): the same with 1 / c[o]
//   Add(c): B'[o] = B[o] + c[o]
//   Sub(c): B'[o] = B[o] - c[o]           (Conv output minus c only; c - conv stays)
// The Conv then writes the elementwise node's output tensor. Repeated to a
// fixpoint, so Conv -> Mul -> Add chains fold completely. PP-LCNetV3 (the
// PP-OCRv4 det and rec backbones) writes its "learnable affine block" this way
// (Conv -> Mul(scalar) -> Add(scalar) -> hard-swish), and paddle2onnx sometimes
// writes a Conv or ConvTranspose bias as a separate Add (the PP-OCRv4 det
// head); folding them lets the activation fuse and a following BatchNorm fold.
//
// Conditions as for BatchNormalization folding: the Conv's output is read only
// by that node and is not a graph output; the Conv has no fused activation;
// its weights and bias are float32 constants; the constant is float32, finite
// (and nonzero for Div), and broadcasting it does not change the output shape.
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

bool FoldAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& op = graph->nodes()[k];
  const std::string& type = op.op_type;
  if ((type != "Mul" && type != "Add" && type != "Sub" && type != "Div") || op.inputs.size() != 2 ||
      op.outputs.size() != 1) {
    return false;
  }
  // Which operand is the Conv output; Sub and Div only as the first.
  int slot = -1;
  for (int s = 0; s < 2 && slot < 0; ++s) {
    const int t = op.inputs[s];
    if (t < 0 || op.inputs[1 - s] < 0 || index.SoleConsumer(t) != k) continue;
    if (s == 1 && (type == "Sub" || type == "Div")) continue;
    const int p = index.producer(t);
    if (p >= 0 && (graph->nodes()[p].op_type == "Conv" || graph->nodes()[p].op_type == "ConvTranspose")) slot = s;
  }
  if (slot < 0) return false;
  const int t = op.inputs[slot];
  const int c = op.inputs[1 - slot];
  const int p = index.producer(t);
  const IrNode& conv = graph->nodes()[p];
  if (conv.outputs.size() != 1 || conv.inputs.size() < 2) return false;
  std::string activation;
  if (!conv.attrs.GetString("activation", "", &activation).ok() || !activation.empty()) return false;
  const IrTensor& out = graph->tensors()[t];
  const IrTensor& result = graph->tensors()[op.outputs[0]];
  if (!out.has_shape || out.shape.size() < 3 || !result.has_shape || result.shape != out.shape ||
      out.dtype != DataType::kFloat32) {
    return false;
  }

  const int w_id = conv.inputs[1];
  const int b_id = conv.inputs.size() > 2 ? conv.inputs[2] : -1;
  const int64_t w_count = ConstantElements(*graph, w_id);
  if (w_count <= 0 || graph->tensors()[w_id].dtype != DataType::kFloat32) return false;
  int64_t maps = 0;
  std::vector<int64_t> channel_of;
  if (!WeightOutputChannels(conv, graph->tensors()[w_id].shape, &maps, &channel_of) || maps != out.shape[1]) {
    return false;
  }
  std::vector<float> values, w, b(static_cast<size_t>(maps), 0.0f);
  if (!PerChannelValues(*graph, c, out.shape.size(), maps, &values)) return false;
  if (!ReadConstantFloats(*graph, w_id, &w)) return false;
  if (b_id >= 0 && (ConstantElements(*graph, b_id) != maps || graph->tensors()[b_id].dtype != DataType::kFloat32 ||
                    !ReadConstantFloats(*graph, b_id, &b))) {
    return false;
  }

  const bool scales = type == "Mul" || type == "Div";
  std::vector<float> factor(static_cast<size_t>(maps), 1.0f);
  for (int64_t o = 0; o < maps; ++o) {
    const float v = values[o];
    if (type == "Div" && v == 0.0f) return false;
    if (scales) {
      factor[o] = type == "Div" ? 1.0f / v : v;
      b[o] *= factor[o];
    } else {
      b[o] = type == "Add" ? b[o] + v : b[o] - v;
    }
  }
  if (scales) {
    for (int64_t i = 0; i < w_count; ++i) w[i] *= factor[channel_of[i]];
  }

  const std::string conv_name = conv.name;
  const Shape w_shape = graph->tensors()[w_id].shape;
  const std::string w_name = graph->tensors()[w_id].name;
  const std::string b_name = b_id >= 0 ? graph->tensors()[b_id].name : conv_name + ":bias";
  const int y = op.outputs[0];
  int new_w = w_id;
  if (scales) new_w = AddUniqueFloatConstant(graph, w_name + ":" + type, w_shape, w);
  const int new_b = AddUniqueFloatConstant(graph, b_name + ":" + type, {maps}, b);
  IrNode& fused = graph->nodes()[p];
  fused.inputs.resize(3);
  fused.inputs[1] = new_w;
  fused.inputs[2] = new_b;
  fused.outputs[0] = y;
  (*dead)[k] = true;
  return true;
}

}  // namespace

int FoldConvAffine(Graph* graph) { return RewriteToFixpoint(graph, FoldAt); }

}  // namespace compiler
}  // namespace npurt
