// Dropout is the identity at inference: it becomes an Identity node (the
// passes remove it). Its optional mask output is not produced; a model that
// uses it fails to import.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertDropout(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.is_constant(2)) {
    std::vector<double> training;
    NPURT_RETURN_IF_ERROR(ctx.ReadDoubles(2, &training));
    if (!training.empty() && training[0] != 0) return ctx.Error("training_mode is true; only inference is supported");
  }
  return ctx.Emit("Identity", {ctx.input(0)}, {}, 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
