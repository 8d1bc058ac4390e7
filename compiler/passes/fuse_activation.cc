// Activation fusion: an activation node whose input comes from a Conv, ConvTranspose or Gemm
// becomes that node's `activation` / `activation_params` attributes (contract
// in runtime/kernels/ref/fused_activation.h); a Relu after an Add becomes the
// Add's `activation` = "Relu". The producer then writes the activation's output
// tensor and the activation node goes. Kernels apply the activation to each
// output element with the standalone op's formula, so results do not change.
//
//   Relu                      -> "Relu"
//   Clip(min, max)            -> "Clip" [min, max]  (attributes, or constant
//                                scalar inputs; an omitted bound is -inf/+inf)
//   LeakyRelu(alpha)          -> "LeakyRelu" [alpha]
//   HardSigmoid(alpha, beta)  -> "HardSigmoid" [alpha, beta]
//   HardSwish                 -> "HardSwish"
//
// Conditions: the producer's output is read by the activation alone and is not
// a graph output; the producer has no activation yet; parameters are known
// constants and not NaN.
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

// The fused form of activation node `act`; false when it has none.
bool DescribeActivation(const Graph& graph, const IrNode& act, std::string* name, std::vector<float>* params) {
  params->clear();
  const std::string& op = act.op_type;
  if (op == "Relu" || op == "HardSwish") {
    if (act.inputs.size() != 1) return false;
    *name = op;
    return true;
  }
  if (op == "LeakyRelu") {
    float alpha = 0.01f;
    if (act.inputs.size() != 1 || !act.attrs.GetFloat("alpha", 0.01f, &alpha).ok()) return false;
    *name = op;
    *params = {alpha};
  } else if (op == "HardSigmoid") {
    float alpha = 0.2f, beta = 0.5f;
    if (act.inputs.size() != 1 || !act.attrs.GetFloat("alpha", 0.2f, &alpha).ok() ||
        !act.attrs.GetFloat("beta", 0.5f, &beta).ok()) {
      return false;
    }
    *name = op;
    *params = {alpha, beta};
  } else if (op == "Clip") {
    float lo = 0.0f, hi = 0.0f;
    if (!ReadClipBounds(graph, act, &lo, &hi)) return false;
    *name = op;
    *params = {lo, hi};
  } else {
    return false;
  }
  for (float v : *params) {
    if (std::isnan(v)) return false;
  }
  return true;
}

bool FuseAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  const IrNode& act = graph->nodes()[k];
  if (act.outputs.size() != 1 || act.inputs.empty() || act.inputs[0] < 0) return false;
  std::string name;
  std::vector<float> params;
  if (!DescribeActivation(*graph, act, &name, &params)) return false;
  const int t = act.inputs[0];
  if (index.SoleConsumer(t) != k) return false;
  const int p = index.producer(t);
  if (p < 0) return false;
  const IrNode& producer = graph->nodes()[p];
  if (producer.outputs.size() != 1 || producer.outputs[0] != t) return false;
  const bool conv_or_gemm =
      producer.op_type == "Conv" || producer.op_type == "ConvTranspose" || producer.op_type == "Gemm";
  const bool add_relu = producer.op_type == "Add" && name == "Relu";
  if (!conv_or_gemm && !add_relu) return false;
  if (producer.attrs.Has("activation") || producer.attrs.Has("activation_params")) return false;
  if (graph->tensors()[t].dtype != DataType::kFloat32) return false;

  const int y = act.outputs[0];
  IrNode& fused = graph->nodes()[p];
  fused.attrs.SetString("activation", name);
  if (!params.empty()) fused.attrs.SetFloats("activation_params", params);
  fused.outputs[0] = y;
  (*dead)[k] = true;
  return true;
}

}  // namespace

int FuseActivations(Graph* graph) { return RewriteToFixpoint(graph, FuseAt); }

}  // namespace compiler
}  // namespace npurt
