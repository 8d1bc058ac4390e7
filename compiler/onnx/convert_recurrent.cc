// RNN, GRU, LSTM: the runtime ops, with the `activations` string list (an attribute type the runtime's
// attributes lack) passed as one comma-separated string.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertRecurrent(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs, {"activations"}));
  if (const onnx::AttributeProto* a = ctx.FindAttribute("activations")) {
    std::string joined;
    for (const std::string& name : a->strings()) joined += (joined.empty() ? "" : ",") + name;
    attrs.SetString("activations", joined);
  }
  int n = ctx.num_outputs();
  while (n > 1 && !ctx.output_used(n - 1)) --n;  // unused trailing states are not computed
  return ctx.Emit(ctx.op_type(), ctx.inputs(), std::move(attrs), n, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
