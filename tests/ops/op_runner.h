// Runs one operator outside a model (TFLite Micro's KernelRunner): infer the
// output shapes, prepare, eval. Tests give inputs as typed vectors and read
// outputs back as vectors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kernels/ref/layout.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace testing {

class OpRunner {
 public:
  explicit OpRunner(const std::string& op_name) : def_(FindOp(op_name)) {}

  Attributes& attrs() { return attrs_; }
  // Threads eval may split over (OpNode::threads; the context sets it from the core mask).
  void set_threads(int threads) { node_.threads = threads; }

  // Adds an input; `constant` marks a value the compiler would know (weights, shapes).
  template <typename T>
  void AddInput(Shape shape, const std::vector<T>& values, DataType dtype, bool constant = false) {
    auto t = std::make_unique<Tensor>();
    t->name = "in" + std::to_string(inputs_.size());
    t->shape = std::move(shape);
    t->dtype = dtype;
    t->bytes = values.size() * sizeof(T);
    storage_.emplace_back(t->bytes + 1);
    if (!values.empty()) std::memcpy(storage_.back().data(), values.data(), t->bytes);
    t->data = storage_.back().data();
    t->constant = constant;
    inputs_.push_back(std::move(t));
  }
  void AddFloatInput(Shape shape, const std::vector<float>& v, bool constant = false) {
    AddInput(std::move(shape), v, DataType::kFloat32, constant);
  }
  void AddInt64Input(Shape shape, const std::vector<int64_t>& v, bool constant = true) {
    AddInput(std::move(shape), v, DataType::kInt64, constant);
  }
  // An omitted optional input (ONNX empty name).
  void AddAbsentInput() { inputs_.push_back(nullptr); }
  size_t num_inputs() const { return inputs_.size(); }

  // Quantization parameters of input `i` (already added) and of output `i`
  // (applied when Run creates the outputs, before prepare; in a model the
  // compiler records them).
  void SetInputQuant(size_t i, QuantInfo quant) { inputs_.at(i)->quant = std::move(quant); }
  void SetOutputQuant(size_t i, QuantInfo quant) {
    if (output_quant_.size() <= i) output_quant_.resize(i + 1);
    output_quant_[i] = std::move(quant);
  }

  // Stores the given rank-4 inputs and output 0 channels-last for eval (Tensor::channels_last, as the
  // context's layout pass would after prepare): tests still give and read values in the ONNX order.
  void SetChannelsLast(std::vector<bool> inputs, bool output) {
    channels_last_inputs_ = std::move(inputs);
    channels_last_output_ = output;
  }

  // Infers shapes, allocates outputs, prepares and evaluates once.
  Status Run(int num_outputs = 1) {
    if (def_ == nullptr) return Status(StatusCode::kModelInvalid, "unknown op");
    std::vector<const Tensor*> infer_inputs;
    for (auto& t : inputs_) {
      if (t == nullptr) {
        infer_inputs.push_back(nullptr);
        continue;
      }
      // Like the compiler: only constant values are visible to infer.
      auto view = std::make_unique<Tensor>(*t);
      if (!t->constant) view->data = nullptr;
      infer_inputs.push_back(view.get());
      infer_views_.push_back(std::move(view));
    }
    std::vector<Tensor> inferred(num_outputs);
    NPURT_RETURN_IF_ERROR(def_->infer(attrs_, infer_inputs, &inferred));
    node_.def = def_;
    node_.name = "test";
    node_.attrs = attrs_;
    node_.inputs.clear();
    for (auto& t : inputs_) node_.inputs.push_back(t.get());
    outputs_.clear();
    for (Tensor& o : inferred) {
      auto t = std::make_unique<Tensor>(o);
      const int64_t n = NumElements(t->shape);
      if (n < 0) return Status(StatusCode::kModelInvalid, "bad inferred shape");
      t->bytes = static_cast<size_t>(n) * DataTypeSize(t->dtype);
      storage_.emplace_back(t->bytes + 1);
      t->data = storage_.back().data();
      if (outputs_.size() < output_quant_.size()) t->quant = output_quant_[outputs_.size()];
      outputs_.push_back(std::move(t));
    }
    node_.outputs.clear();
    for (auto& t : outputs_) node_.outputs.push_back(t.get());
    if (def_->prepare != nullptr) NPURT_RETURN_IF_ERROR(def_->prepare(&node_));
    // The scratch the context would give (OpNode::scratch), 64-byte aligned.
    scratch_.assign(node_.scratch_bytes + 64, 0);
    node_.scratch = node_.scratch_bytes == 0 ? nullptr
                                             : scratch_.data() + (64 - reinterpret_cast<uintptr_t>(scratch_.data()) % 64);
    for (size_t i = 0; i < channels_last_inputs_.size() && i < inputs_.size(); ++i) {
      if (channels_last_inputs_[i] && inputs_[i] != nullptr) Relayout(inputs_[i].get(), true);
    }
    if (channels_last_output_) outputs_[0]->channels_last = true;
    NPURT_RETURN_IF_ERROR(def_->eval(&node_));
    if (channels_last_output_) Relayout(outputs_[0].get(), false);
    return Status::Ok();
  }

  const Tensor& output(size_t i = 0) const { return *outputs_[i]; }
  const OpNode& node() const { return node_; }  // after Run: what prepare chose (kernel, layouts)
  template <typename T>
  std::vector<T> OutputValues(size_t i = 0) const {
    const Tensor& t = *outputs_[i];
    const T* p = t.as<T>();
    return std::vector<T>(p, p + t.bytes / sizeof(T));
  }
  std::vector<float> FloatOutput(size_t i = 0) const { return OutputValues<float>(i); }
  Shape OutputShape(size_t i = 0) const { return outputs_[i]->shape; }

 private:
  // A rank-4 tensor's bytes to channels-last (flagged) or back to NCHW (flag cleared).
  void Relayout(Tensor* t, bool to_last) {
    if (t->rank() != 4) return;
    std::vector<uint8_t> copy(static_cast<const uint8_t*>(t->data), static_cast<const uint8_t*>(t->data) + t->bytes);
    const int64_t spatial = t->shape[2] * t->shape[3];
    if (to_last) {
      nchw_to_nhwc(copy.data(), t->data, t->shape[0], t->shape[1], spatial, DataTypeSize(t->dtype));
    } else {
      nhwc_to_nchw(copy.data(), t->data, t->shape[0], t->shape[1], spatial, DataTypeSize(t->dtype));
    }
    t->channels_last = to_last;
  }

  const OpDef* def_;
  Attributes attrs_;
  std::vector<std::unique_ptr<Tensor>> inputs_;
  std::vector<std::unique_ptr<Tensor>> infer_views_;
  std::vector<std::unique_ptr<Tensor>> outputs_;
  std::vector<QuantInfo> output_quant_;
  std::vector<std::vector<uint8_t>> storage_;
  std::vector<uint8_t> scratch_;
  std::vector<bool> channels_last_inputs_;
  bool channels_last_output_ = false;
  OpNode node_;
};

// Same size, then every element within `tol` (reported by index).
inline void ExpectAllNear(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace testing
}  // namespace npurt
