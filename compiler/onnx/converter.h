// The ONNX converter table: one converter function per ONNX op, grouped by op
// family in convert_<family>.cc, listed once in converter_table.cc (no static
// self-registration). A converter turns one NodeProto into IR nodes and/or
// constants through a NodeContext, which infers shapes eagerly and folds every
// node whose inputs are all constants, so that shape computations
// (Shape -> Gather -> Concat -> Reshape) disappear during import.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "compiler/ir/graph.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

// Converts an ONNX TensorProto (raw_data or typed fields) into a constant's
// dtype, shape and little-endian bytes. DOUBLE becomes float32. `what` names
// the tensor in errors.
Status TensorProtoToBytes(const onnx::TensorProto& proto, const std::string& what, DataType* dtype, Shape* shape,
                          std::vector<uint8_t>* bytes);
// ONNX TensorProto element type code -> npurt DataType (DOUBLE -> float32).
Status OnnxTypeToDataType(int onnx_type, DataType* out);
const char* OnnxTypeName(int onnx_type);

class NodeContext {
 public:
  NodeContext(Graph* graph, const onnx::NodeProto& proto, std::string name, int opset, std::vector<int> inputs);

  const onnx::NodeProto& proto() const { return proto_; }
  const std::string& op_type() const { return proto_.op_type(); }
  const std::string& name() const { return name_; }
  int opset() const { return opset_; }
  Graph& graph() { return *graph_; }

  // Inputs as IR tensor ids, -1 for an omitted optional input ("" in ONNX).
  // Trailing omitted inputs are already dropped.
  const std::vector<int>& inputs() const { return inputs_; }
  size_t num_inputs() const { return inputs_.size(); }
  int input(size_t i) const { return i < inputs_.size() ? inputs_[i] : -1; }
  bool has_input(size_t i) const { return input(i) >= 0; }
  const IrTensor& tensor(int id) const { return graph_->tensors()[id]; }
  bool is_constant(size_t i) const { return has_input(i) && tensor(input(i)).is_constant; }
  // Replaces input `i` (converters that rewrite an input, e.g. legacy broadcasting).
  void set_input(size_t i, int id) {
    if (inputs_.size() <= i) inputs_.resize(i + 1, -1);
    inputs_[i] = id;
  }
  // Outputs the ONNX node names (trailing empty names dropped).
  int num_outputs() const;
  // Whether the model uses output `i` (a later node or a graph output reads it).
  bool output_used(int i) const;
  // Set by the importer: the names the model uses.
  void set_used_names(const std::unordered_set<std::string>* used) { used_names_ = used; }

  // Imports the nodes of subgraph `graph` (an If branch) in the current scope: its nodes may read
  // every tensor the outer graph has so far; fills `outputs` with the IR tensors of its outputs.
  // `scope` prefixes the names of the IR nodes it adds. Set by the importer.
  using SubgraphImporter =
      std::function<Status(const onnx::GraphProto& graph, const std::string& scope, std::vector<int>* outputs)>;
  void set_subgraph_importer(const SubgraphImporter* importer) { subgraph_importer_ = importer; }
  Status ImportSubgraph(const onnx::GraphProto& graph, const std::string& scope, std::vector<int>* outputs) const;

  // Copies the node's INT/FLOAT/INTS/FLOATS/STRING attributes verbatim, except
  // those in `skip`. Other attribute types are an error.
  Status CopyAttributes(Attributes* out, const std::vector<std::string>& skip = {}) const;
  const onnx::AttributeProto* FindAttribute(const std::string& name) const;
  int64_t IntAttribute(const std::string& name, int64_t default_value) const;
  float FloatAttribute(const std::string& name, float default_value) const;

  // Adds an IR node running runtime op `op_type`, infers its output shapes,
  // and evaluates it right away when every input is a constant (the node then
  // disappears and its outputs are constants). `suffix` distinguishes the IR
  // nodes of a converter that emits several.
  Status Emit(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs, int num_outputs,
              std::vector<int>* outputs, const std::string& suffix = "");
  // Emit with one output.
  Status Emit1(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs, int* output,
               const std::string& suffix = "");
  // Adds a constant tensor named after this node.
  int AddConstant(const std::string& suffix, const Shape& shape, DataType dtype, const void* data, size_t bytes);

  // Reads constant input `i` (any integer type) / as doubles (any numeric type).
  Status ReadInts(size_t i, std::vector<int64_t>* out) const;
  Status ReadDoubles(size_t i, std::vector<double>* out) const;
  // Requires input `i` to be present and constant (import-only ops).
  Status RequireConstant(size_t i) const;

  // An error prefixed with the node's op type and name.
  Status Error(const char* fmt, ...) const __attribute__((format(printf, 2, 3)));
  // Prefixes `s` (from a runtime op) with the node's op type and name.
  Status Wrap(const Status& s) const;

 private:
  Graph* graph_;
  const onnx::NodeProto& proto_;
  std::string name_;
  int opset_;
  std::vector<int> inputs_;
  const std::unordered_set<std::string>* used_names_ = nullptr;
  const SubgraphImporter* subgraph_importer_ = nullptr;
};

// A converter fills `outputs` with one IR tensor id per ONNX output (at most
// num_outputs()); -1 or a shorter list for outputs it does not produce (such
// an output must not be used by the model).
using ConvertFn = Status (*)(NodeContext& ctx, std::vector<int>* outputs);

enum class OnnxOpKind {
  kRuntime,     // runs as the runtime op of the same name
  kLowered,     // rewritten into other runtime ops (Dropout -> Identity, Upsample -> Resize)
  kImportOnly,  // evaluated during import; its inputs must be constants (or, for Shape/Size, shapes)
};

struct OnnxConverter {
  const char* op_type;
  ConvertFn convert;
  OnnxOpKind kind;
  const char* note;  // how it is handled, for `npurt ops` (may be "")
};

// The converter table, in the order `npurt ops` lists it.
const std::vector<OnnxConverter>& OnnxConverters();
const OnnxConverter* FindOnnxConverter(const std::string& op_type);

// ---- Converters (defined in convert_<family>.cc) ----
// convert_custom.cc: nodes of domains other than ONNX's own become custom operators (rknn_custom_op.h).
bool IsOnnxDomain(const std::string& domain);
// The type and static shape the model declares for a tensor name (false: none, or not static).
using DeclaredTensorFn = std::function<bool(const std::string& name, Shape* shape, DataType* dtype)>;
Status ConvertCustomNode(NodeContext& ctx, const DeclaredTensorFn& declared, std::vector<int>* outputs);
// convert_generic.cc: runtime op of the same name, attributes copied verbatim.
Status ConvertGeneric(NodeContext& ctx, std::vector<int>* outputs);
// Fails unless the inputs that decide the output shape (Reshape's shape,
// Slice's starts/ends/axes/steps, Resize's scales/sizes ...) are constants.
Status RequireShapeInputsConstant(NodeContext& ctx);
// convert_activation.cc
Status ConvertClip(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertSoftmax(NodeContext& ctx, std::vector<int>* outputs);
// convert_resize.cc
Status ConvertResize(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertUpsample(NodeContext& ctx, std::vector<int>* outputs);
// convert_legacy.cc: opsets 1-6 forms (legacy broadcast with `axis`, PRelu's
// per-channel slope, Concat's default axis, Pad's `paddings`).
Status ApplyLegacyBroadcast(NodeContext& ctx);
Status ConvertBinary(NodeContext& ctx, std::vector<int>* outputs);  // Add, Sub, Mul, Div, Pow
Status ConvertPRelu(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertConcat(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertPad(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertScatter(NodeContext& ctx, std::vector<int>* outputs);  // opsets 9-10: ScatterElements
// convert_cast.cc
Status ConvertCast(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertEyeLike(NodeContext& ctx, std::vector<int>* outputs);  // dtype: an ONNX type code
// convert_identity.cc
Status ConvertDropout(NodeContext& ctx, std::vector<int>* outputs);
// convert_einsum.cc: Transpose / Reshape / ReduceSum / MatMul.
Status ConvertEinsum(NodeContext& ctx, std::vector<int>* outputs);
// convert_recurrent.cc
Status ConvertRecurrent(NodeContext& ctx, std::vector<int>* outputs);  // RNN, GRU, LSTM
// convert_roi_align.cc: the opset's default coordinate_transformation_mode.
Status ConvertRoiAlign(NodeContext& ctx, std::vector<int>* outputs);
// convert_control_flow.cc: If (a constant condition inlines its branch; a run-time one runs
// both branches and selects their outputs with Where).
Status ConvertIf(NodeContext& ctx, std::vector<int>* outputs);
// convert_quantize.cc: DequantizeLinear of constants keeps the model's parameters; QLinearConv,
// QLinearMatMul, ConvInteger and MatMulInteger lowered onto DequantizeLinear -> op -> QuantizeLinear / Cast.
Status ConvertDequantizeLinear(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertQLinearConv(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertQLinearMatMul(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertIntegerOp(NodeContext& ctx, std::vector<int>* outputs);  // ConvInteger, MatMulInteger
// convert_elementwise.cc
Status ConvertSum(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertNeg(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertReciprocal(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertExpand(NodeContext& ctx, std::vector<int>* outputs);
// convert_constant.cc (import-only)
Status ConvertConstant(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertConstantOfShape(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertShape(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertSize(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertRange(NodeContext& ctx, std::vector<int>* outputs);
// convert_logic.cc (import-only)
Status ConvertCompare(NodeContext& ctx, std::vector<int>* outputs);  // Equal, Less, Greater, LessOrEqual, GreaterOrEqual
Status ConvertLogical(NodeContext& ctx, std::vector<int>* outputs);  // And, Or, Xor
Status ConvertNot(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertWhere(NodeContext& ctx, std::vector<int>* outputs);
Status ConvertRounding(NodeContext& ctx, std::vector<int>* outputs);  // Floor, Ceil, Round, Abs, Sign

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
