// The operator contract (TFLite Micro style, see docs/adding_an_op.md):
//   infer   - output shapes and types from input shapes, types, attributes and any
//             input whose value is known (constants). Used by the compiler for shape
//             inference and by the runtime to verify what the model file claims.
//   prepare - optional; checks what infer did not and builds persistent state
//             (kernel parameters). May allocate. Runs once in rknn_init.
//   eval    - compute only: no allocation, no logging on the fast path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {

// A tensor as ops see it. At infer time `data` is set only for values known
// ahead of time; at prepare/eval time every present tensor has `data`.
struct Tensor {
  std::string name;
  Shape shape;
  DataType dtype = DataType::kFloat32;
  void* data = nullptr;
  size_t bytes = 0;
  bool constant = false;
  QuantInfo quant;  // integer tensors of quantized models; set by the compiler, not by infer
  // Stored channels-last (N, H, W, C) while `shape` stays the logical (N, C, H, W): set by the
  // context's layout pass (runtime/core/layout_pass.h) on activations that flow only between ops
  // that declared they handle it, so NHWC kernels chain without relayouts.
  bool channels_last = false;

  int64_t num_elements() const { return NumElements(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  template <typename T>
  T* as() const { return static_cast<T*>(data); }
};

// Persistent per-node state made by prepare (kernel parameters, packed weights).
struct OpState {
  virtual ~OpState() = default;
};

struct OpDef;
class CustomOpTable;

struct OpNode {
  const OpDef* def = nullptr;
  std::string name;
  Attributes attrs;
  std::vector<Tensor*> inputs;   // nullptr marks an omitted optional input
  std::vector<Tensor*> outputs;
  std::unique_ptr<OpState> state;
  // Threads eval may split its work over (runtime/core/thread_pool.h); the
  // context sets it from its core mask. Ops that do not split ignore it.
  int threads = 1;
  // The kernel eval runs, named for PERF_DETAIL and `npurt info` ("ref", or what
  // prepare chose from runtime/kernels/dispatch.h, e.g. "onednn:brgconv:avx512_core_vnni").
  std::string kernel = "ref";
  // Layouts (runtime/core/layout_pass.h), declared by prepare: `channels_last_io` -- eval takes
  // input 0 (and any other input of output 0's shape: a Conv's residual) and writes output 0 in
  // whichever layout their Tensor::channels_last says (the NHWC kernels); `layout_agnostic` -- an elementwise op whose operands of the output's size may all be
  // channels-last together (other operands are single values or read the same in either layout,
  // e.g. a per-channel (1, C, 1, 1) scale; eval then walks the channels-last order).
  bool channels_last_io = false;
  bool layout_agnostic = false;
  // Every operand in one layout, whichever it is (Concat: eval reads the channels-last order then).
  bool layout_tied = false;
  // The kernel eval runs when input 0 ends up channels-last, if that differs from `kernel` (the
  // layout pass, which runs after prepare, puts it into `kernel`).
  const char* channels_last_kernel = nullptr;
  // False when the constants live in application memory (RKNN_FLAG_MEM_ALLOC_OUTSIDE,
  // rknn_set_weight_mem) that may be absent at prepare and may change between runs:
  // then no kernel may pack them in prepare; eval reads them in place.
  bool may_pack_constants = true;
  // Scratch memory prepare asks for and the context provides (one block shared by
  // every node, as nodes run one at a time), 64-byte aligned; valid in eval only.
  size_t scratch_bytes = 0;
  uint8_t* scratch = nullptr;
  // fp16 models (Model::float_dtype): the executor rounds each float32 output to fp16 values after eval,
  // as the NPU stores an op's output (runtime/core/half_storage.h). nullptr: outputs stay float32.
  int64_t (*round_to_half)(float* x, int64_t n) = nullptr;
  // The custom op types the application registered on the context (runtime/ops/custom_op.h); read by
  // Custom nodes only. nullptr: none (the compiler's own runs).
  const CustomOpTable* custom_ops = nullptr;

  const Tensor* input(size_t i) const { return i < inputs.size() ? inputs[i] : nullptr; }
  template <typename T>
  T* state_as() const { return static_cast<T*>(state.get()); }
};

// Infer fills `outputs` (already sized to the node's output count) with shape and dtype.
using InferFn = Status (*)(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                           std::vector<Tensor>* outputs);
using PrepareFn = Status (*)(OpNode* node);
using EvalFn = Status (*)(OpNode* node);

struct OpDef {
  const char* name;
  int min_inputs;
  int max_inputs;
  int min_outputs;
  int max_outputs;
  InferFn infer;
  PrepareFn prepare;  // may be nullptr
  EvalFn eval;
  // Output 0 holds input 0's bytes unchanged (Reshape, Flatten, Squeeze, Unsqueeze, Identity): the
  // compiler may plan both on the same arena bytes, and eval then has nothing to copy.
  bool view = false;
  // Given fp16 values, every float output value is an fp16 value: a copy, a choice among its inputs'
  // values (max, min, Where) or |x| / Relu of one. An fp16 model does not round after it (nothing changes).
  bool keeps_half_values = false;
  // The application's operator (runtime/ops/custom_op.h), not an ONNX one: the importer makes it from nodes
  // of other domains only, never from an ONNX node of the same name.
  bool custom = false;
};

// Every op listed in ops.def, in that order.
const std::vector<const OpDef*>& AllOps();
// nullptr when the name is not an op of this build.
const OpDef* FindOp(const std::string& name);

// Helpers shared by op implementations.

// The threads worth using for `work` multiply-accumulates (or element steps) of a node: 1
// below the size where waking a worker costs more than it saves.
int ThreadsFor(const OpNode& node, int64_t work);
Status ExpectInputType(const char* op, const Tensor* t, DataType type, int index);
// Exactly `count` inputs, each present with a valid shape.
Status ExpectInputs(const char* op, const std::vector<const Tensor*>& inputs, size_t count);
// Float32, int32 or int64: the types of ONNX's arithmetic on plain (unquantized) numbers.
bool IsArithmeticType(DataType t);
// Converts a possibly negative axis into [0, rank); error when out of range.
Status NormalizeAxis(const char* op, int64_t axis, int rank, int* out);
// Reads an integer tensor (int32 or int64) whose value is known.
Status ReadIntValues(const char* op, const Tensor* t, std::vector<int64_t>* out);

}  // namespace npurt
