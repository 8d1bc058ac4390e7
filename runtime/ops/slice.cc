// Slice: starts/ends/axes as attributes (opset < 10, no steps) or as constant
// inputs 1..4 (opset >= 10). Indices follow ONNX: negative values count from
// the end, then clamp to the dim ([0, dim] for positive steps, [-1, dim - 1]
// for the end with negative steps), so INT64_MAX / INT64_MIN mean "to the end".
// Element copies serve every type; quantized (INT8) tensors keep the input's parameters.
#include "runtime/kernels/ref/slice.h"

#include <algorithm>
#include <cstdint>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct SlicePlan {
  Shape out_shape;
  std::vector<int64_t> starts;  // per input dim, in range
  std::vector<int64_t> steps;   // per input dim, |step| <= max(dim, 1)
};

struct SliceState : OpState {
  SlicePlan plan;
  std::vector<int64_t> in_strides;
  SliceParams params;
};

Status ReadSliceArgs(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<int64_t>* starts,
                     std::vector<int64_t>* ends, std::vector<int64_t>* axes, std::vector<int64_t>* steps,
                     bool* has_axes) {
  const bool from_inputs = inputs.size() > 1;
  if (!from_inputs) {
    NPURT_CHECK_OR_RETURN(attrs.Has("starts") && attrs.Has("ends"), kModelInvalid,
                          "Slice: needs 'starts' and 'ends' (attributes or inputs 1 and 2)");
    NPURT_RETURN_IF_ERROR(attrs.GetInts("starts", {}, starts));
    NPURT_RETURN_IF_ERROR(attrs.GetInts("ends", {}, ends));
    *has_axes = attrs.Has("axes");
    NPURT_RETURN_IF_ERROR(attrs.GetInts("axes", {}, axes));
    steps->assign(starts->size(), 1);
    return Status::Ok();
  }
  const Tensor* t_starts = inputs[1];
  const Tensor* t_ends = inputs.size() > 2 ? inputs[2] : nullptr;
  const Tensor* t_axes = inputs.size() > 3 ? inputs[3] : nullptr;
  const Tensor* t_steps = inputs.size() > 4 ? inputs[4] : nullptr;
  NPURT_CHECK_OR_RETURN(t_starts != nullptr && t_ends != nullptr, kModelInvalid,
                        "Slice: 'starts' and 'ends' are required");
  for (const Tensor* t : {t_starts, t_ends, t_axes, t_steps}) {
    NPURT_CHECK_OR_RETURN(t == nullptr || t->rank() == 1, kModelInvalid, "Slice: starts/ends/axes/steps must be 1-D");
  }
  NPURT_RETURN_IF_ERROR(ReadIntValues("Slice", t_starts, starts));
  NPURT_RETURN_IF_ERROR(ReadIntValues("Slice", t_ends, ends));
  *has_axes = t_axes != nullptr;
  if (t_axes != nullptr) NPURT_RETURN_IF_ERROR(ReadIntValues("Slice", t_axes, axes));
  if (t_steps != nullptr) {
    NPURT_RETURN_IF_ERROR(ReadIntValues("Slice", t_steps, steps));
  } else {
    steps->assign(starts->size(), 1);
  }
  return Status::Ok();
}

Status MakeSlicePlan(const Attributes& attrs, const std::vector<const Tensor*>& inputs, SlicePlan* plan) {
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Slice: input 0 is missing");
  NPURT_CHECK_OR_RETURN(DataTypeSize(x->dtype) != 0, kModelInvalid, "Slice: unknown element type");
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "Slice: bad input shape %s",
                        ShapeToString(x->shape).c_str());
  std::vector<int64_t> starts, ends, axes, steps;
  bool has_axes = false;
  NPURT_RETURN_IF_ERROR(ReadSliceArgs(attrs, inputs, &starts, &ends, &axes, &steps, &has_axes));
  const size_t n = starts.size();
  if (!has_axes) {
    axes.resize(n);
    for (size_t i = 0; i < n; ++i) axes[i] = static_cast<int64_t>(i);
  }
  NPURT_CHECK_OR_RETURN(ends.size() == n && axes.size() == n && steps.size() == n, kModelInvalid,
                        "Slice: starts/ends/axes/steps have different lengths (%zu/%zu/%zu/%zu)", n, ends.size(),
                        axes.size(), steps.size());

  const int rank = x->rank();
  plan->out_shape = x->shape;
  plan->starts.assign(rank, 0);
  plan->steps.assign(rank, 1);
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    int axis = 0;
    NPURT_RETURN_IF_ERROR(NormalizeAxis("Slice", axes[i], rank, &axis));
    NPURT_CHECK_OR_RETURN(!seen[axis], kModelInvalid, "Slice: axis %d is repeated", axis);
    seen[axis] = true;
    NPURT_CHECK_OR_RETURN(steps[i] != 0, kModelInvalid, "Slice: step must not be 0");
    const int64_t dim = x->shape[axis];
    // A step longer than the dim picks at most one element; capping it keeps
    // step * stride from overflowing in the kernel.
    const int64_t max_step = std::max<int64_t>(dim, 1);
    const int64_t step = std::clamp(steps[i], -max_step, max_step);
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    int64_t len = 0;
    if (dim == 0) {
      start = 0;
    } else if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      len = end > start ? (end - start + step - 1) / step : 0;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      len = start > end ? (start - end - step - 1) / -step : 0;
    }
    if (len == 0) start = 0;  // nothing is read; keep the offset in range
    plan->out_shape[axis] = len;
    plan->starts[axis] = start;
    plan->steps[axis] = step;
  }
  return Status::Ok();
}

Status SliceInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  SlicePlan plan;
  NPURT_RETURN_IF_ERROR(MakeSlicePlan(attrs, inputs, &plan));
  (*outputs)[0].shape = plan.out_shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

Status SlicePrepare(OpNode* node) {
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Slice", *node->inputs[0], *node->outputs[0]));
  auto state = std::make_unique<SliceState>();
  std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(MakeSlicePlan(node->attrs, inputs, &state->plan));
  const Shape& in_shape = node->inputs[0]->shape;
  state->in_strides.assign(in_shape.size(), 1);
  for (int d = static_cast<int>(in_shape.size()) - 2; d >= 0; --d) {
    state->in_strides[d] = state->in_strides[d + 1] * in_shape[d + 1];
  }
  state->params.rank = static_cast<int>(in_shape.size());
  state->params.element_size = DataTypeSize(node->inputs[0]->dtype);
  state->params.out_shape = state->plan.out_shape.data();
  state->params.in_strides = state->in_strides.data();
  state->params.starts = state->plan.starts.data();
  state->params.steps = state->plan.steps.data();
  node->state = std::move(state);
  return Status::Ok();
}

Status SliceEval(OpNode* node) {
  slice__ref(node->state_as<SliceState>()->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpSlice = {"Slice", 1, 5, 1, 1, SliceInfer, SlicePrepare, SliceEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
