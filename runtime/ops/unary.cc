// Elementwise float32 activations: Relu, Clip, LeakyRelu, Sigmoid, HardSigmoid,
// HardSwish, Tanh, Exp, Log, Sqrt, Erf. Clip takes min/max as attributes
// (opset < 11) or as optional scalar inputs 1 and 2 (opset >= 11); the inputs
// are read at eval, so they need not be constant.
//
// INT8 (quantized models): INT8 in, INT8 out, each with per-tensor
// quantization; prepare tabulates the op for all 256 input codes
// (BuildS8UnaryTable) and eval is one lookup per element (s8_lookup__ref).
// Clip's min/max inputs are FP32 (real values) or INT8 with their own
// quantization; when computed at run time, eval rebuilds the table from them
// first. Relu and Clip also take plain INT8 integers (no quantization
// parameters on any tensor of the node): they only compare values.
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/unary.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

// An INT8 Clip bound input: float32 (a real value) or INT8 (dequantized with `quant`).
struct ClipBound {
  bool present = false;
  bool is_float = false;
  bool constant = false;
  ActivationQuant quant;  // scale 1, zero point 0 for plain integers
};

struct UnaryState : OpState {
  UnaryParams params;
  // INT8 only.
  ActivationQuant in_q, out_q;  // scale 1, zero point 0 for plain integers
  ClipBound lo, hi;
  bool runtime_bounds = false;  // Clip bounds computed at run time: the table is rebuilt by eval
  int8_t table[kS8TableSize] = {};
  S8LookupParams s8;  // s8.table points at `table`
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
// FP32, or for an INT8 x also INT8.
Status CheckClipBound(const Attributes& attrs, const std::vector<const Tensor*>& inputs, size_t index,
                      const char* attr_name) {
  const Tensor* t = index < inputs.size() ? inputs[index] : nullptr;
  if (t == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(!attrs.Has(attr_name), kModelInvalid, "Clip: %s given both as attribute and as input",
                        attr_name);
  if (inputs[0]->dtype != DataType::kInt8 || t->dtype != DataType::kInt8) {
    NPURT_RETURN_IF_ERROR(ExpectInputType("Clip", t, DataType::kFloat32, static_cast<int>(index)));
  }
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
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", name);
  if (x->dtype != DataType::kInt8) NPURT_RETURN_IF_ERROR(ExpectInputType(name, x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", name,
                        ShapeToString(x->shape).c_str());
  UnaryParams params;
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, attrs, &params));
  if (kOp == UnaryOp::kClip) {
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 1, "min"));
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 2, "max"));
  }
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = x->dtype;
  return Status::Ok();
}

// Where INT8 Clip's bound input `index` comes from and how to read its real value.
Status DescribeInt8ClipBound(const OpNode* node, size_t index, const char* role, bool plain, ClipBound* bound) {
  const Tensor* t = node->input(index);
  if (t == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(t->num_elements() == 1, kModelInvalid, "Clip: %s '%s' must be a scalar", role,
                        t->name.c_str());
  bound->present = true;
  bound->is_float = t->dtype == DataType::kFloat32;
  bound->constant = t->constant;
  if (!bound->is_float && !plain) NPURT_RETURN_IF_ERROR(GetActivationQuant("Clip", *t, role, &bound->quant));
  return Status::Ok();
}

// The real value of a Clip bound described by DescribeInt8ClipBound.
float ReadInt8ClipBound(const Tensor* t, const ClipBound& bound, float fallback) {
  if (!bound.present) return fallback;
  if (bound.is_float) return *t->as<float>();
  return DequantizeValue(*t->as<int8_t>(), bound.quant.scale, bound.quant.zero_point);
}

// (Re)builds the INT8 table; Clip reads its bound inputs first.
void BuildInt8Table(const OpNode* node, UnaryState* state) {
  UnaryParams params = state->params;
  if (params.op == UnaryOp::kClip) {
    params.lo = ReadInt8ClipBound(node->input(1), state->lo, params.lo);
    params.hi = ReadInt8ClipBound(node->input(2), state->hi, params.hi);
  }
  BuildS8UnaryTable(params, state->in_q.scale, state->in_q.zero_point, state->out_q.scale, state->out_q.zero_point,
                    state->table);
}

template <UnaryOp kOp>
Status PrepareInt8(OpNode* node, UnaryState* state) {
  const char* name = OpName(kOp);
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  NPURT_CHECK_OR_RETURN(y.dtype == DataType::kInt8, kModelInvalid, "%s: output '%s' is %s, expected INT8", name,
                        y.name.c_str(), DataTypeName(y.dtype));
  // Plain integers (no parameters anywhere) for the ops that only compare: scale 1, zero point 0.
  const bool plain = (kOp == UnaryOp::kRelu || kOp == UnaryOp::kClip) && HasNoQuantization(*node);
  if (!plain) {
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, x, "input", &state->in_q));
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, y, "output", &state->out_q));
  }
  if (kOp == UnaryOp::kClip) {
    NPURT_RETURN_IF_ERROR(DescribeInt8ClipBound(node, 1, "min", plain, &state->lo));
    NPURT_RETURN_IF_ERROR(DescribeInt8ClipBound(node, 2, "max", plain, &state->hi));
    state->runtime_bounds = (state->lo.present && !state->lo.constant) || (state->hi.present && !state->hi.constant);
  }
  BuildInt8Table(node, state);  // with run-time bounds, rebuilt by every eval
  state->s8.count = state->params.count;
  state->s8.table = state->table;
  return Status::Ok();
}

template <UnaryOp kOp>
Status UnaryPrepare(OpNode* node) {
  auto state = std::make_unique<UnaryState>();
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, node->attrs, &state->params));
  state->params.count = node->inputs[0]->num_elements();
  if (node->inputs[0]->dtype == DataType::kInt8) NPURT_RETURN_IF_ERROR(PrepareInt8<kOp>(node, state.get()));
  node->state = std::move(state);
  return Status::Ok();
}

template <UnaryOp kOp>
Status UnaryEval(OpNode* node) {
  UnaryState* state = node->state_as<UnaryState>();
  if (node->outputs[0]->dtype == DataType::kInt8) {
    if (state->runtime_bounds) BuildInt8Table(node, state);  // 256 entries, no allocation
    s8_lookup__ref(state->s8, node->inputs[0]->as<int8_t>(), node->outputs[0]->as<int8_t>());
    return Status::Ok();
  }
  UnaryParams params = state->params;
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
