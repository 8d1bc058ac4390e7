// The forms ONNX replaced before opset 7, so that old exports (PyTorch's
// opset 6, the opset 1 node tests) import with their own semantics:
//   Add/Sub/Mul/Div/Pow (and the folded comparisons/logic ops) < 7: with
//     broadcast=1 and `axis`, B's dims line up with A's starting at `axis`;
//     B gets trailing 1-dims so that numpy broadcasting does the same.
//     Without `axis` the legacy rule (suffix match) equals numpy's.
//   PRelu < 7: a 1-D slope of A's channel count is per channel (dim 1).
//   Concat < 4: `axis` defaults to 1.
//   Pad < 2: the attribute is called `paddings`.
//   Scatter (opsets 9-10): ScatterElements under its old name.
// Cast < 6 (a string `to`) is handled in convert_cast.cc.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

// Gives input `i` the shape `shape` (same data): a reshaped constant, or a Reshape node.
Status ReshapeInput(NodeContext& ctx, size_t i, const Shape& shape) {
  const IrTensor& t = ctx.tensor(ctx.input(i));
  if (t.is_constant) {
    const std::vector<uint8_t> data = t.data;
    ctx.set_input(i, ctx.AddConstant("in" + std::to_string(i) + ":reshaped", shape, t.dtype, data.data(), data.size()));
    return Status::Ok();
  }
  std::vector<int64_t> dims(shape.begin(), shape.end());
  const int target = ctx.AddConstant("in" + std::to_string(i) + ":shape", {static_cast<int64_t>(dims.size())},
                                     DataType::kInt64, dims.data(), dims.size() * sizeof(int64_t));
  int reshaped = -1;
  NPURT_RETURN_IF_ERROR(ctx.Emit1("Reshape", {ctx.input(i), target}, {}, &reshaped, ":in" + std::to_string(i) + ":reshape"));
  ctx.set_input(i, reshaped);
  return Status::Ok();
}

}  // namespace

Status ApplyLegacyBroadcast(NodeContext& ctx) {
  if (ctx.opset() >= 7 || ctx.IntAttribute("broadcast", 0) == 0 || ctx.FindAttribute("axis") == nullptr) {
    return Status::Ok();
  }
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("needs two inputs");
  const int64_t rank_a = static_cast<int64_t>(ctx.tensor(ctx.input(0)).shape.size());
  const Shape b = ctx.tensor(ctx.input(1)).shape;
  int64_t axis = ctx.IntAttribute("axis", 0);
  if (axis < 0) axis += rank_a;
  const int64_t trailing = rank_a - axis - static_cast<int64_t>(b.size());
  if (axis < 0 || trailing < 0) {
    return ctx.Error("legacy broadcast of shape %s at axis %lld does not fit rank %lld", ShapeToString(b).c_str(),
                     static_cast<long long>(ctx.IntAttribute("axis", 0)), static_cast<long long>(rank_a));
  }
  if (trailing == 0) return Status::Ok();
  Shape shape = b;
  shape.insert(shape.end(), static_cast<size_t>(trailing), 1);
  return ReshapeInput(ctx, 1, shape);
}

Status ConvertBinary(NodeContext& ctx, std::vector<int>* outputs) {
  NPURT_RETURN_IF_ERROR(ApplyLegacyBroadcast(ctx));
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"broadcast", "axis", "consumed_inputs"}));
  return ctx.Emit(ctx.op_type(), ctx.inputs(), std::move(attrs), 1, outputs);
}

Status ConvertPRelu(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.opset() < 7 && ctx.has_input(0) && ctx.has_input(1)) {
    const Shape& x = ctx.tensor(ctx.input(0)).shape;
    const Shape slope = ctx.tensor(ctx.input(1)).shape;
    if (x.size() > 2 && slope.size() == 1 && slope[0] == x[1] && slope[0] != 1) {
      Shape shape = slope;
      shape.insert(shape.end(), x.size() - 2, 1);
      NPURT_RETURN_IF_ERROR(ReshapeInput(ctx, 1, shape));
    }
  }
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"consumed_inputs"}));
  return ctx.Emit("PRelu", ctx.inputs(), std::move(attrs), 1, outputs);
}

Status ConvertConcat(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  if (ctx.opset() < 4 && !attrs.Has("axis")) attrs.SetInt("axis", 1);
  return ctx.Emit("Concat", ctx.inputs(), std::move(attrs), 1, outputs);
}

Status ConvertPad(NodeContext& ctx, std::vector<int>* outputs) {
  NPURT_RETURN_IF_ERROR(RequireShapeInputsConstant(ctx));
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"paddings"}));
  if (const onnx::AttributeProto* p = ctx.FindAttribute("paddings")) {
    if (!attrs.Has("pads")) attrs.SetInts("pads", {p->ints().begin(), p->ints().end()});
  }
  return ctx.Emit("Pad", ctx.inputs(), std::move(attrs), 1, outputs);
}

Status ConvertScatter(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {}));
  return ctx.Emit("ScatterElements", ctx.inputs(), std::move(attrs), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
