// Activations with opset-dependent forms.
//   Clip: opset < 11 has float attributes min/max; opset >= 11 has optional
//   scalar inputs min/max. Constant bound inputs become the attributes (one
//   form for the passes and the fusion); computed ones stay inputs (the
//   runtime reads them at eval).
//   Softmax: the semantics changed in opset 13 (coerce to 2-D at `axis` before,
//   a single axis since); the runtime op reads the model's opset from the int
//   attribute `opset`.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertClip(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  std::vector<int> inputs = {ctx.input(0)};
  if (ctx.opset() >= 11) {
    const char* names[3] = {nullptr, "min", "max"};
    for (size_t i = 1; i <= 2; ++i) {
      int id = ctx.input(i);
      if (id >= 0 && ctx.is_constant(i) && ctx.tensor(id).dtype == DataType::kFloat32 &&
          NumElements(ctx.tensor(id).shape) == 1 && !attrs.Has(names[i])) {
        std::vector<double> v;
        NPURT_RETURN_IF_ERROR(ctx.ReadDoubles(i, &v));
        attrs.SetFloat(names[i], static_cast<float>(v[0]));
        id = -1;
      }
      inputs.push_back(id);
    }
    while (inputs.size() > 1 && inputs.back() < 0) inputs.pop_back();
  } else if (ctx.num_inputs() > 1) {
    return ctx.Error("has %zu inputs; before opset 11 Clip takes min/max as attributes", ctx.num_inputs());
  }
  return ctx.Emit("Clip", inputs, std::move(attrs), 1, outputs);
}

Status ConvertSoftmax(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"opset"}));
  attrs.SetInt("opset", ctx.opset());
  return ctx.Emit(ctx.op_type(), ctx.inputs(), std::move(attrs), 1, outputs);  // Softmax, LogSoftmax
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
