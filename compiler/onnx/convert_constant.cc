// Import-only ops that make constants: Constant (all its value forms),
// ConstantOfShape, Shape (start/end of opset 15), Size and Range. Their
// results are constants in the graph; no node is emitted.
#include <cmath>

#include "compiler/onnx/converter.h"
#include "compiler/onnx/fold_util.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

int AddInt64s(NodeContext& ctx, const Shape& shape, const std::vector<int64_t>& values) {
  return ctx.AddConstant("out", shape, DataType::kInt64, values.data(), values.size() * sizeof(int64_t));
}

}  // namespace

Status ConvertConstant(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.proto().attribute_size() != 1) {
    return ctx.Error("needs exactly one value attribute, has %d", ctx.proto().attribute_size());
  }
  const onnx::AttributeProto& a = ctx.proto().attribute(0);
  const std::string& n = a.name();
  int id = -1;
  if (n == "value") {
    DataType dtype;
    Shape shape;
    std::vector<uint8_t> bytes;
    NPURT_RETURN_IF_ERROR(ctx.Wrap(TensorProtoToBytes(a.t(), "value", &dtype, &shape, &bytes)));
    id = ctx.AddConstant("out", shape, dtype, bytes.data(), bytes.size());
  } else if (n == "value_float") {
    const float v = a.f();
    id = ctx.AddConstant("out", {}, DataType::kFloat32, &v, sizeof(v));
  } else if (n == "value_floats") {
    std::vector<float> v(a.floats().begin(), a.floats().end());
    id = ctx.AddConstant("out", {static_cast<int64_t>(v.size())}, DataType::kFloat32, v.data(), v.size() * sizeof(float));
  } else if (n == "value_int") {
    id = AddInt64s(ctx, {}, {a.i()});
  } else if (n == "value_ints") {
    std::vector<int64_t> v(a.ints().begin(), a.ints().end());
    id = AddInt64s(ctx, {static_cast<int64_t>(v.size())}, v);
  } else {
    return ctx.Error("attribute '%s' is not supported (string and sparse constants cannot be imported)", n.c_str());
  }
  outputs->push_back(id);
  return Status::Ok();
}

Status ConvertConstantOfShape(NodeContext& ctx, std::vector<int>* outputs) {
  std::vector<int64_t> dims;
  NPURT_RETURN_IF_ERROR(ctx.ReadInts(0, &dims));
  for (int64_t d : dims) {
    if (d < 0) return ctx.Error("negative dim %lld", static_cast<long long>(d));
  }
  DataType dtype = DataType::kFloat32;
  std::vector<uint8_t> value(4, 0);
  if (const onnx::AttributeProto* a = ctx.FindAttribute("value")) {
    Shape vshape;
    NPURT_RETURN_IF_ERROR(ctx.Wrap(TensorProtoToBytes(a->t(), "value", &dtype, &vshape, &value)));
    if (NumElements(vshape) != 1) return ctx.Error("value must hold one element, has shape %s", ShapeToString(vshape).c_str());
  }
  const int64_t n = NumElements(dims);
  if (n < 0) return ctx.Error("bad shape %s", ShapeToString(dims).c_str());
  std::vector<uint8_t> data(static_cast<size_t>(n) * value.size());
  for (int64_t i = 0; i < n; ++i) std::memcpy(data.data() + i * value.size(), value.data(), value.size());
  outputs->push_back(ctx.AddConstant("out", dims, dtype, data.data(), data.size()));
  return Status::Ok();
}

Status ConvertShape(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input is missing");
  const Shape& shape = ctx.tensor(ctx.input(0)).shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t start = ctx.IntAttribute("start", 0);
  int64_t end = ctx.IntAttribute("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::min(std::max<int64_t>(start, 0), rank);
  end = std::min(std::max<int64_t>(end, 0), rank);
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(shape[static_cast<size_t>(i)]);
  outputs->push_back(AddInt64s(ctx, {static_cast<int64_t>(dims.size())}, dims));
  return Status::Ok();
}

Status ConvertSize(NodeContext& ctx, std::vector<int>* outputs) {
  if (!ctx.has_input(0)) return ctx.Error("input is missing");
  outputs->push_back(AddInt64s(ctx, {}, {NumElements(ctx.tensor(ctx.input(0)).shape)}));
  return Status::Ok();
}

Status ConvertRange(NodeContext& ctx, std::vector<int>* outputs) {
  for (size_t i = 0; i < 3; ++i) NPURT_RETURN_IF_ERROR(ctx.RequireConstant(i));
  const DataType dtype = ctx.tensor(ctx.input(0)).dtype;
  long double v[3];
  for (size_t i = 0; i < 3; ++i) {
    const IrTensor& t = ctx.tensor(ctx.input(i));
    if (NumElements(t.shape) != 1 || t.dtype != dtype) {
      return ctx.Error("start, limit and delta must be scalars of one type");
    }
    v[i] = LoadValue(t.dtype, t.data.data(), 0);
  }
  if (v[2] == 0) return ctx.Error("delta is 0");
  const long double count = std::ceil((v[1] - v[0]) / v[2]);
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  if (n > (int64_t{1} << 31)) return ctx.Error("%lld elements is too many", static_cast<long long>(n));
  std::vector<uint8_t> data(static_cast<size_t>(n) * DataTypeSize(dtype));
  for (int64_t i = 0; i < n; ++i) {
    // Like onnxruntime: accumulate in the element type for floats, exact for integers.
    StoreValue(dtype, data.data(), i, v[0] + static_cast<long double>(i) * v[2]);
  }
  outputs->push_back(ctx.AddConstant("out", {n}, dtype, data.data(), data.size()));
  return Status::Ok();
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
