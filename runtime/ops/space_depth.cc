// DepthToSpace (modes DCR, the default, and CRD) and SpaceToDepth on NCHW tensors: reshapes to six
// dims and a transpose (runtime/kernels/ref/transpose.h), as the ONNX definitions are written. Element
// copies serve every type; quantized tensors keep the input's parameters.
#include <array>
#include <cinttypes>
#include <string>

#include "runtime/kernels/ref/transpose.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct SpaceDepthState : OpState {
  std::array<int64_t, 6> out_shape{};
  std::array<int64_t, 6> in_strides{};
  TransposeParams params;
};

struct SpaceDepthPlan {
  Shape out;
  std::array<int64_t, 6> view{};  // the input as six dims
  std::array<int, 6> perm{};      // output dim k is view dim perm[k]
};

Status MakeSpaceDepthPlan(bool to_space, const Attributes& attrs, const Tensor& x, SpaceDepthPlan* plan) {
  const char* op = to_space ? "DepthToSpace" : "SpaceToDepth";
  NPURT_CHECK_OR_RETURN(x.rank() == 4, kModelInvalid, "%s: input must be 4-D (N, C, H, W), got %s", op,
                        ShapeToString(x.shape).c_str());
  NPURT_CHECK_OR_RETURN(DataTypeSize(x.dtype) != 0 && x.num_elements() >= 0, kModelInvalid, "%s: bad input", op);
  int64_t b = 0;
  NPURT_CHECK_OR_RETURN(attrs.Has("blocksize"), kModelInvalid, "%s: needs the blocksize attribute", op);
  NPURT_RETURN_IF_ERROR(attrs.GetInt("blocksize", 0, &b));
  NPURT_CHECK_OR_RETURN(b >= 1 && b <= 4096, kModelInvalid, "%s: blocksize %" PRId64 " out of range", op, b);
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  if (to_space) {
    std::string mode;
    NPURT_RETURN_IF_ERROR(attrs.GetString("mode", "DCR", &mode));
    NPURT_CHECK_OR_RETURN(mode == "DCR" || mode == "CRD", kModelInvalid, "DepthToSpace: mode '%s' is not DCR or CRD",
                          mode.c_str());
    NPURT_CHECK_OR_RETURN(c % (b * b) == 0, kModelInvalid,
                          "DepthToSpace: %" PRId64 " channels are not a multiple of blocksize^2 = %" PRId64, c, b * b);
    const int64_t cc = c / (b * b);
    plan->out = {n, cc, h * b, w * b};
    if (mode == "DCR") {
      plan->view = {n, b, b, cc, h, w};
      plan->perm = {0, 3, 4, 1, 5, 2};
    } else {
      plan->view = {n, cc, b, b, h, w};
      plan->perm = {0, 1, 4, 2, 5, 3};
    }
  } else {
    NPURT_CHECK_OR_RETURN(h % b == 0 && w % b == 0, kModelInvalid,
                          "SpaceToDepth: %" PRId64 "x%" PRId64 " is not a multiple of blocksize %" PRId64, h, w, b);
    plan->out = {n, c * b * b, h / b, w / b};
    plan->view = {n, c, h / b, b, w / b, b};
    plan->perm = {0, 3, 5, 1, 2, 4};
  }
  return Status::Ok();
}

template <bool kToSpace>
Status SpaceDepthInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 1 && inputs[0] != nullptr, kModelInvalid, "%s: expects 1 input",
                        kToSpace ? "DepthToSpace" : "SpaceToDepth");
  SpaceDepthPlan plan;
  NPURT_RETURN_IF_ERROR(MakeSpaceDepthPlan(kToSpace, attrs, *inputs[0], &plan));
  (*outputs)[0].shape = plan.out;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

template <bool kToSpace>
Status SpaceDepthPrepare(OpNode* node) {
  const Tensor& x = *node->inputs[0];
  NPURT_RETURN_IF_ERROR(ExpectSameQuant(kToSpace ? "DepthToSpace" : "SpaceToDepth", x, *node->outputs[0]));
  SpaceDepthPlan plan;
  NPURT_RETURN_IF_ERROR(MakeSpaceDepthPlan(kToSpace, node->attrs, x, &plan));
  auto state = std::make_unique<SpaceDepthState>();
  std::array<int64_t, 6> strides{};
  strides[5] = 1;
  for (int d = 4; d >= 0; --d) strides[d] = strides[d + 1] * plan.view[d + 1];
  for (int k = 0; k < 6; ++k) {
    state->out_shape[k] = plan.view[plan.perm[k]];
    state->in_strides[k] = strides[plan.perm[k]];
  }
  state->params.rank = 6;
  state->params.element_size = DataTypeSize(x.dtype);
  state->params.out_shape = state->out_shape.data();
  state->params.in_strides = state->in_strides.data();
  node->state = std::move(state);
  return Status::Ok();
}

Status SpaceDepthEval(OpNode* node) {
  if (node->outputs[0]->num_elements() == 0) return Status::Ok();
  transpose__ref(node->state_as<SpaceDepthState>()->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpDepthToSpace = {"DepthToSpace", 1, 1, 1, 1, SpaceDepthInfer<true>, SpaceDepthPrepare<true>,
                                      SpaceDepthEval, /*view=*/false, /*keeps_half_values=*/true};
extern const OpDef kOpSpaceToDepth = {"SpaceToDepth", 1, 1, 1, 1, SpaceDepthInfer<false>, SpaceDepthPrepare<false>,
                                      SpaceDepthEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
