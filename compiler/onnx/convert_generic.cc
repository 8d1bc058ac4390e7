// The default converter: the runtime op of the same ONNX name, with every
// attribute copied verbatim (the runtime ops use ONNX attribute names and
// accept both the attribute and the input forms where ONNX moved one across
// opsets: Squeeze/Unsqueeze/Reduce* axes, Split sizes, Pad pads, Slice ranges).
#include "compiler/onnx/converter.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status RequireShapeInputsConstant(NodeContext& ctx) {
  // Inputs that decide output shapes: the runtime ops read them at infer time.
  static const struct {
    const char* op;
    std::vector<size_t> inputs;
  } kShapeInputs[] = {
      {"Reshape", {1}}, {"Slice", {1, 2, 3, 4}}, {"Squeeze", {1}},    {"Unsqueeze", {1}},
      {"Split", {1}},   {"Pad", {1, 3}},         {"Resize", {1, 2, 3}}, {"ReduceMean", {1}},
      {"ReduceMax", {1}}, {"ReduceSum", {1}},  {"ReduceMin", {1}},   {"ReduceProd", {1}},
      {"ReduceL1", {1}},  {"ReduceL2", {1}},   {"ReduceLogSum", {1}}, {"ReduceLogSumExp", {1}},
      {"ReduceSumSquare", {1}}, {"Tile", {1}},  {"MaxUnpool", {2}},
  };
  for (const auto& entry : kShapeInputs) {
    if (ctx.op_type() != entry.op) continue;
    for (size_t i : entry.inputs) {
      if (ctx.has_input(i)) NPURT_RETURN_IF_ERROR(ctx.RequireConstant(i));
    }
  }
  return Status::Ok();
}

Status ConvertGeneric(NodeContext& ctx, std::vector<int>* outputs) {
  const OpDef* def = FindOp(ctx.op_type());
  if (def == nullptr) return ctx.Error("no runtime op of this name in this build");
  // A Conv's fourth input (`residual`) is the compiler's fused Add: not part of the ONNX operator.
  const int max_inputs = ctx.op_type() == "Conv" ? 3 : def->max_inputs;
  if (static_cast<int>(ctx.num_inputs()) > max_inputs) {
    return ctx.Error("has %zu inputs; the ONNX operator takes at most %d", ctx.num_inputs(), max_inputs);
  }
  NPURT_RETURN_IF_ERROR(RequireShapeInputsConstant(ctx));
  Attributes attrs;
  // consumed_inputs (opset 1) and is_test (BatchNormalization/Dropout < 7) mean nothing at inference.
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"consumed_inputs", "is_test"}));
  // Outputs the runtime op does not produce (the training outputs of
  // BatchNormalization) stay unproduced; the importer checks that nothing uses them.
  int n = ctx.num_outputs();
  // Unused trailing optional outputs (MaxPool's Indices, LayerNormalization's
  // Mean) are dropped; Split's outputs define the split, so they all stay.
  while (n > 1 && ctx.op_type() != "Split" && !ctx.output_used(n - 1)) --n;
  // Optional outputs the runtime ops do not compute.
  static const struct {
    const char* op;
    int computed;
  } kComputedOutputs[] = {{"BatchNormalization", 1}, {"LayerNormalization", 1}};
  int computed = def->max_outputs;
  for (const auto& e : kComputedOutputs) {
    if (ctx.op_type() == e.op) computed = e.computed;
  }
  if (n > computed) {
    return ctx.Error("unsupported operator output %d ('%s'): the model uses it, npurt computes only the first %d",
                     n - 1, ctx.proto().output(n - 1).c_str(), computed);
  }
  if (n < def->min_outputs) n = def->min_outputs;
  return ctx.Emit(ctx.op_type(), ctx.inputs(), std::move(attrs), n, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
