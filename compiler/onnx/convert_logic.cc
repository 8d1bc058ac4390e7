// Comparison, logic, selection and rounding ops (Equal, Less, Greater,
// LessOrEqual, GreaterOrEqual, And, Or, Xor, Not, Where, Floor, Ceil, Round,
// Abs, Sign). Exporters use them in shape computations (e.g. PyTorch's
// Reshape/Expand with -1): with constant inputs (of any type, int64 shapes too)
// they fold here; on run-time values they are the runtime ops.
#include <cmath>

#include "compiler/onnx/converter.h"
#include "compiler/onnx/fold_util.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

// Applies `fn` elementwise over the broadcast of inputs `count` inputs; the
// output has type `out_type` (or input 0's type when kUndefined-like flag set).
template <typename Fn>
Status FoldElementwise(NodeContext& ctx, size_t count, bool keep_type, DataType out_type, Fn fn,
                       std::vector<int>* outputs) {
  Shape out_shape;
  for (size_t i = 0; i < count; ++i) {
    NPURT_RETURN_IF_ERROR(ctx.RequireConstant(i));
    const Shape& s = ctx.tensor(ctx.input(i)).shape;
    if (i == 0) {
      out_shape = s;
    } else if (!BroadcastTwo(out_shape, s, &out_shape)) {
      return ctx.Error("input shapes do not broadcast");
    }
  }
  if (keep_type) out_type = ctx.tensor(ctx.input(0)).dtype;
  const int64_t n = NumElements(out_shape);
  if (n < 0) return ctx.Error("bad output shape");
  std::vector<uint8_t> data(static_cast<size_t>(n) * DataTypeSize(out_type));
  long double args[3] = {0, 0, 0};
  for (int64_t e = 0; e < n; ++e) {
    for (size_t i = 0; i < count; ++i) {
      const IrTensor& t = ctx.tensor(ctx.input(i));
      args[i] = LoadValue(t.dtype, t.data.data(), BroadcastSource(t.shape, out_shape, e));
    }
    StoreValue(out_type, data.data(), e, fn(args));
  }
  outputs->push_back(ctx.AddConstant("out", out_shape, out_type, data.data(), data.size()));
  return Status::Ok();
}

}  // namespace

// Every input present and constant: the node folds here; else it is the runtime op.
bool AllConstant(const NodeContext& ctx) {
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.is_constant(i)) return false;
  }
  return ctx.num_inputs() > 0;
}

Status ConvertCompare(NodeContext& ctx, std::vector<int>* outputs) {
  NPURT_RETURN_IF_ERROR(ApplyLegacyBroadcast(ctx));
  if (!AllConstant(ctx)) return ConvertGeneric(ctx, outputs);
  const std::string& op = ctx.op_type();
  return FoldElementwise(ctx, 2, false, DataType::kBool,
                         [&op](const long double* v) -> long double {
                           if (op == "Equal") return v[0] == v[1];
                           if (op == "Less") return v[0] < v[1];
                           if (op == "Greater") return v[0] > v[1];
                           if (op == "LessOrEqual") return v[0] <= v[1];
                           return v[0] >= v[1];  // GreaterOrEqual
                         },
                         outputs);
}

Status ConvertLogical(NodeContext& ctx, std::vector<int>* outputs) {
  NPURT_RETURN_IF_ERROR(ApplyLegacyBroadcast(ctx));
  if (!AllConstant(ctx)) return ConvertGeneric(ctx, outputs);
  const std::string& op = ctx.op_type();
  return FoldElementwise(ctx, 2, false, DataType::kBool,
                         [&op](const long double* v) -> long double {
                           const bool a = v[0] != 0, b = v[1] != 0;
                           if (op == "And") return a && b;
                           if (op == "Or") return a || b;
                           return a != b;  // Xor
                         },
                         outputs);
}

Status ConvertNot(NodeContext& ctx, std::vector<int>* outputs) {
  if (!AllConstant(ctx)) return ConvertGeneric(ctx, outputs);
  return FoldElementwise(ctx, 1, false, DataType::kBool, [](const long double* v) -> long double { return v[0] == 0; },
                         outputs);
}

Status ConvertWhere(NodeContext& ctx, std::vector<int>* outputs) {
  if (!AllConstant(ctx)) return ConvertGeneric(ctx, outputs);
  for (size_t i = 0; i < 3; ++i) NPURT_RETURN_IF_ERROR(ctx.RequireConstant(i));
  const IrTensor& c = ctx.tensor(ctx.input(0));
  const IrTensor& x = ctx.tensor(ctx.input(1));
  const IrTensor& y = ctx.tensor(ctx.input(2));
  if (x.dtype != y.dtype) return ctx.Error("X and Y have different types");
  Shape out;
  if (!BroadcastTwo(c.shape, x.shape, &out) || !BroadcastTwo(out, y.shape, &out)) {
    return ctx.Error("input shapes do not broadcast");
  }
  const int64_t n = NumElements(out);
  const size_t esize = DataTypeSize(x.dtype);
  std::vector<uint8_t> data(static_cast<size_t>(n) * esize);
  for (int64_t e = 0; e < n; ++e) {
    const bool pick_x = LoadValue(c.dtype, c.data.data(), BroadcastSource(c.shape, out, e)) != 0;
    const IrTensor& src = pick_x ? x : y;
    std::memcpy(data.data() + e * esize, src.data.data() + BroadcastSource(src.shape, out, e) * esize, esize);
  }
  outputs->push_back(ctx.AddConstant("out", out, x.dtype, data.data(), data.size()));
  return Status::Ok();
}

Status ConvertRounding(NodeContext& ctx, std::vector<int>* outputs) {
  // A run-time value is the runtime op's (float, int8); a constant of any type (int64 shape
  // arithmetic too) folds here.
  if (!ctx.has_input(0) || !ctx.is_constant(0)) return ConvertGeneric(ctx, outputs);
  const std::string& op = ctx.op_type();
  return FoldElementwise(ctx, 1, true, DataType::kFloat32,
                         [&op](const long double* v) -> long double {
                           if (op == "Floor") return std::floor(v[0]);
                           if (op == "Ceil") return std::ceil(v[0]);
                           if (op == "Round") return std::nearbyint(v[0]);  // halves to even
                           if (op == "Sign") return v[0] > 0 ? 1 : v[0] < 0 ? -1 : v[0];
                           return std::fabs(v[0]);  // Abs
                         },
                         outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
