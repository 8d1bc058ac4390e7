// EyeLike: a matrix of the input's 2-D shape with ones on diagonal k; attribute dtype (an npurt
// DataType the converter sets from the ONNX code; default the input's type).
#include <cinttypes>

#include "runtime/kernels/ref/eye_like.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct EyeLikeState : OpState {
  DataType type = DataType::kFloat32;
  int64_t rows = 0, cols = 0, k = 0;
};

Status ReadEyeLike(const Attributes& attrs, const std::vector<const Tensor*>& inputs, EyeLikeState* s) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("EyeLike", inputs, 1));
  const Tensor& x = *inputs[0];
  NPURT_CHECK_OR_RETURN(x.rank() == 2, kModelInvalid, "EyeLike: input must be 2-D, got %s",
                        ShapeToString(x.shape).c_str());
  int64_t dtype = static_cast<int64_t>(x.dtype);
  NPURT_RETURN_IF_ERROR(attrs.GetInt("dtype", dtype, &dtype));
  NPURT_CHECK_OR_RETURN(dtype >= 0 && dtype < kNumDataTypes, kModelInvalid, "EyeLike: bad dtype %" PRId64, dtype);
  s->type = static_cast<DataType>(dtype);
  NPURT_RETURN_IF_ERROR(attrs.GetInt("k", 0, &s->k));
  s->rows = x.shape[0];
  s->cols = x.shape[1];
  return Status::Ok();
}

Status EyeLikeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  EyeLikeState s;
  NPURT_RETURN_IF_ERROR(ReadEyeLike(attrs, inputs, &s));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = s.type;
  return Status::Ok();
}

Status EyeLikePrepare(OpNode* node) {
  auto state = std::make_unique<EyeLikeState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadEyeLike(node->attrs, inputs, state.get()));
  node->state = std::move(state);
  return Status::Ok();
}

Status EyeLikeEval(OpNode* node) {
  const EyeLikeState* s = node->state_as<EyeLikeState>();
  eye_like__ref(s->type, s->rows, s->cols, s->k, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpEyeLike = {"EyeLike", 1, 1, 1, 1, EyeLikeInfer, EyeLikePrepare, EyeLikeEval};

}  // namespace npurt
