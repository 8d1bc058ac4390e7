// Quantized ONNX models. DequantizeLinear of a constant (a QDQ model's int8 weights) folds into a float
// constant that keeps the model's parameters (IrTensor::model_quant), so that the quantizer stores the same
// codes. The QOperator forms are lowered onto the QDQ form, DequantizeLinear -> float op -> QuantizeLinear,
// which computes what they define (ONNX's reference does the same) and which the quantizer turns back into
// npurt int8 with the model's scales and zero points:
//   QLinearConv(x, xs, xz, w, ws, wz, ys, yz, B)   -> Q(Conv(DQ(x), DQ(w), DQ(B at xs * ws)), ys, yz)
//   QLinearMatMul(a, as, az, b, bs, bz, ys, yz)    -> Q(MatMul(DQ(a), DQ(b)), ys, yz)
//   ConvInteger(x, w, xz, wz), MatMulInteger(...)  -> Cast<int32>(Conv / MatMul(DQ(x, 1, xz), DQ(w, 1, wz)))
// The integer ops' float sums are exact while every partial sum stays below 2^24 in magnitude.

#include "compiler/ir/quant_params.h"
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {
namespace {

// DequantizeLinear(x, scale, zero_point) along `axis` (ONNX's, may be negative); a constant x folds and keeps
// its parameters.
Status EmitDequantize(NodeContext& ctx, int x, int scale, int zero_point, int64_t axis, const std::string& suffix,
                      int* out) {
  Attributes attrs;
  attrs.SetInt("axis", axis);
  std::vector<int> inputs = {x, scale};
  if (zero_point >= 0) inputs.push_back(zero_point);
  const bool constant = ctx.tensor(x).is_constant;
  const int rank = static_cast<int>(ctx.tensor(x).shape.size());
  NPURT_RETURN_IF_ERROR(ctx.Emit1("DequantizeLinear", inputs, std::move(attrs), out, suffix));
  QuantInfo q;
  const int normalized = static_cast<int>(axis < 0 ? axis + rank : axis);
  // A folded constant keeps its int8 form (a model's quantized weights).
  if (constant && ctx.tensor(*out).is_constant &&
      ReadQuantParams(ctx.graph(), scale, zero_point, ctx.tensor(x).dtype, normalized, &q)) {
    ctx.graph().tensors()[*out].model_quant = std::move(q);
  }
  return Status::Ok();
}

// A float32 constant of ones shaped like `like` (the unit scale of an integer op's zero point), or a scalar.
int UnitScale(NodeContext& ctx, int like, const std::string& suffix) {
  const Shape shape = like >= 0 ? ctx.tensor(like).shape : Shape{};
  const std::vector<float> ones(static_cast<size_t>(NumElements(shape)), 1.0f);
  return ctx.AddConstant(suffix, shape, DataType::kFloat32, ones.data(), ones.size() * sizeof(float));
}

// The axis of a per-axis zero point of an integer op's operand: `per_axis` when it is 1-D with more than one
// element, else none (per tensor).
int64_t ZeroPointAxis(const NodeContext& ctx, int zero_point, int64_t per_axis) {
  return zero_point >= 0 && NumElements(ctx.tensor(zero_point).shape) > 1 ? per_axis : 1;
}

}  // namespace

Status ConvertDequantizeLinear(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.num_inputs() < 2) return ctx.Error("needs x and x_scale");
  if (ctx.num_inputs() > 3) return ctx.Error("has %zu inputs; the ONNX operator takes at most 3", ctx.num_inputs());
  int out = -1;
  NPURT_RETURN_IF_ERROR(
      EmitDequantize(ctx, ctx.input(0), ctx.input(1), ctx.input(2), ctx.IntAttribute("axis", 1), "", &out));
  outputs->assign(1, out);
  return Status::Ok();
}

Status ConvertQLinearConv(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.num_inputs() < 8) return ctx.Error("needs 8 inputs (x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point)");
  int x = -1, w = -1, y = -1;
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(0), ctx.input(1), ctx.input(2), 1, ":x", &x));
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(3), ctx.input(4), ctx.input(5), 0, ":w", &w));
  std::vector<int> conv_inputs = {x, w};
  if (ctx.has_input(8)) {
    // The int32 bias at x_scale * w_scale (per output channel), zero point 0.
    int bias_scale = -1;
    NPURT_RETURN_IF_ERROR(ctx.Emit1("Mul", {ctx.input(1), ctx.input(4)}, {}, &bias_scale, ":bias_scale"));
    int b = -1;
    NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(8), bias_scale, -1, 0, ":bias", &b));
    conv_inputs.push_back(b);
  }
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  NPURT_RETURN_IF_ERROR(ctx.Emit1("Conv", conv_inputs, std::move(attrs), &y, ":conv"));
  return ctx.Emit("QuantizeLinear", {y, ctx.input(6), ctx.input(7)}, {}, 1, outputs);
}

Status ConvertQLinearMatMul(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.num_inputs() != 8) return ctx.Error("needs 8 inputs (a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point)");
  int a = -1, b = -1, y = -1;
  // Per-axis parameters: a per row (axis -2), b per column (axis -1).
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(0), ctx.input(1), ctx.input(2), -2, ":a", &a));
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(3), ctx.input(4), ctx.input(5), -1, ":b", &b));
  NPURT_RETURN_IF_ERROR(ctx.Emit1("MatMul", {a, b}, {}, &y, ":matmul"));
  return ctx.Emit("QuantizeLinear", {y, ctx.input(6), ctx.input(7)}, {}, 1, outputs);
}

// ConvInteger and MatMulInteger: integer operands minus their zero points, an int32 result.
Status ConvertIntegerOp(NodeContext& ctx, std::vector<int>* outputs) {
  const bool conv = ctx.op_type() == "ConvInteger";
  if (ctx.num_inputs() < 2 || ctx.num_inputs() > 4) return ctx.Error("takes 2 to 4 inputs");
  const int x_zp = ctx.input(2), w_zp = ctx.input(3);
  int x = -1, w = -1, y = -1;
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(0), UnitScale(ctx, x_zp, "x_unit_scale"), x_zp,
                                       ZeroPointAxis(ctx, x_zp, conv ? 1 : -2), ":x", &x));
  NPURT_RETURN_IF_ERROR(EmitDequantize(ctx, ctx.input(1), UnitScale(ctx, w_zp, "w_unit_scale"), w_zp,
                                       ZeroPointAxis(ctx, w_zp, conv ? 0 : -1), ":w", &w));
  Attributes attrs;
  if (conv) NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  NPURT_RETURN_IF_ERROR(ctx.Emit1(conv ? "Conv" : "MatMul", {x, w}, std::move(attrs), &y, conv ? ":conv" : ":matmul"));
  Attributes cast;
  cast.SetInt("dtype", static_cast<int64_t>(DataType::kInt32));
  return ctx.Emit("Cast", {y}, std::move(cast), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
