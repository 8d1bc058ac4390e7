// Normalizations by statistics of groups of a sample: InstanceNormalization (X [N, C, ...], scale and
// B [C]), GroupNormalization (opset 18: attribute num_groups, scale and bias [num_groups]; [C] as in
// opset 21 is accepted too) and MeanVarianceNormalization (attribute axes, default [0, 2, 3]: mean and
// variance over those axes). Float32; epsilon default 1e-5 (MVN: 1e-9, fixed by its ONNX function).
#include <cinttypes>

#include "runtime/kernels/ref/normalization.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct GroupNormState : OpState {
  GroupNormParams params;
};

struct MeanVarianceState : OpState {
  MeanVarianceParams params;
  std::vector<int64_t> group_of;  // read-only in eval; the sums live in the node's scratch
};

Status CheckFloat(const char* op, const Tensor* t, int index) {
  NPURT_CHECK_OR_RETURN(t != nullptr, kModelInvalid, "%s: input %d is missing", op, index);
  NPURT_RETURN_IF_ERROR(ExpectInputType(op, t, DataType::kFloat32, index));
  NPURT_CHECK_OR_RETURN(t->num_elements() >= 0, kModelInvalid, "%s: bad shape %s of input %d", op,
                        ShapeToString(t->shape).c_str(), index);
  return Status::Ok();
}

// InstanceNormalization when kGroups is false, GroupNormalization when true.
template <bool kGroups>
Status ReadGroupNorm(const Attributes& attrs, const std::vector<const Tensor*>& inputs, GroupNormParams* p) {
  const char* op = kGroups ? "GroupNormalization" : "InstanceNormalization";
  NPURT_CHECK_OR_RETURN(inputs.size() == 3, kModelInvalid, "%s: expects inputs (X, scale, bias), got %zu", op,
                        inputs.size());
  for (int i = 0; i < 3; ++i) NPURT_RETURN_IF_ERROR(CheckFloat(op, inputs[static_cast<size_t>(i)], i));
  const Tensor& x = *inputs[0];
  NPURT_CHECK_OR_RETURN(x.rank() >= 2, kModelInvalid, "%s: X must be [N, C, ...], got %s", op,
                        ShapeToString(x.shape).c_str());
  p->batch = x.shape[0];
  p->channels = x.shape[1];
  p->spatial = 1;
  for (int d = 2; d < x.rank(); ++d) p->spatial *= x.shape[d];
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("epsilon", 1e-5f, &p->epsilon));
  NPURT_CHECK_OR_RETURN(p->epsilon >= 0.0f, kModelInvalid, "%s: epsilon must not be negative", op);
  int64_t groups = p->channels;
  if (kGroups) {
    NPURT_CHECK_OR_RETURN(attrs.Has("num_groups"), kModelInvalid, "GroupNormalization: needs num_groups");
    NPURT_RETURN_IF_ERROR(attrs.GetInt("num_groups", 0, &groups));
    NPURT_CHECK_OR_RETURN(groups >= 1 && p->channels % groups == 0, kModelInvalid,
                          "GroupNormalization: num_groups %" PRId64 " does not divide %" PRId64 " channels", groups,
                          p->channels);
  }
  p->groups = groups;
  const int64_t affine = inputs[1]->num_elements();
  NPURT_CHECK_OR_RETURN(inputs[1]->rank() == 1 && inputs[2]->rank() == 1 && inputs[2]->num_elements() == affine &&
                            (affine == p->channels || (kGroups && affine == groups)),
                        kModelInvalid, "%s: scale %s and bias %s must both have %" PRId64 "%s values", op,
                        ShapeToString(inputs[1]->shape).c_str(), ShapeToString(inputs[2]->shape).c_str(),
                        kGroups ? groups : p->channels, kGroups ? " (num_groups) or the channel count's" : "");
  p->per_channel_affine = affine == p->channels;
  return Status::Ok();
}

template <bool kGroups>
Status GroupNormInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  GroupNormParams p;
  NPURT_RETURN_IF_ERROR(ReadGroupNorm<kGroups>(attrs, inputs, &p));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

template <bool kGroups>
Status GroupNormPrepare(OpNode* node) {
  auto state = std::make_unique<GroupNormState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadGroupNorm<kGroups>(node->attrs, inputs, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status GroupNormEval(OpNode* node) {
  f32_group_norm__ref(node->state_as<GroupNormState>()->params, node->inputs[0]->as<float>(),
                      node->inputs[1]->as<float>(), node->inputs[2]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

// The normalized axes of MeanVarianceNormalization as a mask over X's dims.
Status ReadMvnAxes(const Attributes& attrs, const Tensor& x, std::vector<bool>* reduced) {
  std::vector<int64_t> axes;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("axes", {0, 2, 3}, &axes));
  reduced->assign(static_cast<size_t>(x.rank()), false);
  for (int64_t a : axes) {
    int axis = 0;
    NPURT_RETURN_IF_ERROR(NormalizeAxis("MeanVarianceNormalization", a, x.rank(), &axis));
    NPURT_CHECK_OR_RETURN(!(*reduced)[static_cast<size_t>(axis)], kModelInvalid,
                          "MeanVarianceNormalization: axis %" PRId64 " is repeated", a);
    (*reduced)[static_cast<size_t>(axis)] = true;
  }
  return Status::Ok();
}

Status MvnInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 1, kModelInvalid, "MeanVarianceNormalization: expects 1 input");
  NPURT_RETURN_IF_ERROR(CheckFloat("MeanVarianceNormalization", inputs[0], 0));
  std::vector<bool> reduced;
  NPURT_RETURN_IF_ERROR(ReadMvnAxes(attrs, *inputs[0], &reduced));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status MvnPrepare(OpNode* node) {
  const Tensor& x = *node->inputs[0];
  std::vector<bool> reduced;
  NPURT_RETURN_IF_ERROR(ReadMvnAxes(node->attrs, x, &reduced));
  auto state = std::make_unique<MeanVarianceState>();
  MeanVarianceParams& p = state->params;
  p.count = x.num_elements();
  p.groups = 1;
  for (int d = 0; d < x.rank(); ++d) (reduced[static_cast<size_t>(d)] ? p.per_group : p.groups) *= x.shape[d];
  // Each element's group: its kept coordinates as one flat index (made once, so eval only reads it).
  state->group_of.resize(static_cast<size_t>(p.count));
  std::vector<int64_t> coords(static_cast<size_t>(x.rank()), 0);
  for (int64_t i = 0; i < p.count; ++i) {
    int64_t g = 0;
    for (int d = 0; d < x.rank(); ++d) {
      if (!reduced[static_cast<size_t>(d)]) g = g * x.shape[d] + coords[static_cast<size_t>(d)];
    }
    state->group_of[static_cast<size_t>(i)] = g;
    for (int d = x.rank() - 1; d >= 0; --d) {
      if (++coords[static_cast<size_t>(d)] < x.shape[d]) break;
      coords[static_cast<size_t>(d)] = 0;
    }
  }
  node->scratch_bytes = 2 * static_cast<size_t>(p.groups) * sizeof(double);
  node->state = std::move(state);
  return Status::Ok();
}

Status MvnEval(OpNode* node) {
  const MeanVarianceState* s = node->state_as<MeanVarianceState>();
  if (s->params.count == 0) return Status::Ok();
  double* sums = reinterpret_cast<double*>(node->scratch);
  f32_mean_variance_norm__ref(s->params, node->inputs[0]->as<float>(), s->group_of.data(), sums,
                              sums + s->params.groups, node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpInstanceNormalization = {"InstanceNormalization", 3, 3, 1, 1, GroupNormInfer<false>,
                                               GroupNormPrepare<false>, GroupNormEval};
extern const OpDef kOpGroupNormalization = {"GroupNormalization", 3, 3, 1, 1, GroupNormInfer<true>,
                                            GroupNormPrepare<true>, GroupNormEval};
extern const OpDef kOpMeanVarianceNormalization = {"MeanVarianceNormalization", 1, 1, 1, 1, MvnInfer, MvnPrepare,
                                                   MvnEval};

}  // namespace npurt
