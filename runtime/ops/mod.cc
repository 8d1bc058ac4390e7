// Mod: attribute fmod 0 (the default: the integer remainder with the divisor's sign, as Python's %)
// or 1 (C's fmod, required for floats); float32, int32, int64 with numpy broadcasting.
#include <cinttypes>

#include "runtime/kernels/ref/mod.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct ModState : OpState {
  ModParams params;
};

Status ReadFmod(const Attributes& attrs, DataType type, bool* fmod) {
  int64_t v = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("fmod", 0, &v));
  NPURT_CHECK_OR_RETURN(v == 0 || v == 1, kModelInvalid, "Mod: fmod must be 0 or 1, got %" PRId64, v);
  NPURT_CHECK_OR_RETURN(v == 1 || type != DataType::kFloat32, kModelInvalid,
                        "Mod: float inputs need fmod = 1 (ONNX defines no integer remainder of floats)");
  *fmod = v == 1;
  return Status::Ok();
}

Status ModInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("Mod", inputs, 2));
  const DataType t = inputs[0]->dtype;
  NPURT_CHECK_OR_RETURN(IsArithmeticType(t), kModelInvalid, "Mod: input type %s is not supported (FP32, INT32, INT64)",
                        DataTypeName(t));
  NPURT_CHECK_OR_RETURN(inputs[1]->dtype == t, kModelInvalid, "Mod: inputs have types %s and %s", DataTypeName(t),
                        DataTypeName(inputs[1]->dtype));
  bool fmod = false;
  NPURT_RETURN_IF_ERROR(ReadFmod(attrs, t, &fmod));
  Shape out;
  NPURT_CHECK_OR_RETURN(BroadcastShapes(inputs[0]->shape, inputs[1]->shape, &out), kModelInvalid,
                        "Mod: shapes %s and %s do not broadcast", ShapeToString(inputs[0]->shape).c_str(),
                        ShapeToString(inputs[1]->shape).c_str());
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = t;
  return Status::Ok();
}

Status ModPrepare(OpNode* node) {
  auto state = std::make_unique<ModState>();
  ModParams& p = state->params;
  p.type = node->inputs[0]->dtype;
  NPURT_RETURN_IF_ERROR(ReadFmod(node->attrs, p.type, &p.fmod));
  const Shape* shapes[2] = {&node->inputs[0]->shape, &node->inputs[1]->shape};
  NPURT_CHECK_OR_RETURN(MakeBroadcastPlan(node->outputs[0]->shape, shapes, 2, &p.plan), kModelInvalid,
                        "Mod: shapes too large to broadcast");
  node->state = std::move(state);
  return Status::Ok();
}

Status ModEval(OpNode* node) {
  mod__ref(node->state_as<ModState>()->params, node->inputs[0]->data, node->inputs[1]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpMod = {"Mod", 2, 2, 1, 1, ModInfer, ModPrepare, ModEval};

}  // namespace npurt
