// QDQ models (ONNX Runtime's quantizer, PyTorch's export of quantized models, QAT tools) mark each int8
// activation with a QuantizeLinear -> DequantizeLinear pair: x -> Q(s, z) -> DQ(s, z) -> readers. The pair
// says "x is stored in int8 with scale s and zero point z"; this pass takes that as x's parameters
// (IrTensor::model_quant, in int8 form: a uint8 zero point z becomes z - 128, the same real values) and
// lets the readers read x. The quantizer then stores x in int8 with exactly those parameters, which
// reproduces the pair's rounding; the float graph in between computes without it (the only results this
// pass changes, and what makes the graph's float reference the model's float model).
//
// Conditions: x is a computed float tensor; the pair's scale and zero point are constant scalars and
// equal (values) on both sides; x has no other parameters already. A DequantizeLinear whose output is a
// graph output hands its tensor to x's producer (the output keeps its name). A QuantizeLinear that other
// nodes still read (a uint8 graph output) stays, and so does a DequantizeLinear of computed codes; both
// still mark the float side with their parameters (MarkOneSided).
#include <cstring>
#include <vector>

#include "compiler/ir/quant_params.h"
#include "compiler/passes/graph_utils.h"
#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {
namespace {

// The int8-form parameters of a per-tensor QuantizeLinear / DequantizeLinear node with a positive scale, or false.
bool PairParams(const Graph& g, const IrNode& node, DataType codes, QuantInfo* q) {
  if (node.inputs.size() < 2 || node.inputs.size() > 3) return false;
  float scale = 0.0f;
  if (!ReadScalarConstant(g, node.inputs[1], &scale) || !(scale > 0.0f)) return false;
  if (!ReadQuantParams(g, node.inputs[1], node.inputs.size() == 3 ? node.inputs[2] : -1, codes, -1, q)) return false;
  q->axis = -1;
  return true;
}

bool SameParams(const QuantInfo& a, const QuantInfo& b) {
  return a.scale.size() == b.scale.size() && a.zero_point == b.zero_point && a.axis == b.axis &&
         std::memcmp(a.scale.data(), b.scale.data(), a.scale.size() * sizeof(float)) == 0;
}

// Ops that move int8 codes without computing (QOperator models run them on the codes between a
// QuantizeLinear and the next op's DequantizeLinear); max pooling commutes with the increasing dequantization.
bool MovesCodes(const std::string& op) {
  return op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" || op == "Transpose" ||
         op == "Identity" || op == "MaxPool" || op == "GlobalMaxPool" || op == "DepthToSpace" ||
         op == "SpaceToDepth" || op == "Slice";
}

// DQ(move(codes)) -> move(DQ(codes)): the DequantizeLinear moves up to the QuantizeLinear it pairs with.
bool HoistDequantizeAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>*) {
  Graph& g = *graph;
  const IrNode& dq = g.nodes()[k];
  if (dq.op_type != "DequantizeLinear" || dq.inputs.empty() || dq.outputs.size() != 1) return false;
  const int codes = dq.inputs[0];
  const int m = index.producer(codes);
  if (m < 0 || index.SoleConsumer(codes) != k) return false;
  const IrNode& move = g.nodes()[m];
  QuantInfo params;
  if (!MovesCodes(move.op_type) || move.outputs.size() != 1 || move.inputs.empty() || move.inputs[0] < 0 ||
      g.tensors()[move.inputs[0]].is_constant || g.tensors()[move.inputs[0]].dtype != g.tensors()[codes].dtype ||
      !PairParams(g, dq, g.tensors()[codes].dtype, &params)) {
    return false;
  }
  const std::string name = UniqueTensorName(g, g.tensors()[move.inputs[0]].name + ":dequantized");
  const Shape shape = g.tensors()[move.inputs[0]].shape;
  const int dequantized = g.AddTensor(name, shape, DataType::kFloat32);
  g.tensors()[dequantized].has_shape = true;
  IrNode hoisted = g.nodes()[k];
  hoisted.inputs[0] = g.nodes()[m].inputs[0];
  hoisted.outputs[0] = dequantized;
  g.nodes()[m].inputs[0] = dequantized;
  g.nodes()[m].outputs[0] = dq.outputs[0];
  g.nodes().erase(g.nodes().begin() + k);
  g.nodes().insert(g.nodes().begin() + m, std::move(hoisted));
  return true;
}

bool ExtractAt(Graph* graph, const GraphIndex& index, int k, std::vector<bool>* dead) {
  Graph& g = *graph;
  const IrNode& q = g.nodes()[k];
  if (q.op_type != "QuantizeLinear" || q.outputs.size() != 1) return false;
  int x = q.inputs.empty() ? -1 : q.inputs[0];
  if (x < 0 || g.tensors()[x].is_constant || g.tensors()[x].dtype != DataType::kFloat32) return false;
  const int y = q.outputs[0];
  QuantInfo params;
  if (!PairParams(g, q, g.tensors()[y].dtype, &params)) return false;
  if (!g.tensors()[x].model_quant.empty() && !SameParams(g.tensors()[x].model_quant, params)) return false;

  std::vector<int> to_output;  // dequantized graph outputs
  int stripped = 0;
  for (const TensorUse& use : index.uses(y)) {
    const IrNode& dq = g.nodes()[use.node];
    QuantInfo dq_params;
    if (dq.op_type != "DequantizeLinear" || use.slot != 0 || dq.outputs.size() != 1 ||
        !PairParams(g, dq, g.tensors()[y].dtype, &dq_params) || !SameParams(params, dq_params)) {
      continue;
    }
    const int z = dq.outputs[0];
    if (index.is_graph_output(z)) {
      to_output.push_back(use.node);
      continue;
    }
    ReplaceUses(graph, z, x);
    (*dead)[use.node] = true;
    ++stripped;
  }
  // One dequantized graph output can take x's place (its producer writes it); further ones keep their pair.
  const int producer = index.producer(x);
  if (!to_output.empty() && producer >= 0 && !index.is_graph_input(x) && !index.is_graph_output(x)) {
    const int z = g.nodes()[to_output[0]].outputs[0];
    for (int& o : g.nodes()[producer].outputs) {
      if (o == x) o = z;
    }
    ReplaceUses(graph, x, z);
    (*dead)[to_output[0]] = true;
    ++stripped;
    x = z;
  }
  if (stripped == 0) return false;
  bool read = index.is_graph_output(y);
  for (const TensorUse& use : index.uses(y)) read = read || !(*dead)[use.node];
  if (!read) (*dead)[k] = true;
  g.tensors()[x].model_quant = params;
  return true;
}

}  // namespace

// The one-sided marks: a QuantizeLinear that stays (its codes are a graph output, a QOperator model's last
// op) quantizes a tensor the quantizer may as well store with its parameters, and a DequantizeLinear of
// computed codes (a uint8 graph input) writes values its parameters hold exactly. Both round trips are
// exact, so the int8 readers and writers around them lose nothing.
void MarkOneSided(Graph* graph) {
  Graph& g = *graph;
  for (const IrNode& n : g.nodes()) {
    QuantInfo params;
    if (n.op_type == "QuantizeLinear" && n.outputs.size() == 1 && !n.inputs.empty() && n.inputs[0] >= 0) {
      IrTensor& x = g.tensors()[n.inputs[0]];
      if (!x.is_constant && x.dtype == DataType::kFloat32 && x.model_quant.empty() &&
          PairParams(g, n, g.tensors()[n.outputs[0]].dtype, &params)) {
        x.model_quant = params;
      }
    } else if (n.op_type == "DequantizeLinear" && n.outputs.size() == 1 && !n.inputs.empty() && n.inputs[0] >= 0) {
      const IrTensor& x = g.tensors()[n.inputs[0]];
      IrTensor& y = g.tensors()[n.outputs[0]];
      if (!x.is_constant && y.model_quant.empty() && PairParams(g, n, x.dtype, &params)) y.model_quant = params;
    }
  }
}

Status ExtractQdqParams(Graph* graph, int* pairs) {
  if (RewriteToFixpoint(graph, HoistDequantizeAt) > 0) NPURT_RETURN_IF_ERROR(graph->InferShapes());
  const int extracted = RewriteToFixpoint(graph, ExtractAt);
  if (pairs != nullptr) *pairs = extracted;
  MarkOneSided(graph);
  return Status::Ok();
}

bool HasModelActivationParams(const Graph& graph) {
  for (const IrNode& n : graph.nodes()) {
    for (const std::vector<int>* list : {&n.inputs, &n.outputs}) {
      for (int t : *list) {
        if (t >= 0 && !graph.tensors()[t].is_constant && !graph.tensors()[t].model_quant.empty()) return true;
      }
    }
  }
  return false;
}

}  // namespace compiler
}  // namespace npurt
