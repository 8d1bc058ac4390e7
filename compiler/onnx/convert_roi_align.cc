// RoiAlign: opset 16 added coordinate_transformation_mode with default half_pixel; before it the
// boxes were taken as output_half_pixel. The runtime op reads the attribute, so the converter
// writes the opset's default when the node leaves it out.
#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

Status ConvertRoiAlign(NodeContext& ctx, std::vector<int>* outputs) {
  Attributes attrs;
  NPURT_RETURN_IF_ERROR(ctx.CopyAttributes(&attrs));
  if (!attrs.Has("coordinate_transformation_mode")) {
    attrs.SetString("coordinate_transformation_mode", ctx.opset() < 16 ? "output_half_pixel" : "half_pixel");
  }
  return ctx.Emit("RoiAlign", ctx.inputs(), std::move(attrs), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
