// Cast: converts element types. Attribute `to` holds an ONNX TensorProto type
// code; the compiler rewrites it to an npurt DataType in attribute `dtype`.
#include "runtime/kernels/ref/cast.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct CastState : OpState {
  CastParams params;
};

Status CastInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const Tensor* x = inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Cast: input is missing");
  int64_t to = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("dtype", -1, &to));
  NPURT_CHECK_OR_RETURN(IsValidDataType(static_cast<int>(to)), kModelInvalid, "Cast: bad target type %lld",
                        static_cast<long long>(to));
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = static_cast<DataType>(to);
  return Status::Ok();
}

Status CastPrepare(OpNode* node) {
  auto state = std::make_unique<CastState>();
  state->params.from = node->inputs[0]->dtype;
  state->params.to = node->outputs[0]->dtype;
  state->params.count = static_cast<size_t>(node->inputs[0]->num_elements());
  node->state = std::move(state);
  return Status::Ok();
}

Status CastEval(OpNode* node) {
  cast__ref(node->state_as<CastState>()->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpCast = {"Cast", 1, 1, 1, 1, CastInfer, CastPrepare, CastEval};

}  // namespace npurt
