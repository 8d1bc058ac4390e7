// Cast: attribute `to` (an ONNX TensorProto type code) becomes the int
// attribute `dtype` holding the npurt DataType. DOUBLE maps to float32 (npurt
// has no float64; double tensors are imported as float32 too). Before opset 6
// `to` was the type's name as a string. EyeLike's `dtype` maps the same way.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertCast(NodeContext& ctx, std::vector<int>* outputs) {
  const onnx::AttributeProto* to = ctx.FindAttribute("to");
  if (to == nullptr) return ctx.Error("has no 'to' attribute");
  int code = static_cast<int>(to->i());
  if (to->type() == onnx::AttributeProto::STRING) {  // opset < 6: the type's name
    onnx::TensorProto::DataType named;
    if (!onnx::TensorProto::DataType_Parse(to->s(), &named)) return ctx.Error("unknown type '%s'", to->s().c_str());
    code = static_cast<int>(named);
  }
  DataType dtype;
  NPURT_RETURN_IF_ERROR(ctx.Wrap(OnnxTypeToDataType(code, &dtype)));
  // A Cast to the type its input has is the identity (PyTorch writes one between each QuantizeLinear and
  // DequantizeLinear of its quantized models' export): an Identity, which the passes remove.
  if (ctx.has_input(0) && ctx.tensor(ctx.input(0)).dtype == dtype && code != onnx::TensorProto::DOUBLE) {
    return ctx.Emit("Identity", {ctx.input(0)}, {}, 1, outputs);
  }
  Attributes attrs;
  attrs.SetInt("dtype", static_cast<int64_t>(dtype));
  return ctx.Emit("Cast", ctx.inputs(), std::move(attrs), 1, outputs);
}

// EyeLike's optional `dtype` is an ONNX type code too.
Status ConvertEyeLike(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"dtype"}));
  if (const onnx::AttributeProto* code = ctx.FindAttribute("dtype")) {
    DataType dtype;
    NPURT_RETURN_IF_ERROR(ctx.Wrap(OnnxTypeToDataType(static_cast<int>(code->i()), &dtype)));
    attrs.SetInt("dtype", static_cast<int64_t>(dtype));
  }
  return ctx.Emit("EyeLike", ctx.inputs(), std::move(attrs), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
