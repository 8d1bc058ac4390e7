// Split: cuts the input along `axis` into as many outputs as the node has.
// Sizes come from attribute `split` (opset < 13) or constant input 1 (opset >= 13).
// Without sizes the split is equal; with attribute `num_outputs` (opset 18) the
// chunks are ceil(dim / n) and the last one takes the remainder. Byte copies
// serve every type; quantized (INT8) outputs carry the input's parameters.
#include "runtime/kernels/ref/split.h"

#include <cinttypes>
#include <cstdint>
#include <limits>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct SplitState : OpState {
  std::vector<size_t> chunk_bytes;
  std::vector<void*> output_data;  // refreshed every eval; sized here so eval never allocates
  SplitParams params;
};

// Output sizes along the axis, validated against the input dim.
Status SplitSizes(const Attributes& attrs, const std::vector<const Tensor*>& inputs, size_t num_outputs, int* axis,
                  std::vector<int64_t>* sizes) {
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Split: input 0 is missing");
  NPURT_CHECK_OR_RETURN(DataTypeSize(x->dtype) != 0, kModelInvalid, "Split: unknown element type");
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "Split: bad input shape %s",
                        ShapeToString(x->shape).c_str());
  NPURT_CHECK_OR_RETURN(x->rank() >= 1, kModelInvalid, "Split: input must have rank >= 1");
  NPURT_CHECK_OR_RETURN(num_outputs >= 1, kModelInvalid, "Split: needs at least one output");
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &axis_attr));
  NPURT_RETURN_IF_ERROR(NormalizeAxis("Split", axis_attr, x->rank(), axis));
  const int64_t dim = x->shape[*axis];

  const Tensor* split_input = inputs.size() > 1 ? inputs[1] : nullptr;
  const bool has_split = split_input != nullptr || attrs.Has("split");
  if (has_split) {
    NPURT_CHECK_OR_RETURN(!attrs.Has("num_outputs"), kModelInvalid,
                          "Split: 'split' and 'num_outputs' cannot both be given");
    if (split_input != nullptr) {
      NPURT_CHECK_OR_RETURN(split_input->rank() == 1, kModelInvalid, "Split: input 'split' must be 1-D");
      NPURT_RETURN_IF_ERROR(ReadIntValues("Split", split_input, sizes));
    } else {
      NPURT_RETURN_IF_ERROR(attrs.GetInts("split", {}, sizes));
    }
    NPURT_CHECK_OR_RETURN(sizes->size() == num_outputs, kModelInvalid, "Split: %zu split sizes for %zu outputs",
                          sizes->size(), num_outputs);
    int64_t total = 0;
    for (int64_t s : *sizes) {
      NPURT_CHECK_OR_RETURN(s >= 0 && s <= dim - total, kModelInvalid,
                            "Split: split sizes do not add up to dim %" PRId64, dim);
      total += s;
    }
    NPURT_CHECK_OR_RETURN(total == dim, kModelInvalid, "Split: split sizes add up to %" PRId64 ", dim is %" PRId64,
                          total, dim);
    return Status::Ok();
  }

  const int64_t n = static_cast<int64_t>(num_outputs);
  if (attrs.Has("num_outputs")) {
    int64_t num_outputs_attr = 0;
    NPURT_RETURN_IF_ERROR(attrs.GetInt("num_outputs", 0, &num_outputs_attr));
    NPURT_CHECK_OR_RETURN(num_outputs_attr == n, kModelInvalid,
                          "Split: num_outputs is %" PRId64 " but the node has %zu outputs", num_outputs_attr,
                          num_outputs);
  } else {
    // Before opset 18 an unspecified split must be equal.
    NPURT_CHECK_OR_RETURN(dim % n == 0, kModelInvalid, "Split: dim %" PRId64 " is not divisible into %zu outputs", dim,
                          num_outputs);
  }
  const int64_t chunk = dim / n + (dim % n != 0 ? 1 : 0);
  const int64_t last = dim - chunk * (n - 1);  // no overflow: chunk * (n - 1) < dim + n
  NPURT_CHECK_OR_RETURN(last >= 0, kModelInvalid, "Split: dim %" PRId64 " cannot be split into %zu chunks of %" PRId64,
                        dim, num_outputs, chunk);
  sizes->assign(num_outputs, chunk);
  sizes->back() = last;
  return Status::Ok();
}

Status SplitInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  int axis = 0;
  std::vector<int64_t> sizes;
  NPURT_RETURN_IF_ERROR(SplitSizes(attrs, inputs, outputs->size(), &axis, &sizes));
  for (size_t i = 0; i < outputs->size(); ++i) {
    (*outputs)[i].shape = inputs[0]->shape;
    (*outputs)[i].shape[axis] = sizes[i];
    (*outputs)[i].dtype = inputs[0]->dtype;
  }
  return Status::Ok();
}

Status SplitPrepare(OpNode* node) {
  const Tensor* x = node->inputs[0];
  std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  int axis = 0;
  std::vector<int64_t> sizes;
  NPURT_RETURN_IF_ERROR(SplitSizes(node->attrs, inputs, node->outputs.size(), &axis, &sizes));
  for (const Tensor* out : node->outputs) {
    if (out != nullptr) NPURT_RETURN_IF_ERROR(ExpectSameQuant("Split", *x, *out));
  }

  size_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(x->shape[d]);
  size_t inner = DataTypeSize(x->dtype);
  for (size_t d = static_cast<size_t>(axis) + 1; d < x->shape.size(); ++d) inner *= static_cast<size_t>(x->shape[d]);

  auto state = std::make_unique<SplitState>();
  for (int64_t s : sizes) state->chunk_bytes.push_back(static_cast<size_t>(s) * inner);
  state->output_data.resize(node->outputs.size());
  state->params.outer = outer;
  state->params.num_outputs = node->outputs.size();
  state->params.chunk_bytes = state->chunk_bytes.data();
  node->state = std::move(state);
  return Status::Ok();
}

Status SplitEval(OpNode* node) {
  SplitState* state = node->state_as<SplitState>();
  if (node->inputs[0]->num_elements() == 0) return Status::Ok();
  for (size_t i = 0; i < node->outputs.size(); ++i) {
    state->output_data[i] = node->outputs[i] != nullptr ? node->outputs[i]->data : nullptr;
  }
  split__ref(state->params, node->inputs[0]->data, state->output_data.data());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpSplit = {"Split", 1, 2, 1, std::numeric_limits<int>::max(), SplitInfer, SplitPrepare, SplitEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
