// Nodes of domains other than ONNX's own become custom operators (runtime/ops/custom_op.h): the
// application computes them with the callbacks it registers (rknn_custom_op.h). Nothing can infer
// their outputs, so the model must declare each one's type and static shape (graph.value_info or the
// graph's outputs); the node is never folded, even on constant inputs.
#include "compiler/onnx/converter.h"
#include "runtime/ops/custom_op.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

bool IsOnnxDomain(const std::string& domain) {
  return domain.empty() || domain == "ai.onnx" || domain == "ai.onnx.ml" || domain == "ai.onnx.training" ||
         domain == "ai.onnx.preview.training";
}

Status ConvertCustomNode(NodeContext& ctx, const DeclaredTensorFn& declared, std::vector<int>* outputs) {
  const onnx::NodeProto& node = ctx.proto();
  const std::string kind = "custom op '" + node.domain() + "." + node.op_type() + "'";
  if (node.op_type().empty() || node.op_type().size() >= 256) {
    return ctx.Error("a custom op type must have 1 to 255 characters");
  }
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  for (const Attribute& a : attrs.list()) {
    if (IsReservedCustomAttr(a.name)) return ctx.Error("attribute '%s': names starting 'npurt.' are reserved", a.name.c_str());
  }
  attrs.SetString(kCustomOpTypeAttr, node.op_type());
  attrs.SetString(kCustomOpDomainAttr, node.domain());
  const int count = ctx.num_outputs();
  if (count == 0) return ctx.Error("a %s needs at least one output", kind.c_str());
  std::vector<int64_t> shapes, types;
  for (int i = 0; i < count; ++i) {
    const std::string& name = node.output(i);
    Shape shape;
    DataType dtype = DataType::kFloat32;
    if (name.empty() || !declared(name, &shape, &dtype)) {
      return ctx.Error("output %d ('%s') of this %s has no declared type and static shape: shape inference cannot "
                       "see inside custom ops, so add it to graph.value_info (onnx.helper.make_tensor_value_info), "
                       "as rknn-toolkit2's reg_custom_op(shape_infer) does",
                       i, name.c_str(), kind.c_str());
    }
    shapes.push_back(static_cast<int64_t>(shape.size()));
    shapes.insert(shapes.end(), shape.begin(), shape.end());
    types.push_back(static_cast<int64_t>(dtype));
  }
  attrs.SetInts(kCustomOutputShapesAttr, std::move(shapes));
  attrs.SetInts(kCustomOutputTypesAttr, std::move(types));
  Graph& g = ctx.graph();
  const int first = g.AddNode("Custom", ctx.inputs(), std::move(attrs), count, ctx.name());
  NPURT_RETURN_IF_ERROR(ctx.Wrap(g.InferNodeShapes(g.nodes().size() - 1)));
  for (int i = 0; i < count; ++i) outputs->push_back(first + i);
  return Status::Ok();
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
