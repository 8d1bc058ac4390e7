// Dropout is the identity at inference (and in training mode at ratio 0): it
// becomes an Identity node (the passes remove it). Its optional mask output is not produced; a model that
// uses it fails to import.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertDropout(NodeContext& ctx, std::vector<int>* outputs) {
  if (ctx.has_input(2)) {
    // A training_mode computed at run time could be true: refused rather than assumed false.
    if (!ctx.is_constant(2)) return ctx.Error("training mode computed at run time is not supported (inference only)");
    std::vector<double> training;
    NPURT_RETURN_IF_ERROR(ctx.ReadDoubles(2, &training));
    // Training mode drops nothing at ratio 0 (PyTorch exports functional dropout of p = 0 so): an identity.
    std::vector<double> ratio;
    if (ctx.is_constant(1)) NPURT_RETURN_IF_ERROR(ctx.ReadDoubles(1, &ratio));
    const bool drops_nothing = ratio.size() == 1 && ratio[0] == 0;
    if (!training.empty() && training[0] != 0 && !drops_nothing) {
      return ctx.Error("training mode with a nonzero ratio is not supported (inference only)");
    }
  }
  return ctx.Emit("Identity", {ctx.input(0)}, {}, 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
