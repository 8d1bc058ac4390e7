#include "compiler/ir/graph.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {

int Graph::AddTensor(const std::string& name, Shape shape, DataType dtype) {
  IrTensor t;
  t.name = name.empty() ? "t" + std::to_string(tensors_.size()) : name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.has_shape = true;
  tensors_.push_back(std::move(t));
  return static_cast<int>(tensors_.size()) - 1;
}

int Graph::AddConstantBytes(const std::string& name, Shape shape, DataType dtype, const void* data, size_t bytes) {
  const int id = AddTensor(name, std::move(shape), dtype);
  IrTensor& t = tensors_[id];
  t.is_constant = true;
  t.data.resize(bytes);
  if (bytes) std::memcpy(t.data.data(), data, bytes);
  return id;
}

int Graph::AddNode(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs, int num_outputs,
                   const std::string& name) {
  IrNode node;
  node.op_type = op_type;
  node.name = name.empty() ? op_type + "_" + std::to_string(nodes_.size()) : name;
  node.inputs = inputs;
  node.attrs = std::move(attrs);
  for (int i = 0; i < num_outputs; ++i) {
    IrTensor t;
    t.name = num_outputs == 1 ? node.name + ":out" : node.name + ":out" + std::to_string(i);
    tensors_.push_back(std::move(t));
    node.outputs.push_back(static_cast<int>(tensors_.size()) - 1);
  }
  nodes_.push_back(std::move(node));
  return nodes_.back().outputs.empty() ? -1 : nodes_.back().outputs[0];
}

IrInput& Graph::AddInput(int tensor) {
  IrInput in;
  in.tensor = tensor;
  inputs_.push_back(std::move(in));
  return inputs_.back();
}

namespace {

// Stands in for the data of a zero-byte constant, so that ops reading a
// constant (e.g. an empty `axes`) see a non-null pointer.
uint8_t g_empty_constant[8] = {};

// Tensor views of node `node`'s inputs for an op's infer; views[i] / ptrs[i]
// stay empty / null for an omitted input.
Status MakeInputViews(const std::vector<IrTensor>& tensors, const IrNode& node, std::vector<Tensor>* views,
                      std::vector<const Tensor*>* ptrs) {
  const int num_tensors = static_cast<int>(tensors.size());
  views->assign(node.inputs.size(), Tensor());
  ptrs->assign(node.inputs.size(), nullptr);
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const int id = node.inputs[i];
    if (id < 0) continue;
    if (id >= num_tensors) return NPURT_ERROR(kModelInvalid, "node '%s': input %zu is tensor %d of %d", node.name.c_str(), i, id, num_tensors);
    const IrTensor& t = tensors[id];
    if (!t.has_shape) return NPURT_ERROR(kModelInvalid, "node '%s': input '%s' has no shape yet", node.name.c_str(), t.name.c_str());
    Tensor& v = (*views)[i];
    v.name = t.name;
    v.shape = t.shape;
    v.dtype = t.dtype;
    v.constant = t.is_constant;
    if (t.is_constant) v.data = t.data.empty() ? g_empty_constant : const_cast<uint8_t*>(t.data.data());
    v.bytes = t.data.size();
    (*ptrs)[i] = &v;
  }
  return Status::Ok();
}

// A 64-byte aligned scratch buffer (never empty, so data is never null).
struct ScratchBuffer {
  explicit ScratchBuffer(size_t bytes) : size(bytes) {
    const size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    data = static_cast<uint8_t*>(std::aligned_alloc(64, rounded));
    if (data != nullptr) std::memset(data, 0, rounded);
  }
  ~ScratchBuffer() { std::free(data); }
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  uint8_t* data = nullptr;
  size_t size = 0;
};

}  // namespace

Status Graph::InferShapes() {
  for (size_t k = 0; k < nodes_.size(); ++k) NPURT_RETURN_IF_ERROR(InferNodeShapes(k));
  return Status::Ok();
}

Status Graph::InferNodeShapes(size_t index) {
  if (index >= nodes_.size()) return NPURT_ERROR(kModelInvalid, "node %zu of %zu", index, nodes_.size());
  const IrNode& node = nodes_[index];
  const OpDef* def = FindOp(node.op_type);
  if (def == nullptr) return NPURT_ERROR(kModelInvalid, "node '%s': unsupported op '%s'", node.name.c_str(), node.op_type.c_str());
  std::vector<Tensor> views;
  std::vector<const Tensor*> inputs;
  NPURT_RETURN_IF_ERROR(MakeInputViews(tensors_, node, &views, &inputs));
  std::vector<Tensor> outs(node.outputs.size());
  Status s = def->infer(node.attrs, inputs, &outs);
  if (!s.ok()) return Status(s.code(), "node '" + node.name + "': " + s.message());
  for (size_t i = 0; i < outs.size(); ++i) {
    IrTensor& t = tensors_[node.outputs[i]];
    t.shape = outs[i].shape;
    t.dtype = outs[i].dtype;
    t.has_shape = true;
  }
  return Status::Ok();
}

bool Graph::HasConstantInputs(size_t index) const {
  if (index >= nodes_.size()) return false;
  for (int id : nodes_[index].inputs) {
    if (id >= 0 && (id >= static_cast<int>(tensors_.size()) || !tensors_[id].is_constant)) return false;
  }
  return true;
}

Status Graph::EvaluateNode(size_t index) {
  if (index >= nodes_.size()) return NPURT_ERROR(kModelInvalid, "node %zu of %zu", index, nodes_.size());
  if (!HasConstantInputs(index)) {
    return NPURT_ERROR(kModelInvalid, "node '%s': cannot evaluate, an input is not constant", nodes_[index].name.c_str());
  }
  NPURT_RETURN_IF_ERROR(InferNodeShapes(index));
  const IrNode& node = nodes_[index];
  const OpDef* def = FindOp(node.op_type);
  const std::string where = "node '" + node.name + "': ";
  // Inputs and outputs live in aligned scratch buffers, as they would in the arena.
  std::vector<std::unique_ptr<ScratchBuffer>> buffers;
  std::vector<Tensor> ins(node.inputs.size()), outs(node.outputs.size());
  OpNode op;
  op.def = def;
  op.name = node.name;
  op.attrs = node.attrs;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const int id = node.inputs[i];
    if (id < 0) {
      op.inputs.push_back(nullptr);
      continue;
    }
    const IrTensor& t = tensors_[id];
    buffers.push_back(std::make_unique<ScratchBuffer>(t.data.size()));
    if (buffers.back()->data == nullptr) return NPURT_ERROR(kMallocFail, "%sout of memory", where.c_str());
    if (!t.data.empty()) std::memcpy(buffers.back()->data, t.data.data(), t.data.size());
    ins[i].name = t.name;
    ins[i].shape = t.shape;
    ins[i].dtype = t.dtype;
    ins[i].constant = true;
    ins[i].data = buffers.back()->data;
    ins[i].bytes = t.data.size();
    op.inputs.push_back(&ins[i]);
  }
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const IrTensor& t = tensors_[node.outputs[i]];
    const int64_t n = NumElements(t.shape);
    const size_t esize = DataTypeSize(t.dtype);
    if (n < 0 || esize == 0) return NPURT_ERROR(kModelInvalid, "%soutput '%s' has shape %s type %s", where.c_str(), t.name.c_str(), ShapeToString(t.shape).c_str(), DataTypeName(t.dtype));
    const size_t bytes = static_cast<size_t>(n) * esize;
    buffers.push_back(std::make_unique<ScratchBuffer>(bytes));
    if (buffers.back()->data == nullptr) return NPURT_ERROR(kMallocFail, "%sout of memory (%zu bytes)", where.c_str(), bytes);
    outs[i].name = t.name;
    outs[i].shape = t.shape;
    outs[i].dtype = t.dtype;
    outs[i].data = buffers.back()->data;
    outs[i].bytes = bytes;
    op.outputs.push_back(&outs[i]);
  }
  Status s = def->prepare != nullptr ? def->prepare(&op) : Status::Ok();
  std::vector<uint64_t> scratch((op.scratch_bytes + 7) / 8);  // 8-byte aligned; kernels ask no more for folding
  op.scratch = reinterpret_cast<uint8_t*>(scratch.data());
  if (s.ok()) s = def->eval(&op);
  if (!s.ok()) return Status(s.code(), where + s.message());
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    IrTensor& t = tensors_[node.outputs[i]];
    t.is_constant = true;
    t.data.assign(outs[i].as<uint8_t>(), outs[i].as<uint8_t>() + outs[i].bytes);
  }
  return Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
