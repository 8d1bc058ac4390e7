// Residual add fusion: Conv -> Add(conv output, r) [-> the Add's fused Relu]
// becomes one Conv with r as its fourth input (`residual`, contract in
// runtime/kernels/ref/conv.h): y = act(conv(x) + bias + r). The convolution's
// kernels add r in their epilogue (oneDNN's binary or sum post-op, npurt's
// requantization rows), so the sum never makes a separate, memory-bound pass
// over three tensors (ResNet's 8-16 Adds, PP-OCRv4 det's FPN adds).
//
// Float graphs: the same sums in the same order in the reference kernel, so
// results do not change. Quantized graphs (Build runs this after quantization):
// the Conv writes the Add's output tensor, type and quantization; the Conv
// output's own rounding (int8, or int16 in the hybrid scheme) goes, so the fused
// layer rounds once where the two ops rounded twice.
//
// Conditions: the Conv has no activation or affine yet (the Add's activation
// becomes the Conv's, after the sum) and no residual; its output is read by the
// Add alone and is not a graph output; r has the output's exact shape (no
// broadcast), is computed (not a constant) and is not the Conv's output; the
// Add has no activation parameters; all three tensors are float32, or all are
// int8 / int16. The fused node takes the Add's place in the order (r may be
// computed after the Conv), under the Conv's name.
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

bool Quantized(DataType type) { return type == DataType::kInt8 || type == DataType::kInt16; }

bool FuseAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& conv = graph->nodes()[k];
  if (conv.op_type != "Conv" || conv.outputs.size() != 1 || conv.inputs.size() < 2 || conv.inputs.size() > 3) {
    return false;
  }
  for (const char* attr : {"activation", "activation_params", "activation_scale", "activation_shift"}) {
    if (conv.attrs.Has(attr)) return false;
  }
  const int t = conv.outputs[0];
  const int a = index.SoleConsumer(t);
  if (a < 0) return false;
  const IrNode& add = graph->nodes()[a];
  if (add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1 || add.attrs.Has("activation_params")) {
    return false;
  }
  const int r = add.inputs[0] == t ? add.inputs[1] : add.inputs[0];
  const int y = add.outputs[0];
  if (r < 0 || r == t || IsConstantTensor(*graph, r)) return false;
  const IrTensor& out = graph->tensors()[t];
  const IrTensor& res = graph->tensors()[r];
  const IrTensor& sum = graph->tensors()[y];
  if (!out.has_shape || !res.has_shape || !sum.has_shape || out.shape != res.shape || out.shape != sum.shape) {
    return false;
  }
  const bool all_float =
      out.dtype == DataType::kFloat32 && res.dtype == DataType::kFloat32 && sum.dtype == DataType::kFloat32;
  const bool all_quantized = Quantized(out.dtype) && Quantized(res.dtype) && Quantized(sum.dtype);
  if (!all_float && !all_quantized) return false;

  IrNode fused = conv;
  fused.inputs.resize(3, -1);  // an omitted bias stays omitted
  fused.inputs.push_back(r);
  fused.outputs[0] = y;
  std::string activation;
  if (add.attrs.GetString("activation", "", &activation).ok() && !activation.empty()) {
    fused.attrs.SetString("activation", activation);
  }
  if (all_quantized) fused.attrs.SetString("output_type", DataTypeName(sum.dtype));
  graph->nodes()[a] = std::move(fused);
  (*dead)[k] = true;
  return true;
}

}  // namespace

int FuseResidualAdds(Graph* graph) { return RewriteToFixpoint(graph, FuseAt); }

}  // namespace compiler
}  // namespace npurt
