// Concat: joins tensors along `axis` (required, negative counts from the end).
// Inputs must agree on type, rank and every dim but the axis; zero-size inputs
// are allowed and contribute nothing.
//
// INT8 (quantized models): every input and the output carry per-tensor
// quantization; an input whose parameters differ from the output's is
// requantized (s8_concat__ref), otherwise copied. INT8 tensors without any
// quantization parameters (plain integers) are copied. INT16 (the hybrid
// scheme) works the same way, with parameters required.
#include "runtime/kernels/ref/concat.h"

#include <cstdint>
#include <cstdio>
#include <vector>
#include <limits>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/portable/concat_tables.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

// How eval walks the tensors in one layout: `outer` blocks, each input contributing a chunk per block.
struct ConcatWalk {
  std::vector<size_t> chunk_bytes;
  ConcatParams params;
  std::vector<S8ConcatInput> s8_inputs;  // quantized only
  S8ConcatParams s8;
};

struct ConcatState : OpState {
  ConcatWalk walk;       // the ONNX layout
  ConcatWalk nhwc_walk;  // rank 4, every operand channels-last (OpNode::layout_tied)
  std::vector<const void*> input_data;  // refreshed every eval; sized here so eval never allocates
  bool requantize = false;  // INT8 with an input quantized differently from the output
  std::vector<const int8_t*> s8_data;  // as input_data
  std::vector<const int16_t*> s16_data;
  // int8 requantization through tables (runtime/kernels/portable/concat_tables.h): 256 codes per
  // requantized input, and per input its table or nullptr (copied).
  std::vector<int8_t> table_storage;
  std::vector<const int8_t*> tables;
};

// The walk of tensors of `shape` (the output's, in the order their bytes lie) joined along `axis`.
void PrepareWalk(const OpNode& node, const Shape& shape, int axis, const std::vector<int64_t>& axis_lengths,
                 ConcatWalk* walk) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(shape[d]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= static_cast<size_t>(shape[d]);
  const size_t elem = DataTypeSize(node.outputs[0]->dtype);
  for (int64_t length : axis_lengths) walk->chunk_bytes.push_back(static_cast<size_t>(length) * inner * elem);
  walk->params.outer = outer;
  walk->params.num_inputs = axis_lengths.size();
  walk->params.chunk_bytes = walk->chunk_bytes.data();
  for (size_t i = 0; i < walk->s8_inputs.size(); ++i) walk->s8_inputs[i].chunk = walk->chunk_bytes[i] / elem;
  walk->s8.outer = outer;
  walk->s8.num_inputs = walk->s8_inputs.size();
  walk->s8.inputs = walk->s8_inputs.data();
}

// INT8: fills the requantization parameters (the walk's s8 part, chunks aside) when some input's
// parameters differ from the output's.
Status PrepareInt8(const OpNode* node, ConcatState* state) {
  bool any_quant = !node->outputs[0]->quant.empty() || node->outputs[0]->dtype == DataType::kInt16;
  for (const Tensor* t : node->inputs) any_quant = any_quant || !t->quant.empty();
  if (!any_quant) return Status::Ok();  // plain int8 integers: bytes
  ActivationQuant out_q;
  NPURT_RETURN_IF_ERROR(GetActivationQuant("Concat", *node->outputs[0], "output", &out_q));
  for (size_t i = 0; i < node->inputs.size(); ++i) {
    const Tensor* t = node->inputs[i];
    char role[32];
    snprintf(role, sizeof(role), "input %zu", i);
    ActivationQuant q;
    NPURT_RETURN_IF_ERROR(GetActivationQuant("Concat", *t, role, &q));
    S8ConcatInput in;
    in.scale = q.scale;
    in.zero_point = q.zero_point;
    in.copy = q == out_q;
    state->requantize = state->requantize || !in.copy;
    state->walk.s8_inputs.push_back(in);
  }
  state->s8_data.resize(node->inputs.size());
  state->s16_data.resize(node->inputs.size());
  state->walk.s8.out_scale = out_q.scale;
  state->walk.s8.out_zero_point = out_q.zero_point;
  state->nhwc_walk.s8_inputs = state->walk.s8_inputs;
  state->nhwc_walk.s8 = state->walk.s8;
  return Status::Ok();
}

Status ConcatInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_CHECK_OR_RETURN(!inputs.empty() && inputs[0] != nullptr, kModelInvalid, "Concat: input 0 is missing");
  const Tensor* first = inputs[0];
  NPURT_CHECK_OR_RETURN(DataTypeSize(first->dtype) != 0, kModelInvalid, "Concat: unknown element type");
  NPURT_CHECK_OR_RETURN(attrs.Has("axis"), kModelInvalid, "Concat: attribute 'axis' is required");
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &axis_attr));
  const int rank = first->rank();
  NPURT_CHECK_OR_RETURN(rank >= 1, kModelInvalid, "Concat: inputs must have rank >= 1");
  int axis = 0;
  NPURT_RETURN_IF_ERROR(NormalizeAxis("Concat", axis_attr, rank, &axis));

  Shape out_shape = first->shape;
  out_shape[axis] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor* t = inputs[i];
    NPURT_CHECK_OR_RETURN(t != nullptr, kModelInvalid, "Concat: input %zu is missing", i);
    NPURT_CHECK_OR_RETURN(t->dtype == first->dtype, kModelInvalid, "Concat: input %zu has type %s, expected %s", i,
                          DataTypeName(t->dtype), DataTypeName(first->dtype));
    NPURT_CHECK_OR_RETURN(t->rank() == rank && t->num_elements() >= 0, kModelInvalid,
                          "Concat: input %zu has shape %s, expected rank %d", i, ShapeToString(t->shape).c_str(), rank);
    for (int d = 0; d < rank; ++d) {
      if (d == axis) continue;
      NPURT_CHECK_OR_RETURN(t->shape[d] == first->shape[d], kModelInvalid,
                            "Concat: input %zu shape %s does not match %s outside axis %d", i,
                            ShapeToString(t->shape).c_str(), ShapeToString(first->shape).c_str(), axis);
    }
    NPURT_CHECK_OR_RETURN(out_shape[axis] <= std::numeric_limits<int64_t>::max() - t->shape[axis], kModelInvalid,
                          "Concat: output dim overflows");
    out_shape[axis] += t->shape[axis];
  }
  NPURT_CHECK_OR_RETURN(NumElements(out_shape) >= 0 &&
                            NumElements(out_shape) <= INT64_MAX / static_cast<int64_t>(DataTypeSize(first->dtype)),
                        kModelInvalid, "Concat: output shape %s is too large", ShapeToString(out_shape).c_str());
  (*outputs)[0].shape = out_shape;
  (*outputs)[0].dtype = first->dtype;
  return Status::Ok();
}

Status ConcatPrepare(OpNode* node) {
  const Tensor* first = node->inputs[0];
  const Shape& out_shape = node->outputs[0]->shape;
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(node->attrs.GetInt("axis", 0, &axis_attr));
  int axis = 0;
  NPURT_RETURN_IF_ERROR(NormalizeAxis("Concat", axis_attr, first->rank(), &axis));
  std::vector<int64_t> axis_lengths;
  for (const Tensor* t : node->inputs) axis_lengths.push_back(t->shape[axis]);

  auto state = std::make_unique<ConcatState>();
  state->input_data.resize(node->inputs.size());
  if (IsQuantizedActivationType(first->dtype)) NPURT_RETURN_IF_ERROR(PrepareInt8(node, state.get()));
  PrepareWalk(*node, out_shape, axis, axis_lengths, &state->walk);
  if (out_shape.size() == 4) {
    // Channels-last: the same join over (N, H, W, C), where the logical axis d lies at position kPosition[d].
    constexpr int kPosition[4] = {0, 3, 1, 2};
    const Shape nhwc = {out_shape[0], out_shape[2], out_shape[3], out_shape[1]};
    PrepareWalk(*node, nhwc, kPosition[axis], axis_lengths, &state->nhwc_walk);
    node->layout_tied = true;
  }
  if (state->requantize && first->dtype == DataType::kInt8 && ActiveCpuTarget() != CpuTarget::kRef) {
    const std::vector<S8ConcatInput>& inputs = state->walk.s8_inputs;
    state->table_storage.resize(256 * inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      int8_t* table = state->table_storage.data() + 256 * i;
      if (!inputs[i].copy) BuildConcatRequantizeTable(state->walk.s8, inputs[i], table);
      state->tables.push_back(inputs[i].copy ? nullptr : table);
    }
    node->kernel = "s8_concat__tables";
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status ConcatEval(OpNode* node) {
  ConcatState* state = node->state_as<ConcatState>();
  if (node->outputs[0]->num_elements() == 0) return Status::Ok();
  const ConcatWalk& walk = node->outputs[0]->channels_last ? state->nhwc_walk : state->walk;
  for (size_t i = 0; i < node->inputs.size(); ++i) state->input_data[i] = node->inputs[i]->data;
  if (state->requantize && node->outputs[0]->dtype == DataType::kInt16) {
    for (size_t i = 0; i < node->inputs.size(); ++i) state->s16_data[i] = node->inputs[i]->as<int16_t>();
    s16_concat__ref(walk.s8, state->s16_data.data(), node->outputs[0]->as<int16_t>());
    return Status::Ok();
  }
  if (state->requantize) {
    for (size_t i = 0; i < node->inputs.size(); ++i) state->s8_data[i] = node->inputs[i]->as<int8_t>();
    if (!state->tables.empty()) {
      s8_concat__tables(walk.s8, state->tables.data(), state->s8_data.data(), node->outputs[0]->as<int8_t>());
      return Status::Ok();
    }
    s8_concat__ref(walk.s8, state->s8_data.data(), node->outputs[0]->as<int8_t>());
    return Status::Ok();
  }
  concat__ref(walk.params, state->input_data.data(), node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpConcat = {"Concat",      1,         std::numeric_limits<int>::max(), 1, 1, ConcatInfer,
                                ConcatPrepare, ConcatEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
