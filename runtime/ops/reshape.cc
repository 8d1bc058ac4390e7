// The shape-only ops: Reshape, Flatten, Squeeze, Unsqueeze, Identity. They
// differ in infer; eval is the same byte copy for all of them, so they serve
// every element type. Quantized (INT8) tensors keep their quantization: the
// output must carry the input's parameters (checked in prepare).
#include "runtime/kernels/ref/reshape.h"

#include <cinttypes>
#include <cstdint>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

Status CheckData(const char* op, const std::vector<const Tensor*>& inputs) {
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", op);
  NPURT_CHECK_OR_RETURN(DataTypeSize(x->dtype) != 0, kModelInvalid, "%s: unknown element type", op);
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", op,
                        ShapeToString(x->shape).c_str());
  return Status::Ok();
}

void SetOutput(const Tensor* x, Shape shape, std::vector<Tensor>* outputs) {
  (*outputs)[0].shape = std::move(shape);
  (*outputs)[0].dtype = x->dtype;
}

// Reads an axes list from attribute `axes` or from constant input 1.
Status ReadAxes(const char* op, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                std::vector<int64_t>* axes, bool* present) {
  const Tensor* t = inputs.size() > 1 ? inputs[1] : nullptr;
  if (t != nullptr) {
    NPURT_CHECK_OR_RETURN(t->rank() <= 1, kModelInvalid, "%s: input 'axes' must be 1-D", op);
    NPURT_RETURN_IF_ERROR(ReadIntValues(op, t, axes));
    *present = true;
    return Status::Ok();
  }
  *present = attrs.Has("axes");
  return attrs.GetInts("axes", {}, axes);
}

Status ReshapeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckData("Reshape", inputs));
  const Tensor* x = inputs[0];
  std::vector<int64_t> target;
  const Tensor* shape_input = inputs.size() > 1 ? inputs[1] : nullptr;
  if (shape_input != nullptr) {
    NPURT_CHECK_OR_RETURN(shape_input->rank() == 1, kModelInvalid, "Reshape: input 'shape' must be 1-D");
    NPURT_RETURN_IF_ERROR(ReadIntValues("Reshape", shape_input, &target));
  } else {
    // Opset < 5 kept the shape in an attribute.
    NPURT_CHECK_OR_RETURN(attrs.Has("shape"), kModelInvalid, "Reshape: needs input 'shape'");
    NPURT_RETURN_IF_ERROR(attrs.GetInts("shape", {}, &target));
  }
  int64_t allowzero = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("allowzero", 0, &allowzero));

  Shape out(target.size());
  int infer_index = -1;
  int64_t known = 1;  // product of the dims other than -1
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == -1) {
      NPURT_CHECK_OR_RETURN(infer_index < 0, kModelInvalid, "Reshape: more than one -1 in shape");
      infer_index = static_cast<int>(i);
      continue;
    }
    if (d == 0 && allowzero == 0) {
      NPURT_CHECK_OR_RETURN(i < x->shape.size(), kModelInvalid,
                            "Reshape: shape[%zu] = 0 copies a dim the input (rank %d) does not have", i, x->rank());
      d = x->shape[i];
    }
    NPURT_CHECK_OR_RETURN(d >= 0, kModelInvalid, "Reshape: bad dim %" PRId64 " in shape", d);
    out[i] = d;
    if (d != 0 && known > INT64_MAX / d) return NPURT_ERROR(kModelInvalid, "Reshape: shape is too large");
    known *= d;
  }
  const int64_t total = x->num_elements();
  if (infer_index >= 0) {
    // With allowzero a 0 next to -1 leaves -1 undetermined (ONNX forbids it).
    NPURT_CHECK_OR_RETURN(known != 0, kModelInvalid, "Reshape: cannot infer -1 next to a zero dim");
    NPURT_CHECK_OR_RETURN(total % known == 0, kModelInvalid, "Reshape: cannot reshape %s to %s",
                          ShapeToString(x->shape).c_str(), ShapeToString(target).c_str());
    out[infer_index] = total / known;
  } else {
    NPURT_CHECK_OR_RETURN(known == total, kModelInvalid, "Reshape: cannot reshape %s to %s",
                          ShapeToString(x->shape).c_str(), ShapeToString(target).c_str());
  }
  SetOutput(x, std::move(out), outputs);
  return Status::Ok();
}

Status FlattenInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckData("Flatten", inputs));
  const Tensor* x = inputs[0];
  const int rank = x->rank();
  int64_t axis = 1;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 1, &axis));
  // Unlike most ops the axis may equal the rank (everything goes to dim 0).
  NPURT_CHECK_OR_RETURN(axis >= -rank && axis <= rank, kModelInvalid,
                        "Flatten: axis %" PRId64 " out of range for rank %d", axis, rank);
  if (axis < 0) axis += rank;
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x->shape[d];  // cannot overflow: total is valid
  int64_t inner = 1;
  for (int64_t d = axis; d < rank; ++d) inner *= x->shape[d];
  SetOutput(x, Shape{outer, inner}, outputs);
  return Status::Ok();
}

Status SqueezeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckData("Squeeze", inputs));
  const Tensor* x = inputs[0];
  const int rank = x->rank();
  std::vector<int64_t> axes;
  bool present = false;
  NPURT_RETURN_IF_ERROR(ReadAxes("Squeeze", attrs, inputs, &axes, &present));
  std::vector<bool> drop(rank, false);
  if (axes.empty()) {
    // No axes (or an empty list, as onnxruntime reads it): drop every 1.
    for (int d = 0; d < rank; ++d) drop[d] = x->shape[d] == 1;
  }
  for (int64_t a : axes) {
    int axis = 0;
    NPURT_RETURN_IF_ERROR(NormalizeAxis("Squeeze", a, rank, &axis));
    NPURT_CHECK_OR_RETURN(!drop[axis], kModelInvalid, "Squeeze: axis %d is repeated", axis);
    NPURT_CHECK_OR_RETURN(x->shape[axis] == 1, kModelInvalid, "Squeeze: dim %d of %s is not 1", axis,
                          ShapeToString(x->shape).c_str());
    drop[axis] = true;
  }
  Shape out;
  for (int d = 0; d < rank; ++d) {
    if (!drop[d]) out.push_back(x->shape[d]);
  }
  SetOutput(x, std::move(out), outputs);
  return Status::Ok();
}

Status UnsqueezeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckData("Unsqueeze", inputs));
  const Tensor* x = inputs[0];
  std::vector<int64_t> axes;
  bool present = false;
  NPURT_RETURN_IF_ERROR(ReadAxes("Unsqueeze", attrs, inputs, &axes, &present));
  NPURT_CHECK_OR_RETURN(present, kModelInvalid, "Unsqueeze: needs 'axes' (attribute or input 1)");
  NPURT_CHECK_OR_RETURN(axes.size() <= 1024, kModelInvalid, "Unsqueeze: too many axes (%zu)", axes.size());
  const int out_rank = x->rank() + static_cast<int>(axes.size());
  std::vector<bool> inserted(out_rank, false);
  for (int64_t a : axes) {
    int axis = 0;
    // Negative axes count from the end of the output.
    NPURT_RETURN_IF_ERROR(NormalizeAxis("Unsqueeze", a, out_rank, &axis));
    NPURT_CHECK_OR_RETURN(!inserted[axis], kModelInvalid, "Unsqueeze: axis %d is repeated", axis);
    inserted[axis] = true;
  }
  Shape out(out_rank);
  size_t next = 0;
  for (int d = 0; d < out_rank; ++d) out[d] = inserted[d] ? 1 : x->shape[next++];
  SetOutput(x, std::move(out), outputs);
  return Status::Ok();
}

Status IdentityInfer(const Attributes& /*attrs*/, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>* outputs) {
  NPURT_RETURN_IF_ERROR(CheckData("Identity", inputs));
  SetOutput(inputs[0], inputs[0]->shape, outputs);
  return Status::Ok();
}

Status CopyPrepare(OpNode* node) {
  return ExpectSameQuant(node->def->name, *node->inputs[0], *node->outputs[0]);
}

Status CopyEval(OpNode* node) {
  const Tensor* x = node->inputs[0];
  ReshapeParams params;
  params.bytes = static_cast<size_t>(x->num_elements()) * DataTypeSize(x->dtype);
  reshape__ref(params, x->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpReshape = {"Reshape", 1, 2, 1, 1, ReshapeInfer, CopyPrepare, CopyEval, /*view=*/true};
extern const OpDef kOpFlatten = {"Flatten", 1, 1, 1, 1, FlattenInfer, CopyPrepare, CopyEval, /*view=*/true};
extern const OpDef kOpSqueeze = {"Squeeze", 1, 2, 1, 1, SqueezeInfer, CopyPrepare, CopyEval, /*view=*/true};
extern const OpDef kOpUnsqueeze = {"Unsqueeze", 1, 2, 1, 1, UnsqueezeInfer, CopyPrepare, CopyEval, /*view=*/true};
extern const OpDef kOpIdentity = {"Identity", 1, 1, 1, 1, IdentityInfer, CopyPrepare, CopyEval, /*view=*/true};

}  // namespace npurt
