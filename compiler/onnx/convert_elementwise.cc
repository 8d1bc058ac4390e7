// Elementwise ops lowered onto runtime ops:
//   Sum(a, b, c...) -> Add chain (one input: Identity)
//   Neg(x)          -> Mul(x, -1) for float, Sub(0, x) for int32/int64
//   Reciprocal(x)   -> Div(1, x)
//   Expand(x, shape) -> folded when x is constant, else Mul(x, ones(shape)),
//                       which broadcasts exactly like Expand.
// All of these are exact.
#include "compiler/onnx/converter.h"
#include "compiler/onnx/fold_util.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

// A scalar constant of `dtype` holding `value`.
int ScalarConstant(NodeContext& ctx, const std::string& suffix, DataType dtype, long double value) {
  uint8_t bytes[8] = {};
  StoreValue(dtype, bytes, 0, value);
  return ctx.AddConstant(suffix, {}, dtype, bytes, DataTypeSize(dtype));
}

bool IsArithmetic(DataType t) { return t == DataType::kFloat32 || t == DataType::kInt32 || t == DataType::kInt64; }

}  // namespace

Status ConvertSum(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.num_inputs() == 0) return ctx.Error("needs at least one input");
  if (ctx.num_inputs() == 1) return ctx.Emit("Identity", {ctx.input(0)}, {}, 1, outputs);
  int acc = ctx.input(0);
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    const std::string suffix = i + 1 == ctx.num_inputs() ? "" : ":add" + std::to_string(i);
    NPURT_RETURN_IF_ERROR(ctx.Emit1("Add", {acc, ctx.input(i)}, {}, &acc, suffix));
  }
  outputs->push_back(acc);
  return Status::Ok();
}

Status ConvertNeg(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input is missing");
  const DataType t = ctx.tensor(ctx.input(0)).dtype;
  if (t == DataType::kFloat32) {
    return ctx.Emit("Mul", {ctx.input(0), ScalarConstant(ctx, "minus_one", t, -1)}, {}, 1, outputs);
  }
  if (t == DataType::kInt32 || t == DataType::kInt64) {
    return ctx.Emit("Sub", {ScalarConstant(ctx, "zero", t, 0), ctx.input(0)}, {}, 1, outputs);
  }
  return ctx.Error("type %s is not supported", DataTypeName(t));
}

Status ConvertReciprocal(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input is missing");
  const DataType t = ctx.tensor(ctx.input(0)).dtype;
  if (t != DataType::kFloat32) return ctx.Error("type %s is not supported", DataTypeName(t));
  return ctx.Emit("Div", {ScalarConstant(ctx, "one", t, 1), ctx.input(0)}, {}, 1, outputs);
}

Status ConvertExpand(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input is missing");
  std::vector<int64_t> dims;
  NPURT_RETURN_IF_ERROR(ctx.ReadInts(1, &dims));
  const IrTensor& x = ctx.tensor(ctx.input(0));
  Shape out;
  if (!BroadcastTwo(x.shape, dims, &out)) {
    return ctx.Error("shape %s does not broadcast to %s", ShapeToString(x.shape).c_str(), ShapeToString(dims).c_str());
  }
  if (x.is_constant) {
    const int64_t n = NumElements(out);
    const size_t esize = DataTypeSize(x.dtype);
    if (n < 0 || esize == 0) return ctx.Error("bad output shape %s", ShapeToString(out).c_str());
    std::vector<uint8_t> data(static_cast<size_t>(n) * esize);
    for (int64_t e = 0; e < n; ++e) {
      std::memcpy(data.data() + e * esize, x.data.data() + BroadcastSource(x.shape, out, e) * esize, esize);
    }
    outputs->push_back(ctx.AddConstant("out", out, x.dtype, data.data(), data.size()));
    return Status::Ok();
  }
  if (out == x.shape) return ctx.Emit("Identity", {ctx.input(0)}, {}, 1, outputs);
  if (!IsArithmetic(x.dtype)) return ctx.Error("type %s is not supported", DataTypeName(x.dtype));
  const int64_t n = NumElements(dims);
  std::vector<uint8_t> ones(static_cast<size_t>(n) * DataTypeSize(x.dtype));
  for (int64_t e = 0; e < n; ++e) StoreValue(x.dtype, ones.data(), e, 1);
  const int ones_id = ctx.AddConstant("ones", dims, x.dtype, ones.data(), ones.size());
  return ctx.Emit("Mul", {ctx.input(0), ones_id}, {}, 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
