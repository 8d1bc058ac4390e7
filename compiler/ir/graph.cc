#include "compiler/ir/graph.h"

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

Status Graph::InferShapes() {
  const int num_tensors = static_cast<int>(tensors_.size());
  for (IrNode& node : nodes_) {
    const OpDef* def = FindOp(node.op_type);
    if (def == nullptr) return NPURT_ERROR(kModelInvalid, "node '%s': unsupported op '%s'", node.name.c_str(), node.op_type.c_str());
    std::vector<Tensor> views(node.inputs.size());
    std::vector<const Tensor*> inputs(node.inputs.size(), nullptr);
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const int id = node.inputs[i];
      if (id < 0) continue;
      if (id >= num_tensors) return NPURT_ERROR(kModelInvalid, "node '%s': input %zu is tensor %d of %d", node.name.c_str(), i, id, num_tensors);
      const IrTensor& t = tensors_[id];
      if (!t.has_shape) return NPURT_ERROR(kModelInvalid, "node '%s': input '%s' has no shape yet", node.name.c_str(), t.name.c_str());
      views[i].name = t.name;
      views[i].shape = t.shape;
      views[i].dtype = t.dtype;
      views[i].constant = t.is_constant;
      views[i].data = t.is_constant ? const_cast<uint8_t*>(t.data.data()) : nullptr;
      views[i].bytes = t.data.size();
      inputs[i] = &views[i];
    }
    std::vector<Tensor> outs(node.outputs.size());
    Status s = def->infer(node.attrs, inputs, &outs);
    if (!s.ok()) return Status(s.code(), "node '" + node.name + "': " + s.message());
    for (size_t i = 0; i < outs.size(); ++i) {
      IrTensor& t = tensors_[node.outputs[i]];
      t.shape = outs[i].shape;
      t.dtype = outs[i].dtype;
      t.has_shape = true;
    }
  }
  return Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
