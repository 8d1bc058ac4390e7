// NodeContext (the converters' view of one ONNX node) and TensorProto decoding.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "compiler/onnx/converter.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

const char* OnnxTypeName(int onnx_type) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT: return "FLOAT";
    case onnx::TensorProto::UINT8: return "UINT8";
    case onnx::TensorProto::INT8: return "INT8";
    case onnx::TensorProto::UINT16: return "UINT16";
    case onnx::TensorProto::INT16: return "INT16";
    case onnx::TensorProto::INT32: return "INT32";
    case onnx::TensorProto::INT64: return "INT64";
    case onnx::TensorProto::STRING: return "STRING";
    case onnx::TensorProto::BOOL: return "BOOL";
    case onnx::TensorProto::FLOAT16: return "FLOAT16";
    case onnx::TensorProto::DOUBLE: return "DOUBLE";
    case onnx::TensorProto::UINT32: return "UINT32";
    case onnx::TensorProto::UINT64: return "UINT64";
    case onnx::TensorProto::COMPLEX64: return "COMPLEX64";
    case onnx::TensorProto::COMPLEX128: return "COMPLEX128";
    case onnx::TensorProto::BFLOAT16: return "BFLOAT16";
    case onnx::TensorProto::UNDEFINED: return "UNDEFINED";
    default: return "unknown";
  }
}

Status OnnxTypeToDataType(int onnx_type, DataType* out) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::DOUBLE: *out = DataType::kFloat32; return Status::Ok();
    case onnx::TensorProto::FLOAT16: *out = DataType::kFloat16; return Status::Ok();
    case onnx::TensorProto::INT8: *out = DataType::kInt8; return Status::Ok();
    case onnx::TensorProto::UINT8: *out = DataType::kUint8; return Status::Ok();
    case onnx::TensorProto::INT16: *out = DataType::kInt16; return Status::Ok();
    case onnx::TensorProto::UINT16: *out = DataType::kUint16; return Status::Ok();
    case onnx::TensorProto::INT32: *out = DataType::kInt32; return Status::Ok();
    case onnx::TensorProto::UINT32: *out = DataType::kUint32; return Status::Ok();
    case onnx::TensorProto::INT64: *out = DataType::kInt64; return Status::Ok();
    case onnx::TensorProto::BOOL: *out = DataType::kBool; return Status::Ok();
    default:
      return NPURT_ERROR(kModelInvalid, "unsupported element type %s (%d)", OnnxTypeName(onnx_type), onnx_type);
  }
}

namespace {

// Copies `values` converted to the element type of `dtype` into `bytes`.
template <typename T>
void StoreAs(DataType dtype, const T* values, size_t n, std::vector<uint8_t>* bytes) {
  bytes->resize(n * DataTypeSize(dtype));
  uint8_t* p = bytes->data();
  for (size_t i = 0; i < n; ++i) {
    switch (dtype) {
      case DataType::kFloat32: { float v = static_cast<float>(values[i]); std::memcpy(p + 4 * i, &v, 4); break; }
      case DataType::kFloat16: { uint16_t v = static_cast<uint16_t>(values[i]); std::memcpy(p + 2 * i, &v, 2); break; }
      case DataType::kInt8: { int8_t v = static_cast<int8_t>(values[i]); std::memcpy(p + i, &v, 1); break; }
      case DataType::kUint8: { uint8_t v = static_cast<uint8_t>(values[i]); std::memcpy(p + i, &v, 1); break; }
      case DataType::kBool: { uint8_t v = values[i] != 0 ? 1 : 0; std::memcpy(p + i, &v, 1); break; }
      case DataType::kInt16: { int16_t v = static_cast<int16_t>(values[i]); std::memcpy(p + 2 * i, &v, 2); break; }
      case DataType::kUint16: { uint16_t v = static_cast<uint16_t>(values[i]); std::memcpy(p + 2 * i, &v, 2); break; }
      case DataType::kInt32: { int32_t v = static_cast<int32_t>(values[i]); std::memcpy(p + 4 * i, &v, 4); break; }
      case DataType::kUint32: { uint32_t v = static_cast<uint32_t>(values[i]); std::memcpy(p + 4 * i, &v, 4); break; }
      case DataType::kInt64: { int64_t v = static_cast<int64_t>(values[i]); std::memcpy(p + 8 * i, &v, 8); break; }
    }
  }
}

}  // namespace

Status TensorProtoToBytes(const onnx::TensorProto& proto, const std::string& what, DataType* dtype, Shape* shape,
                          std::vector<uint8_t>* bytes) {
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    for (const auto& kv : proto.external_data()) {
      if (kv.key() == "location") location = kv.value();
    }
    return NPURT_ERROR(kModelInvalid,
                       "%s keeps its data in an external file ('%s'), which is not supported; save the model with "
                       "all tensors inside the .onnx file",
                       what.c_str(), location.c_str());
  }
  const int type = proto.data_type();
  Status s = OnnxTypeToDataType(type, dtype);
  if (!s.ok()) return Status(s.code(), what + ": " + s.message());
  shape->clear();
  for (int64_t d : proto.dims()) {
    if (d < 0) return NPURT_ERROR(kModelInvalid, "%s has a negative dim %lld", what.c_str(), static_cast<long long>(d));
    shape->push_back(d);
  }
  const int64_t count = NumElements(*shape);
  if (count < 0) return NPURT_ERROR(kModelInvalid, "%s has a bad shape %s", what.c_str(), ShapeToString(*shape).c_str());
  const size_t n = static_cast<size_t>(count);
  const size_t out_size = DataTypeSize(*dtype);
  auto count_error = [&](size_t got) {
    return NPURT_ERROR(kModelInvalid, "%s (%s, shape %s) holds %zu values, expected %zu", what.c_str(),
                       OnnxTypeName(type), ShapeToString(*shape).c_str(), got, n);
  };
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    const size_t in_size = type == onnx::TensorProto::DOUBLE ? 8 : out_size;
    if (raw.size() != n * in_size) {
      return NPURT_ERROR(kModelInvalid, "%s (%s, shape %s) has %zu bytes of data, expected %zu", what.c_str(),
                         OnnxTypeName(type), ShapeToString(*shape).c_str(), raw.size(), n * in_size);
    }
    if (type == onnx::TensorProto::DOUBLE) {
      std::vector<double> v(n);
      if (n) std::memcpy(v.data(), raw.data(), n * 8);
      StoreAs(*dtype, v.data(), n, bytes);
    } else {
      bytes->assign(raw.begin(), raw.end());
    }
    return Status::Ok();
  }
  switch (type) {
    case onnx::TensorProto::FLOAT:
      if (static_cast<size_t>(proto.float_data_size()) != n) return count_error(proto.float_data_size());
      StoreAs(*dtype, proto.float_data().data(), n, bytes);
      return Status::Ok();
    case onnx::TensorProto::DOUBLE:
      if (static_cast<size_t>(proto.double_data_size()) != n) return count_error(proto.double_data_size());
      StoreAs(*dtype, proto.double_data().data(), n, bytes);
      return Status::Ok();
    case onnx::TensorProto::INT64:
      if (static_cast<size_t>(proto.int64_data_size()) != n) return count_error(proto.int64_data_size());
      StoreAs(*dtype, proto.int64_data().data(), n, bytes);
      return Status::Ok();
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
      if (static_cast<size_t>(proto.uint64_data_size()) != n) return count_error(proto.uint64_data_size());
      StoreAs(*dtype, proto.uint64_data().data(), n, bytes);
      return Status::Ok();
    default:  // INT32, INT16, INT8, UINT16, UINT8, BOOL, FLOAT16 (bits) live in int32_data
      if (static_cast<size_t>(proto.int32_data_size()) != n) return count_error(proto.int32_data_size());
      StoreAs(*dtype, proto.int32_data().data(), n, bytes);
      return Status::Ok();
  }
}

NodeContext::NodeContext(Graph* graph, const onnx::NodeProto& proto, std::string name, int opset,
                         std::vector<int> inputs)
    : graph_(graph), proto_(proto), name_(std::move(name)), opset_(opset), inputs_(std::move(inputs)) {
  while (!inputs_.empty() && inputs_.back() < 0) inputs_.pop_back();
}

int NodeContext::num_outputs() const {
  int n = proto_.output_size();
  while (n > 0 && proto_.output(n - 1).empty()) --n;
  return n;
}

bool NodeContext::output_used(int i) const {
  if (i < 0 || i >= proto_.output_size() || proto_.output(i).empty()) return false;
  return used_names_ == nullptr || used_names_->count(proto_.output(i)) > 0;
}

const onnx::AttributeProto* NodeContext::FindAttribute(const std::string& name) const {
  for (const onnx::AttributeProto& a : proto_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t NodeContext::IntAttribute(const std::string& name, int64_t default_value) const {
  const onnx::AttributeProto* a = FindAttribute(name);
  return a != nullptr && a->type() == onnx::AttributeProto::INT ? a->i() : default_value;
}

float NodeContext::FloatAttribute(const std::string& name, float default_value) const {
  const onnx::AttributeProto* a = FindAttribute(name);
  return a != nullptr && a->type() == onnx::AttributeProto::FLOAT ? a->f() : default_value;
}

Status NodeContext::CopyAttributes(Attributes* out, const std::vector<std::string>& skip) const {
  for (const onnx::AttributeProto& a : proto_.attribute()) {
    bool skipped = false;
    for (const std::string& s : skip) skipped |= s == a.name();
    if (skipped) continue;
    // Old exporters leave `type` unset; infer it from the field that holds the value.
    onnx::AttributeProto::AttributeType type = a.type();
    if (type == onnx::AttributeProto::UNDEFINED) {
      if (a.has_f()) type = onnx::AttributeProto::FLOAT;
      else if (a.has_i()) type = onnx::AttributeProto::INT;
      else if (a.has_s()) type = onnx::AttributeProto::STRING;
      else if (a.floats_size() > 0) type = onnx::AttributeProto::FLOATS;
      else if (a.ints_size() > 0) type = onnx::AttributeProto::INTS;
    }
    switch (type) {
      case onnx::AttributeProto::INT: out->SetInt(a.name(), a.i()); break;
      case onnx::AttributeProto::FLOAT: out->SetFloat(a.name(), a.f()); break;
      case onnx::AttributeProto::INTS: out->SetInts(a.name(), {a.ints().begin(), a.ints().end()}); break;
      case onnx::AttributeProto::FLOATS: out->SetFloats(a.name(), {a.floats().begin(), a.floats().end()}); break;
      case onnx::AttributeProto::STRING: out->SetString(a.name(), a.s()); break;
      default:
        return Error("attribute '%s' has type %s, which is not supported", a.name().c_str(),
                     onnx::AttributeProto::AttributeType_Name(type).c_str());
    }
  }
  return Status::Ok();
}

Status NodeContext::Emit(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs,
                         int num_outputs, std::vector<int>* outputs, const std::string& suffix) {
  const std::string ir_name = name_ + suffix;
  graph_->AddNode(op_type, inputs, std::move(attrs), num_outputs, ir_name);
  const size_t index = graph_->nodes().size() - 1;
  *outputs = graph_->nodes()[index].outputs;
  Status s = graph_->InferNodeShapes(index);
  if (s.ok() && graph_->HasConstantInputs(index)) {
    s = graph_->EvaluateNode(index);
    if (s.ok()) graph_->nodes().pop_back();  // folded: the outputs are constants now
  }
  if (!s.ok()) {
    graph_->nodes().pop_back();
    const std::string prefix = "node '" + ir_name + "': ";
    std::string message = s.message();
    if (message.compare(0, prefix.size(), prefix) == 0) message = message.substr(prefix.size());
    if (op_type != proto_.op_type() && message.compare(0, op_type.size() + 1, op_type + ":") != 0) {
      message = op_type + ": " + message;  // the runtime op this node became
    }
    return Wrap(Status(s.code(), message));
  }
  return Status::Ok();
}

Status NodeContext::Emit1(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs, int* output,
                          const std::string& suffix) {
  std::vector<int> outs;
  NPURT_RETURN_IF_ERROR(Emit(op_type, inputs, std::move(attrs), 1, &outs, suffix));
  *output = outs[0];
  return Status::Ok();
}

int NodeContext::AddConstant(const std::string& suffix, const Shape& shape, DataType dtype, const void* data,
                             size_t bytes) {
  return graph_->AddConstantBytes(name_ + ":" + suffix, shape, dtype, data, bytes);
}

Status NodeContext::ImportSubgraph(const onnx::GraphProto& graph, const std::string& scope,
                                   std::vector<int>* outputs) const {
  if (subgraph_importer_ == nullptr) return Error("subgraphs cannot be imported here");
  return (*subgraph_importer_)(graph, scope, outputs);
}

Status NodeContext::RequireConstant(size_t i) const {
  if (!has_input(i)) return Error("input %zu is missing", i);
  if (is_constant(i)) return Status::Ok();
  const OnnxConverter* conv = FindOnnxConverter(op_type());
  if (conv != nullptr && conv->kind == OnnxOpKind::kImportOnly) {
    return Error("unsupported operator '%s' on run-time values: npurt evaluates %s only during conversion, and "
                 "input %zu ('%s') is computed at run time (fix the input shapes with --input-shapes if it derives "
                 "from them)",
                 op_type().c_str(), op_type().c_str(), i, tensor(input(i)).name.c_str());
  }
  return Error("unsupported operator use: input %zu ('%s') is computed at run time, but npurt needs it constant "
               "(fix the input shapes with --input-shapes if it derives from them)",
               i, tensor(input(i)).name.c_str());
}

Status NodeContext::ReadInts(size_t i, std::vector<int64_t>* out) const {
  NPURT_RETURN_IF_ERROR(RequireConstant(i));
  const IrTensor& t = tensor(input(i));
  if (t.dtype == DataType::kFloat32 || t.dtype == DataType::kFloat16) {
    return Error("input %zu has type %s, expected an integer type", i, DataTypeName(t.dtype));
  }
  if (t.dtype == DataType::kInt64) {
    const int64_t n = NumElements(t.shape);
    if (n < 0 || t.data.size() != static_cast<size_t>(n) * 8) return Error("input %zu: bad constant data", i);
    out->resize(static_cast<size_t>(n));
    if (n > 0) std::memcpy(out->data(), t.data.data(), t.data.size());
    return Status::Ok();
  }
  std::vector<double> values;  // exact for every integer type up to 32 bits
  NPURT_RETURN_IF_ERROR(ReadDoubles(i, &values));
  out->assign(values.begin(), values.end());
  return Status::Ok();
}

Status NodeContext::ReadDoubles(size_t i, std::vector<double>* out) const {
  NPURT_RETURN_IF_ERROR(RequireConstant(i));
  const IrTensor& t = tensor(input(i));
  const int64_t n = NumElements(t.shape);
  const size_t esize = DataTypeSize(t.dtype);
  if (n < 0 || esize == 0 || t.data.size() != static_cast<size_t>(n) * esize) {
    return Error("input %zu: constant data does not match shape %s", i, ShapeToString(t.shape).c_str());
  }
  out->resize(static_cast<size_t>(n));
  const uint8_t* p = t.data.data();
  for (int64_t k = 0; k < n; ++k) {
    double v = 0;
    switch (t.dtype) {
      case DataType::kFloat32: { float x; std::memcpy(&x, p + 4 * k, 4); v = x; break; }
      case DataType::kFloat16: { uint16_t x; std::memcpy(&x, p + 2 * k, 2); v = HalfToFloat(x); break; }
      case DataType::kInt8: v = static_cast<int8_t>(p[k]); break;
      case DataType::kUint8: v = p[k]; break;
      case DataType::kBool: v = p[k] != 0; break;
      case DataType::kInt16: { int16_t x; std::memcpy(&x, p + 2 * k, 2); v = x; break; }
      case DataType::kUint16: { uint16_t x; std::memcpy(&x, p + 2 * k, 2); v = x; break; }
      case DataType::kInt32: { int32_t x; std::memcpy(&x, p + 4 * k, 4); v = x; break; }
      case DataType::kUint32: { uint32_t x; std::memcpy(&x, p + 4 * k, 4); v = x; break; }
      case DataType::kInt64: { int64_t x; std::memcpy(&x, p + 8 * k, 8); v = static_cast<double>(x); break; }
    }
    (*out)[static_cast<size_t>(k)] = v;
  }
  return Status::Ok();
}

Status NodeContext::Error(const char* fmt, ...) const {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return Wrap(Status(StatusCode::kModelInvalid, buf));
}

Status NodeContext::Wrap(const Status& s) const {
  if (s.ok()) return s;
  return Status(s.code(), "node '" + name_ + "' (" + proto_.op_type() + ", opset " + std::to_string(opset_) +
                              "): " + s.message());
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
