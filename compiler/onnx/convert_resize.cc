// Resize and Upsample.
//   Resize opset 10: (X, scales); opset >= 11: (X, roi, scales, sizes), any of
//   the last three omitted or empty. The runtime op tells the forms apart by
//   the input count (2 = opset 10 semantics: asymmetric coordinates and the
//   simple nearest rule), so an opset >= 11 node always gets at least 3 inputs.
//   Upsample (opset 7-9): scales as attribute (7, 8) or input (9); it has the
//   semantics of opset-10 Resize, so it becomes Resize(X, scales).
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertResize(NodeContext& ctx, std::vector<int>* outputs) {
  NPURT_RETURN_IF_ERROR(RequireShapeInputsConstant(ctx));
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  std::vector<int> inputs = ctx.inputs();
  if (ctx.opset() < 11) {
    if (inputs.size() != 2 || inputs[1] < 0) return ctx.Error("expects inputs (X, scales) in opset %d", ctx.opset());
  } else {
    while (inputs.size() < 3) inputs.push_back(-1);
  }
  return ctx.Emit("Resize", inputs, std::move(attrs), 1, outputs);
}

Status ConvertUpsample(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"scales", "height_scale", "width_scale"}));
  std::string mode;
  NPURT_RETURN_IF_ERROR(ctx.Wrap(attrs.GetString("mode", "nearest", &mode)));
  if (mode == "bilinear" || mode == "trilinear") attrs.SetString("mode", "linear");
  if (ctx.has_input(1)) NPURT_RETURN_IF_ERROR(ctx.RequireConstant(1));
  int scales = ctx.input(1);
  if (scales < 0) {
    const onnx::AttributeProto* a = ctx.FindAttribute("scales");
    if (a == nullptr) return ctx.Error("has neither a scales input nor a scales attribute");
    std::vector<float> values(a->floats().begin(), a->floats().end());
    scales = ctx.AddConstant("scales", {static_cast<int64_t>(values.size())}, DataType::kFloat32, values.data(),
                             values.size() * sizeof(float));
  }
  return ctx.Emit("Resize", {ctx.input(0), scales}, std::move(attrs), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
