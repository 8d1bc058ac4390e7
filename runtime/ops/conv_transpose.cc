// ConvTranspose: 1-D, 2-D and 3-D transposed convolution in NCHW with groups,
// strides, dilations, pads, output_padding, output_shape, auto_pad and an
// optional bias.
//
// Padding follows the ONNX text: SAME_* make the output input * stride (ONNX
// Runtime differs when the kernel is shorter than the stride); an odd total
// padding puts its extra pixel at the end for SAME_UPPER and at the beginning
// otherwise (SAME_LOWER, and an explicit output_shape without auto_pad, where
// ONNX Runtime 1.30 agrees).
#include <cinttypes>
#include <vector>

#include "runtime/kernels/ref/conv_transpose.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

struct ConvTransposeState : OpState {
  ConvTransposeParams params;
};

// Validates the node and computes the kernel params and the output shape (shared by infer and prepare).
Status PlanConvTranspose(const Attributes& attrs, const Tensor* x, const Tensor* w, const Tensor* b,
                         ConvTransposeParams* p, Shape* out_shape) {
  NPURT_RETURN_IF_ERROR(ExpectInputType("ConvTranspose", x, DataType::kFloat32, 0));
  NPURT_RETURN_IF_ERROR(ExpectInputType("ConvTranspose", w, DataType::kFloat32, 1));
  const int rank = x->rank();
  NPURT_CHECK_OR_RETURN(rank >= 3 && rank <= 5, kModelInvalid, "ConvTranspose: input rank %d, expected 3 to 5", rank);
  NPURT_CHECK_OR_RETURN(w->rank() == rank, kModelInvalid, "ConvTranspose: weight rank %d differs from input rank %d",
                        w->rank(), rank);
  for (int i = 0; i < rank; ++i) {
    NPURT_CHECK_OR_RETURN(x->shape[i] > 0 && w->shape[i] > 0, kModelInvalid, "ConvTranspose: bad shapes %s and %s",
                          ShapeToString(x->shape).c_str(), ShapeToString(w->shape).c_str());
    NPURT_CHECK_OR_RETURN(i < 2 || (x->shape[i] <= kMaxExtent && w->shape[i] <= kMaxExtent), kModelInvalid,
                          "ConvTranspose: spatial dim too large");
  }
  NPURT_CHECK_OR_RETURN(x->num_elements() > 0 && w->num_elements() > 0, kModelInvalid,
                        "ConvTranspose: tensor too large");

  const size_t spatial = static_cast<size_t>(rank - 2);
  const int64_t channels = x->shape[1];
  NPURT_CHECK_OR_RETURN(w->shape[0] == channels, kModelInvalid,
                        "ConvTranspose: weight dim 0 is %" PRId64 ", input has %" PRId64 " channels", w->shape[0],
                        channels);
  int64_t group = 1;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("group", 1, &group));
  NPURT_CHECK_OR_RETURN(group >= 1 && group <= channels && channels % group == 0, kModelInvalid,
                        "ConvTranspose: group %" PRId64 " does not divide %" PRId64 " input channels", group, channels);
  const int64_t maps = w->shape[1] * group;  // cannot overflow: group <= channels and w has channels * w[1] elements
  if (b != nullptr) {
    NPURT_RETURN_IF_ERROR(ExpectInputType("ConvTranspose", b, DataType::kFloat32, 2));
    NPURT_CHECK_OR_RETURN(b->rank() == 1 && b->shape[0] == maps, kModelInvalid,
                          "ConvTranspose: bias shape %s, expected [%" PRId64 "]", ShapeToString(b->shape).c_str(),
                          maps);
  }

  std::vector<int64_t> kernel_shape, strides, dilations, pads, output_padding, output_shape;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("kernel_shape", {}, &kernel_shape));
  if (!kernel_shape.empty()) {
    NPURT_CHECK_OR_RETURN(kernel_shape.size() == spatial, kModelInvalid,
                          "ConvTranspose: kernel_shape has %zu values, expected %zu", kernel_shape.size(), spatial);
    for (size_t i = 0; i < spatial; ++i) {
      NPURT_CHECK_OR_RETURN(kernel_shape[i] == w->shape[i + 2], kModelInvalid,
                            "ConvTranspose: kernel_shape disagrees with weight shape %s",
                            ShapeToString(w->shape).c_str());
    }
  }
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("ConvTranspose", attrs, "strides", spatial, 1, 1, &strides));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("ConvTranspose", attrs, "dilations", spatial, 1, 1, &dilations));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("ConvTranspose", attrs, "pads", 2 * spatial, 0, 0, &pads));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("ConvTranspose", attrs, "output_padding", spatial, 0, 0, &output_padding));
  NPURT_RETURN_IF_ERROR(attrs.GetInts("output_shape", {}, &output_shape));
  if (output_shape.size() == spatial + 2) output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  NPURT_CHECK_OR_RETURN(output_shape.empty() || output_shape.size() == spatial, kModelInvalid,
                        "ConvTranspose: output_shape has %zu values, expected %zu", output_shape.size(), spatial);
  for (int64_t v : output_shape) {
    NPURT_CHECK_OR_RETURN(v >= 1 && v <= kMaxExtent, kModelInvalid,
                          "ConvTranspose: output_shape value %" PRId64 " out of range", v);
  }
  AutoPad auto_pad = AutoPad::kNotSet;
  NPURT_RETURN_IF_ERROR(ParseAutoPad("ConvTranspose", attrs, &auto_pad));

  p->batch = x->shape[0];
  p->in_channels = channels;
  p->out_channels = maps;
  p->groups = group;
  *out_shape = {x->shape[0], maps};
  const size_t slot0 = 3 - spatial;  // 1-D and 2-D fill the trailing slots of (D, H, W)
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = x->shape[i + 2];
    const int64_t k = w->shape[i + 2];
    const int64_t s = strides[i];
    const int64_t d = dilations[i];
    // The output size with no padding at all.
    const int64_t full = (in - 1) * s + output_padding[i] + (k - 1) * d + 1;
    int64_t out = 0;
    int64_t pad_begin = 0;
    if (!output_shape.empty() || auto_pad == AutoPad::kSameUpper || auto_pad == AutoPad::kSameLower) {
      out = !output_shape.empty() ? output_shape[i] : in * s;
      // Negative total: the output is larger than the kernel reaches; the rest is bias.
      const int64_t total = full - out > 0 ? full - out : 0;
      pad_begin = auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
    } else if (auto_pad == AutoPad::kValid) {
      out = full;
    } else {
      pad_begin = pads[i];
      out = full - pads[i] - pads[i + spatial];
      NPURT_CHECK_OR_RETURN(out >= 1, kModelInvalid,
                            "ConvTranspose: pads leave no output on spatial dim %zu (%" PRId64 ")", i, out);
    }
    p->in[slot0 + i] = in;
    p->out[slot0 + i] = out;
    p->kernel[slot0 + i] = k;
    p->stride[slot0 + i] = s;
    p->dilation[slot0 + i] = d;
    p->pad_begin[slot0 + i] = pad_begin;
    out_shape->push_back(out);
  }
  NPURT_CHECK_OR_RETURN(NumElements(*out_shape) > 0, kModelInvalid, "ConvTranspose: output shape %s too large",
                        ShapeToString(*out_shape).c_str());
  return Status::Ok();
}

Status ConvTransposeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                          std::vector<Tensor>* outputs) {
  auto in = [&inputs](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  ConvTransposeParams params;
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanConvTranspose(attrs, in(0), in(1), in(2), &params, &shape));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status ConvTransposePrepare(OpNode* node) {
  auto state = std::make_unique<ConvTransposeState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(
      PlanConvTranspose(node->attrs, node->input(0), node->input(1), node->input(2), &state->params, &shape));
  node->state = std::move(state);
  return Status::Ok();
}

Status ConvTransposeEval(OpNode* node) {
  const Tensor* bias = node->input(2);
  f32_conv_transpose__ref(node->state_as<ConvTransposeState>()->params, node->inputs[0]->as<float>(),
                          node->inputs[1]->as<float>(), bias != nullptr ? bias->as<float>() : nullptr,
                          node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpConvTranspose = {"ConvTranspose", 2, 3, 1, 1, ConvTransposeInfer, ConvTransposePrepare,
                                       ConvTransposeEval};

}  // namespace npurt
