// Elementwise float32 activations: Relu, Clip, LeakyRelu, Sigmoid, HardSigmoid,
// HardSwish, Tanh, Exp, Log, Sqrt, Erf. Clip takes min/max as attributes
// (opset < 11) or as optional scalar inputs 1 and 2 (opset >= 11); the inputs
// are read at eval, so they need not be constant.
#include <limits>

#include "runtime/kernels/ref/unary.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct UnaryState : OpState {
  UnaryParams params;
};

const char* OpName(UnaryOp op) {
  switch (op) {
    case UnaryOp::kRelu: return "Relu";
    case UnaryOp::kClip: return "Clip";
    case UnaryOp::kLeakyRelu: return "LeakyRelu";
    case UnaryOp::kSigmoid: return "Sigmoid";
    case UnaryOp::kHardSigmoid: return "HardSigmoid";
    case UnaryOp::kHardSwish: return "HardSwish";
    case UnaryOp::kTanh: return "Tanh";
    case UnaryOp::kExp: return "Exp";
    case UnaryOp::kLog: return "Log";
    case UnaryOp::kSqrt: return "Sqrt";
    case UnaryOp::kErf: return "Erf";
  }
  return "?";
}

// Clip bound `index` (1 = min, 2 = max): attribute or input, never both.
Status CheckClipBound(const Attributes& attrs, const std::vector<const Tensor*>& inputs, size_t index,
                      const char* attr_name) {
  const Tensor* t = index < inputs.size() ? inputs[index] : nullptr;
  if (t == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(!attrs.Has(attr_name), kModelInvalid, "Clip: %s given both as attribute and as input",
                        attr_name);
  NPURT_RETURN_IF_ERROR(ExpectInputType("Clip", t, DataType::kFloat32, static_cast<int>(index)));
  NPURT_CHECK_OR_RETURN(t->num_elements() == 1, kModelInvalid, "Clip: %s must be a scalar, got shape %s", attr_name,
                        ShapeToString(t->shape).c_str());
  return Status::Ok();
}

// Fills the attribute-driven parameters (everything but count and Clip's inputs).
Status ReadParams(UnaryOp op, const Attributes& attrs, UnaryParams* p) {
  p->op = op;
  switch (op) {
    case UnaryOp::kLeakyRelu: return attrs.GetFloat("alpha", 0.01f, &p->alpha);
    case UnaryOp::kHardSigmoid:
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 0.2f, &p->alpha));
      return attrs.GetFloat("beta", 0.5f, &p->beta);
    case UnaryOp::kClip:
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("min", -std::numeric_limits<float>::infinity(), &p->lo));
      return attrs.GetFloat("max", std::numeric_limits<float>::infinity(), &p->hi);
    default: return Status::Ok();
  }
}

template <UnaryOp kOp>
Status UnaryInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = OpName(kOp);
  const size_t max_inputs = kOp == UnaryOp::kClip ? 3 : 1;
  NPURT_CHECK_OR_RETURN(!inputs.empty() && inputs.size() <= max_inputs, kModelInvalid, "%s: bad input count %zu",
                        name, inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", name,
                        outputs->size());
  const Tensor* x = inputs[0];
  NPURT_RETURN_IF_ERROR(ExpectInputType(name, x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", name,
                        ShapeToString(x->shape).c_str());
  UnaryParams params;
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, attrs, &params));
  if (kOp == UnaryOp::kClip) {
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 1, "min"));
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 2, "max"));
  }
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

template <UnaryOp kOp>
Status UnaryPrepare(OpNode* node) {
  auto state = std::make_unique<UnaryState>();
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, node->attrs, &state->params));
  state->params.count = node->inputs[0]->num_elements();
  node->state = std::move(state);
  return Status::Ok();
}

template <UnaryOp kOp>
Status UnaryEval(OpNode* node) {
  UnaryParams params = node->state_as<UnaryState>()->params;
  if (kOp == UnaryOp::kClip) {
    if (const Tensor* lo = node->input(1)) params.lo = *lo->as<float>();
    if (const Tensor* hi = node->input(2)) params.hi = *hi->as<float>();
  }
  f32_unary__ref(params, node->inputs[0]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpRelu = {"Relu", 1, 1, 1, 1, UnaryInfer<UnaryOp::kRelu>, UnaryPrepare<UnaryOp::kRelu>,
                              UnaryEval<UnaryOp::kRelu>};
extern const OpDef kOpClip = {"Clip", 1, 3, 1, 1, UnaryInfer<UnaryOp::kClip>, UnaryPrepare<UnaryOp::kClip>,
                              UnaryEval<UnaryOp::kClip>};
extern const OpDef kOpLeakyRelu = {"LeakyRelu", 1, 1, 1, 1, UnaryInfer<UnaryOp::kLeakyRelu>,
                                   UnaryPrepare<UnaryOp::kLeakyRelu>, UnaryEval<UnaryOp::kLeakyRelu>};
extern const OpDef kOpSigmoid = {"Sigmoid", 1, 1, 1, 1, UnaryInfer<UnaryOp::kSigmoid>, UnaryPrepare<UnaryOp::kSigmoid>,
                                 UnaryEval<UnaryOp::kSigmoid>};
extern const OpDef kOpHardSigmoid = {"HardSigmoid", 1, 1, 1, 1, UnaryInfer<UnaryOp::kHardSigmoid>,
                                     UnaryPrepare<UnaryOp::kHardSigmoid>, UnaryEval<UnaryOp::kHardSigmoid>};
extern const OpDef kOpHardSwish = {"HardSwish", 1, 1, 1, 1, UnaryInfer<UnaryOp::kHardSwish>,
                                   UnaryPrepare<UnaryOp::kHardSwish>, UnaryEval<UnaryOp::kHardSwish>};
extern const OpDef kOpTanh = {"Tanh", 1, 1, 1, 1, UnaryInfer<UnaryOp::kTanh>, UnaryPrepare<UnaryOp::kTanh>,
                              UnaryEval<UnaryOp::kTanh>};
extern const OpDef kOpExp = {"Exp", 1, 1, 1, 1, UnaryInfer<UnaryOp::kExp>, UnaryPrepare<UnaryOp::kExp>,
                             UnaryEval<UnaryOp::kExp>};
extern const OpDef kOpLog = {"Log", 1, 1, 1, 1, UnaryInfer<UnaryOp::kLog>, UnaryPrepare<UnaryOp::kLog>,
                             UnaryEval<UnaryOp::kLog>};
extern const OpDef kOpSqrt = {"Sqrt", 1, 1, 1, 1, UnaryInfer<UnaryOp::kSqrt>, UnaryPrepare<UnaryOp::kSqrt>,
                              UnaryEval<UnaryOp::kSqrt>};
extern const OpDef kOpErf = {"Erf", 1, 1, 1, 1, UnaryInfer<UnaryOp::kErf>, UnaryPrepare<UnaryOp::kErf>,
                             UnaryEval<UnaryOp::kErf>};

}  // namespace npurt
