// CumSum: running sums along the axis given as input 1 (a single int32 / int64 value, read at eval when
// it is computed at run time); attributes exclusive and reverse.
// Float32 (summed in double), int32, int64 (wrapping).
#include <cinttypes>

#include "runtime/kernels/ref/cumsum.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct CumSumState : OpState {
  CumSumParams params;
  bool runtime_axis = false;  // params made by every eval from the axis' value
};

// The parameters for axis value `axis` (unnormalized).
Status CumSumFor(const Attributes& attrs, const Tensor& x, int64_t axis, CumSumParams* p) {
  int a = 0;
  NPURT_RETURN_IF_ERROR(NormalizeAxis("CumSum", axis, x.rank(), &a));
  for (const char* name : {"exclusive", "reverse"}) {
    int64_t v = 0;
    NPURT_RETURN_IF_ERROR(attrs.GetInt(name, 0, &v));
    NPURT_CHECK_OR_RETURN(v == 0 || v == 1, kModelInvalid, "CumSum: %s must be 0 or 1", name);
    (name[0] == 'e' ? p->exclusive : p->reverse) = v == 1;
  }
  p->type = x.dtype;
  p->outer = p->axis_size = p->inner = 1;
  for (int d = 0; d < x.rank(); ++d) (d < a ? p->outer : d == a ? p->axis_size : p->inner) *= x.shape[d];
  return Status::Ok();
}

int64_t AxisValue(const Tensor& t) {
  return t.dtype == DataType::kInt64 ? *t.as<int64_t>() : static_cast<int64_t>(*t.as<int32_t>());
}

Status CheckCumSum(const Attributes& attrs, const std::vector<const Tensor*>& inputs) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("CumSum", inputs, 2));
  const Tensor& x = *inputs[0];
  const Tensor& axis = *inputs[1];
  NPURT_CHECK_OR_RETURN(IsArithmeticType(x.dtype), kModelInvalid, "CumSum: input type %s is not supported",
                        DataTypeName(x.dtype));
  NPURT_CHECK_OR_RETURN(x.rank() >= 1, kModelInvalid, "CumSum: input must have rank >= 1");
  NPURT_CHECK_OR_RETURN(axis.num_elements() == 1 && axis.rank() <= 1 &&
                            (axis.dtype == DataType::kInt64 || axis.dtype == DataType::kInt32),
                        kModelInvalid, "CumSum: axis must be a single INT32 or INT64 value");
  CumSumParams p;
  return CumSumFor(attrs, x, axis.data != nullptr ? AxisValue(axis) : 0, &p);  // attributes (and a known axis)
}

Status CumSumInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckCumSum(attrs, inputs));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

Status CumSumPrepare(OpNode* node) {
  auto state = std::make_unique<CumSumState>();
  const Tensor& axis = *node->inputs[1];
  state->runtime_axis = !axis.constant;
  if (!state->runtime_axis) NPURT_RETURN_IF_ERROR(CumSumFor(node->attrs, *node->inputs[0], AxisValue(axis), &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status CumSumEval(OpNode* node) {
  const CumSumState* state = node->state_as<CumSumState>();
  CumSumParams p = state->params;
  if (state->runtime_axis) NPURT_RETURN_IF_ERROR(CumSumFor(node->attrs, *node->inputs[0], AxisValue(*node->inputs[1]), &p));
  cumsum__ref(p, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpCumSum = {"CumSum", 2, 2, 1, 1, CumSumInfer, CumSumPrepare, CumSumEval};

}  // namespace npurt
