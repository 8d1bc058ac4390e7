// Normalizations by a norm of nearby values: LpNormalization (attributes axis, default -1, and p, 1 or
// 2, default 2) and LRN across channels (size, alpha 1e-4, beta 0.75, bias 1). Float32.
#include <cinttypes>

#include "runtime/kernels/ref/normalization.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct LpNormState : OpState {
  LpNormParams params;
};

struct LrnState : OpState {
  LrnParams params;
};

Status CheckInput(const char* op, const std::vector<const Tensor*>& inputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 1 && inputs[0] != nullptr, kModelInvalid, "%s: expects 1 input", op);
  NPURT_RETURN_IF_ERROR(ExpectInputType(op, inputs[0], DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(inputs[0]->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", op,
                        ShapeToString(inputs[0]->shape).c_str());
  return Status::Ok();
}

Status ReadLpNorm(const Attributes& attrs, const Tensor& x, LpNormParams* p) {
  NPURT_CHECK_OR_RETURN(x.rank() >= 1, kModelInvalid, "LpNormalization: input must have rank >= 1");
  int64_t raw_axis = -1, order = 2;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", -1, &raw_axis));
  NPURT_RETURN_IF_ERROR(attrs.GetInt("p", 2, &order));
  NPURT_CHECK_OR_RETURN(order == 1 || order == 2, kModelInvalid, "LpNormalization: p is %" PRId64 ", not 1 or 2",
                        order);
  int axis = 0;
  NPURT_RETURN_IF_ERROR(NormalizeAxis("LpNormalization", raw_axis, x.rank(), &axis));
  p->p = static_cast<int>(order);
  p->outer = p->axis_size = p->inner = 1;
  for (int d = 0; d < x.rank(); ++d) (d < axis ? p->outer : d == axis ? p->axis_size : p->inner) *= x.shape[d];
  return Status::Ok();
}

Status ReadLrn(const Attributes& attrs, const Tensor& x, LrnParams* p) {
  NPURT_CHECK_OR_RETURN(x.rank() >= 2, kModelInvalid, "LRN: X must be [N, C, ...], got %s",
                        ShapeToString(x.shape).c_str());
  NPURT_CHECK_OR_RETURN(attrs.Has("size"), kModelInvalid, "LRN: needs the size attribute");
  NPURT_RETURN_IF_ERROR(attrs.GetInt("size", 1, &p->size));
  NPURT_CHECK_OR_RETURN(p->size >= 1, kModelInvalid, "LRN: size %" PRId64 " must be positive", p->size);
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 1e-4f, &p->alpha));
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("beta", 0.75f, &p->beta));
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("bias", 1.0f, &p->bias));
  p->batch = x.shape[0];
  p->channels = x.shape[1];
  p->spatial = 1;
  for (int d = 2; d < x.rank(); ++d) p->spatial *= x.shape[d];
  return Status::Ok();
}

template <bool kLrn>
Status NormInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckInput(kLrn ? "LRN" : "LpNormalization", inputs));
  if (kLrn) {
    LrnParams p;
    NPURT_RETURN_IF_ERROR(ReadLrn(attrs, *inputs[0], &p));
  } else {
    LpNormParams p;
    NPURT_RETURN_IF_ERROR(ReadLpNorm(attrs, *inputs[0], &p));
  }
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status LpNormPrepare(OpNode* node) {
  auto state = std::make_unique<LpNormState>();
  NPURT_RETURN_IF_ERROR(ReadLpNorm(node->attrs, *node->inputs[0], &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status LpNormEval(OpNode* node) {
  f32_lp_norm__ref(node->state_as<LpNormState>()->params, node->inputs[0]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

Status LrnPrepare(OpNode* node) {
  auto state = std::make_unique<LrnState>();
  NPURT_RETURN_IF_ERROR(ReadLrn(node->attrs, *node->inputs[0], &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status LrnEval(OpNode* node) {
  f32_lrn__ref(node->state_as<LrnState>()->params, node->inputs[0]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpLpNormalization = {"LpNormalization", 1, 1, 1, 1, NormInfer<false>, LpNormPrepare, LpNormEval};
extern const OpDef kOpLRN = {"LRN", 1, 1, 1, 1, NormInfer<true>, LrnPrepare, LrnEval};

}  // namespace npurt
