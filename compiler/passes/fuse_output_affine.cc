// Output affine fusion: a Mul by a constant, an Add of a constant, or a Mul then
// an Add, after a Conv with a fused activation become that Conv's
// `activation_scale` / `activation_shift` (runtime/kernels/ref/fused_activation.h):
// the Conv writes act(conv) * scale[c] + shift[c]. PP-LCNetV3's learnable affine
// blocks (a scalar scale and bias after each HardSwish, a fifth of PP-OCRv4 det's
// int8 time as separate memory-bound ops) then cost one multiply-add in the
// convolution's epilogue. A Conv without an activation needs none of this:
// fold_conv_affine puts such constants into its weights.
//
// Float graphs: the reference kernels round after the product and after the sum
// as the two ops do, so results do not change (oneDNN may fuse the multiply-add).
// Quantized graphs (Build runs this after quantization): the Conv writes the Add's
// output tensor, type and quantization; the ops' intermediate roundings (int16 in
// the hybrid scheme) go.
//
// Conditions: the Conv has an activation and no affine yet; every tensor on the
// chain is read by the next node alone and is not a graph output; the Mul and Add
// have no fused activation of their own and a finite float32 constant that is a
// scalar or one value per output channel broadcast along axis 1; the chain stays
// float, or stays quantized.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

// The per-channel constant of `node` (op `op_type`, reading `t` and a constant), or false.
bool ChannelConstant(const Graph& graph, const IrNode& node, const char* op_type, int t, int64_t maps, size_t rank,
                     std::vector<float>* values) {
  int c = -1, other = -1;
  return node.op_type == op_type && node.outputs.size() == 1 && !node.attrs.Has("activation") &&
         SplitConstant(graph, node, &c, &other) && other == t && PerChannelValues(graph, c, rank, maps, values);
}

bool Quantized(DataType type) { return type == DataType::kInt8 || type == DataType::kInt16; }

bool FuseAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& conv = graph->nodes()[k];
  if (conv.op_type != "Conv" || conv.outputs.size() != 1) return false;
  std::string activation;
  if (!conv.attrs.GetString("activation", "", &activation).ok() || activation.empty()) return false;
  if (conv.attrs.Has("activation_scale") || conv.attrs.Has("activation_shift")) return false;
  const int t = conv.outputs[0];
  const IrTensor& out = graph->tensors()[t];
  if (!out.has_shape || out.shape.size() < 3) return false;
  if (out.dtype != DataType::kFloat32 && !Quantized(out.dtype)) return false;
  const int64_t maps = out.shape[1];
  const size_t rank = out.shape.size();

  std::vector<float> scale, shift;
  int mul = -1, add = -1, y = t;
  int next = index.SoleConsumer(y);
  if (next >= 0 && ChannelConstant(*graph, graph->nodes()[next], "Mul", y, maps, rank, &scale)) {
    mul = next;
    y = graph->nodes()[mul].outputs[0];
    next = index.SoleConsumer(y);
  }
  if (next >= 0 && ChannelConstant(*graph, graph->nodes()[next], "Add", y, maps, rank, &shift)) {
    add = next;
    y = graph->nodes()[add].outputs[0];
  }
  if (mul < 0 && add < 0) return false;
  const DataType y_type = graph->tensors()[y].dtype;
  if (Quantized(y_type) != Quantized(out.dtype) || (!Quantized(y_type) && y_type != DataType::kFloat32)) return false;

  // One value when every channel has the same (a scalar in the model).
  for (std::vector<float>* v : {&scale, &shift}) {
    if (!v->empty() && std::all_of(v->begin(), v->end(), [v](float x) { return x == v->front(); })) {
      v->erase(v->begin() + 1, v->end());
    }
  }
  IrNode& fused = graph->nodes()[k];
  if (mul >= 0) fused.attrs.SetFloats("activation_scale", scale);
  if (add >= 0) fused.attrs.SetFloats("activation_shift", shift);
  fused.outputs[0] = y;
  if (Quantized(y_type)) fused.attrs.SetString("output_type", DataTypeName(y_type));
  if (mul >= 0) (*dead)[mul] = true;
  if (add >= 0) (*dead)[add] = true;
  return true;
}

}  // namespace

int FuseOutputAffines(Graph* graph) { return RewriteToFixpoint(graph, FuseAt); }

}  // namespace compiler
}  // namespace npurt
