// The compiler's graph IR: tensors (with constant data where known), nodes in
// execution order, graph inputs/outputs and their preprocessing. The ONNX
// importer builds it, passes rewrite it, the emitter writes it as a model file.
// Tests build small models with it directly.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/model.h"
#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {
namespace compiler {

struct IrTensor {
  std::string name;
  Shape shape;
  DataType dtype = DataType::kFloat32;
  bool has_shape = false;
  bool is_constant = false;
  std::vector<uint8_t> data;  // constants only
  QuantInfo quant;
  // Quantization parameters the model itself gives for this float tensor (a QDQ model's QuantizeLinear /
  // DequantizeLinear, in int8 form: compiler/passes/extract_qdq_params.cc): the quantizer takes them instead
  // of calibrating. A pass that writes new values makes a new tensor, so they never outlive the values.
  QuantInfo model_quant;
};

struct IrNode {
  std::string op_type;
  std::string name;
  Attributes attrs;
  std::vector<int> inputs;  // -1: omitted optional input
  std::vector<int> outputs;
};

struct IrInput {
  int tensor = -1;
  std::vector<float> mean;         // per channel; applied by the runtime
  std::vector<float> std;
  std::vector<int> channel_order;  // internal channel c reads application channel channel_order[c]
};

class Graph {
 public:
  int AddTensor(const std::string& name, Shape shape, DataType dtype);
  int AddConstantBytes(const std::string& name, Shape shape, DataType dtype, const void* data, size_t bytes);
  template <typename T>
  int AddConstant(const std::string& name, Shape shape, DataType dtype, const std::vector<T>& values) {
    return AddConstantBytes(name, std::move(shape), dtype, values.data(), values.size() * sizeof(T));
  }
  int AddFloatConstant(const std::string& name, Shape shape, const std::vector<float>& values) {
    return AddConstant(name, std::move(shape), DataType::kFloat32, values);
  }
  int AddInt64Constant(const std::string& name, Shape shape, const std::vector<int64_t>& values) {
    return AddConstant(name, std::move(shape), DataType::kInt64, values);
  }

  // Adds a node with `num_outputs` new tensors (shape unknown until InferShapes);
  // returns the index of its first output tensor.
  int AddNode(const std::string& op_type, const std::vector<int>& inputs, Attributes attrs = {}, int num_outputs = 1,
              const std::string& name = "");

  IrInput& AddInput(int tensor);
  void AddOutput(int tensor) { outputs_.push_back(tensor); }

  // Runs each node's shape function (the runtime's infer) in order.
  Status InferShapes();
  // Runs the shape function of node `index` alone; its inputs must have shapes.
  // Errors are prefixed with the node's name.
  Status InferNodeShapes(size_t index);
  // True when every present input of node `index` is a constant.
  bool HasConstantInputs(size_t index) const;
  // Evaluates node `index` with the runtime op (infer + prepare + eval on
  // temporary buffers); its outputs become constants holding the result. The
  // node itself stays in the graph: the caller removes it. Needs every present
  // input to be a constant.
  Status EvaluateNode(size_t index);

  std::vector<IrTensor>& tensors() { return tensors_; }
  const std::vector<IrTensor>& tensors() const { return tensors_; }
  std::vector<IrNode>& nodes() { return nodes_; }
  const std::vector<IrNode>& nodes() const { return nodes_; }
  const std::vector<IrInput>& inputs() const { return inputs_; }
  std::vector<IrInput>& inputs() { return inputs_; }
  const std::vector<int>& outputs() const { return outputs_; }

 private:
  std::vector<IrTensor> tensors_;
  std::vector<IrNode> nodes_;
  std::vector<IrInput> inputs_;
  std::vector<int> outputs_;
};

}  // namespace compiler
}  // namespace npurt
