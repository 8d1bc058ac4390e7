// If. Exporters emit it mostly on conditions computed from shapes (constant once the input shapes
// are fixed): the chosen branch is inlined and the other never imported, as the vendor's toolkit
// does. On a condition computed at run time both branches are imported (they are side-effect
// free) and Where picks each output, which needs the branches' outputs to agree in shape and type.
#include "compiler/onnx/converter.h"
#include "compiler/onnx/fold_util.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

Status FindBranch(NodeContext& ctx, const char* name, const onnx::GraphProto** graph) {
  const onnx::AttributeProto* a = ctx.FindAttribute(name);
  if (a == nullptr || a->type() != onnx::AttributeProto::GRAPH || !a->has_g()) {
    return ctx.Error("attribute '%s' (a graph) is missing", name);
  }
  if (a->g().input_size() > 0) return ctx.Error("branch '%s' declares inputs; If branches take none", name);
  if (a->g().output_size() != ctx.num_outputs()) {
    return ctx.Error("branch '%s' has %d outputs, the node %d", name, a->g().output_size(), ctx.num_outputs());
  }
  *graph = &a->g();
  return Status::Ok();
}

}  // namespace

Status ConvertIf(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input 0 (cond) is missing");
  const onnx::GraphProto* then_branch = nullptr;
  const onnx::GraphProto* else_branch = nullptr;
  NPURT_RETURN_IF_ERROR(FindBranch(ctx, "then_branch", &then_branch));
  NPURT_RETURN_IF_ERROR(FindBranch(ctx, "else_branch", &else_branch));
  const IrTensor& cond = ctx.tensor(ctx.input(0));
  if (NumElements(cond.shape) != 1) {
    return ctx.Error("cond must have one element, it has shape %s", ShapeToString(cond.shape).c_str());
  }
  if (cond.is_constant) {
    const bool take_then = LoadValue(cond.dtype, cond.data.data(), 0) != 0;
    return ctx.ImportSubgraph(take_then ? *then_branch : *else_branch, ctx.name() + (take_then ? "/then" : "/else"),
                              outputs);
  }
  if (cond.dtype != DataType::kBool) return ctx.Error("cond must be BOOL, it is %s", DataTypeName(cond.dtype));
  const bool scalar_cond = cond.shape.empty();  // (importing the branches adds tensors: `cond` dangles then)
  std::vector<int> then_out, else_out;
  NPURT_RETURN_IF_ERROR(ctx.ImportSubgraph(*then_branch, ctx.name() + "/then", &then_out));
  NPURT_RETURN_IF_ERROR(ctx.ImportSubgraph(*else_branch, ctx.name() + "/else", &else_out));
  int select = ctx.input(0);
  if (!scalar_cond) {  // a scalar condition, so that Where keeps each branch output's shape
    const int scalar_shape = ctx.AddConstant("cond_shape", Shape{0}, DataType::kInt64, nullptr, 0);
    NPURT_RETURN_IF_ERROR(ctx.Emit1("Reshape", {select, scalar_shape}, {}, &select, "cond"));
  }
  for (size_t i = 0; i < then_out.size(); ++i) {
    const IrTensor& a = ctx.tensor(then_out[i]);
    const IrTensor& b = ctx.tensor(else_out[i]);
    if (a.dtype != b.dtype || a.shape != b.shape) {
      return ctx.Error(
          "unsupported If on a condition computed at run time: output %zu is %s %s in then_branch and %s %s in "
          "else_branch; npurt runs both branches and selects with Where, which needs one shape and type",
          i, DataTypeName(a.dtype), ShapeToString(a.shape).c_str(), DataTypeName(b.dtype),
          ShapeToString(b.shape).c_str());
    }
    int out = -1;
    NPURT_RETURN_IF_ERROR(ctx.Emit1("Where", {select, then_out[i], else_out[i]}, {}, &out, "select" + std::to_string(i)));
    outputs->push_back(out);
  }
  return Status::Ok();
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
