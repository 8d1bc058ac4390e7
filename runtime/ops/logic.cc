// Comparisons (Equal, Greater, GreaterOrEqual, Less, LessOrEqual: float32, int32, int64; Equal also
// bool), boolean logic (And, Or, Xor, Not: bool) and Where (bool condition, X and Y of one type,
// any element type), all with numpy broadcasting, on tensors computed at run time. Constant inputs
// fold in the converter. Quantized X and Y of Where must share their parameters (the output keeps
// them: Where only moves values).
#include "runtime/kernels/ref/logic.h"

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct LogicState : OpState {
  LogicParams params;
};

struct WhereState : OpState {
  WhereParams params;
};

const char* OpName(LogicOp op) {
  switch (op) {
    case LogicOp::kEqual: return "Equal";
    case LogicOp::kGreater: return "Greater";
    case LogicOp::kGreaterOrEqual: return "GreaterOrEqual";
    case LogicOp::kLess: return "Less";
    case LogicOp::kLessOrEqual: return "LessOrEqual";
    case LogicOp::kAnd: return "And";
    case LogicOp::kOr: return "Or";
    case LogicOp::kXor: return "Xor";
  }
  return "?";
}

bool IsLogical(LogicOp op) { return op == LogicOp::kAnd || op == LogicOp::kOr || op == LogicOp::kXor; }

Status CheckOperandType(LogicOp op, DataType t) {
  const char* name = OpName(op);
  if (IsLogical(op)) {
    NPURT_CHECK_OR_RETURN(t == DataType::kBool, kModelInvalid, "%s: inputs must be BOOL, got %s", name,
                          DataTypeName(t));
    return Status::Ok();
  }
  const bool ok = t == DataType::kFloat32 || t == DataType::kInt32 || t == DataType::kInt64 ||
                  (op == LogicOp::kEqual && t == DataType::kBool);
  NPURT_CHECK_OR_RETURN(ok, kModelInvalid, "%s: input type %s is not supported (FP32, INT32, INT64%s)", name,
                        DataTypeName(t), op == LogicOp::kEqual ? ", BOOL" : "");
  return Status::Ok();
}

// The broadcast of `inputs` (all present), or kModelInvalid naming the shapes.
Status BroadcastAll(const char* name, const std::vector<const Tensor*>& inputs, Shape* out) {
  *out = inputs[0]->shape;
  for (size_t i = 0; i < inputs.size(); ++i) {
    NPURT_CHECK_OR_RETURN(inputs[i]->num_elements() >= 0, kModelInvalid, "%s: bad shape %s of input %zu", name,
                          ShapeToString(inputs[i]->shape).c_str(), i);
    NPURT_CHECK_OR_RETURN(BroadcastShapes(*out, inputs[i]->shape, out), kModelInvalid,
                          "%s: input shapes do not broadcast (input %zu is %s)", name, i,
                          ShapeToString(inputs[i]->shape).c_str());
  }
  return Status::Ok();
}

Status CheckPresent(const char* name, const std::vector<const Tensor*>& inputs, size_t count, size_t outputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == count, kModelInvalid, "%s: expects %zu inputs, got %zu", name, count,
                        inputs.size());
  for (size_t i = 0; i < count; ++i) {
    NPURT_CHECK_OR_RETURN(inputs[i] != nullptr, kModelInvalid, "%s: input %zu is missing", name, i);
  }
  NPURT_CHECK_OR_RETURN(outputs == 1, kModelInvalid, "%s: expects 1 output, got %zu", name, outputs);
  return Status::Ok();
}

Status MakePlan(const char* name, const Shape& out, const std::vector<const Tensor*>& inputs, BroadcastPlan* plan) {
  const Shape* shapes[kMaxBroadcastOperands] = {};
  for (size_t i = 0; i < inputs.size(); ++i) shapes[i] = &inputs[i]->shape;
  NPURT_CHECK_OR_RETURN(MakeBroadcastPlan(out, shapes, static_cast<int>(inputs.size()), plan), kModelInvalid,
                        "%s: shapes too large to broadcast", name);
  return Status::Ok();
}

template <LogicOp kOp>
Status LogicInfer(const Attributes&, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = OpName(kOp);
  NPURT_RETURN_IF_ERROR(CheckPresent(name, inputs, 2, outputs->size()));
  NPURT_RETURN_IF_ERROR(CheckOperandType(kOp, inputs[0]->dtype));
  NPURT_CHECK_OR_RETURN(inputs[1]->dtype == inputs[0]->dtype, kModelInvalid, "%s: inputs have types %s and %s", name,
                        DataTypeName(inputs[0]->dtype), DataTypeName(inputs[1]->dtype));
  Shape out;
  NPURT_RETURN_IF_ERROR(BroadcastAll(name, inputs, &out));
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = DataType::kBool;
  return Status::Ok();
}

template <LogicOp kOp>
Status LogicPrepare(OpNode* node) {
  auto state = std::make_unique<LogicState>();
  state->params.op = kOp;
  state->params.type = node->inputs[0]->dtype;
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(MakePlan(OpName(kOp), node->outputs[0]->shape, inputs, &state->params.plan));
  node->state = std::move(state);
  return Status::Ok();
}

Status LogicEval(OpNode* node) {
  logic__ref(node->state_as<LogicState>()->params, node->inputs[0]->data, node->inputs[1]->data,
             node->outputs[0]->as<uint8_t>());
  return Status::Ok();
}

Status NotInfer(const Attributes&, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckPresent("Not", inputs, 1, outputs->size()));
  NPURT_CHECK_OR_RETURN(inputs[0]->dtype == DataType::kBool, kModelInvalid, "Not: input must be BOOL, got %s",
                        DataTypeName(inputs[0]->dtype));
  NPURT_CHECK_OR_RETURN(inputs[0]->num_elements() >= 0, kModelInvalid, "Not: bad input shape %s",
                        ShapeToString(inputs[0]->shape).c_str());
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = DataType::kBool;
  return Status::Ok();
}

Status NotPrepare(OpNode* node) {
  node->layout_agnostic = true;  // elementwise
  return Status::Ok();
}

Status NotEval(OpNode* node) {
  not__ref(node->inputs[0]->num_elements(), node->inputs[0]->as<uint8_t>(), node->outputs[0]->as<uint8_t>());
  return Status::Ok();
}

Status WhereInfer(const Attributes&, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckPresent("Where", inputs, 3, outputs->size()));
  NPURT_CHECK_OR_RETURN(inputs[0]->dtype == DataType::kBool, kModelInvalid, "Where: condition must be BOOL, got %s",
                        DataTypeName(inputs[0]->dtype));
  const DataType t = inputs[1]->dtype;
  NPURT_CHECK_OR_RETURN(DataTypeSize(t) != 0, kModelInvalid, "Where: unknown element type");
  NPURT_CHECK_OR_RETURN(inputs[2]->dtype == t, kModelInvalid, "Where: X is %s but Y is %s", DataTypeName(t),
                        DataTypeName(inputs[2]->dtype));
  Shape out;
  NPURT_RETURN_IF_ERROR(BroadcastAll("Where", inputs, &out));
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = t;
  return Status::Ok();
}

Status WherePrepare(OpNode* node) {
  const Tensor& x = *node->inputs[1];
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Where", x, *node->outputs[0]));
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Where", *node->inputs[2], *node->outputs[0]));
  auto state = std::make_unique<WhereState>();
  state->params.element_size = DataTypeSize(x.dtype);
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(MakePlan("Where", node->outputs[0]->shape, inputs, &state->params.plan));
  node->state = std::move(state);
  return Status::Ok();
}

Status WhereEval(OpNode* node) {
  where__ref(node->state_as<WhereState>()->params, node->inputs[0]->as<uint8_t>(), node->inputs[1]->data,
             node->inputs[2]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

#define NPURT_LOGIC_OPDEF(name) \
  extern const OpDef kOp##name = {#name, 2, 2, 1, 1, LogicInfer<LogicOp::k##name>, LogicPrepare<LogicOp::k##name>, LogicEval};
NPURT_LOGIC_OPDEF(Equal)
NPURT_LOGIC_OPDEF(Greater)
NPURT_LOGIC_OPDEF(GreaterOrEqual)
NPURT_LOGIC_OPDEF(Less)
NPURT_LOGIC_OPDEF(LessOrEqual)
NPURT_LOGIC_OPDEF(And)
NPURT_LOGIC_OPDEF(Or)
NPURT_LOGIC_OPDEF(Xor)
#undef NPURT_LOGIC_OPDEF
extern const OpDef kOpNot = {"Not", 1, 1, 1, 1, NotInfer, NotPrepare, NotEval};
extern const OpDef kOpWhere = {"Where", 3, 3, 1, 1, WhereInfer, WherePrepare, WhereEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
