// Conv: 1-D, 2-D and 3-D convolution in NCHW with groups (depthwise included),
// strides, dilations, pads or auto_pad, an optional bias, and an optional
// activation that the compiler's fusion pass folds in (attributes `activation`,
// `activation_params`; see kernels/ref/fused_activation.h).
#include <cinttypes>
#include <string>
#include <vector>

#include "runtime/kernels/ref/conv.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

struct ConvState : OpState {
  ConvParams params;
};

// Validates the node and computes the kernel params and the output shape; infer
// and prepare both use it so they cannot disagree.
Status PlanConv(const Attributes& attrs, const Tensor* x, const Tensor* w, const Tensor* b, ConvParams* p,
                Shape* out_shape) {
  NPURT_RETURN_IF_ERROR(ExpectInputType("Conv", x, DataType::kFloat32, 0));
  NPURT_RETURN_IF_ERROR(ExpectInputType("Conv", w, DataType::kFloat32, 1));
  const int rank = x->rank();
  NPURT_CHECK_OR_RETURN(rank >= 3 && rank <= 5, kModelInvalid, "Conv: input rank %d, expected 3 to 5", rank);
  NPURT_CHECK_OR_RETURN(w->rank() == rank, kModelInvalid, "Conv: weight rank %d differs from input rank %d", w->rank(),
                        rank);
  for (int i = 0; i < rank; ++i) {
    NPURT_CHECK_OR_RETURN(x->shape[i] > 0 && w->shape[i] > 0, kModelInvalid, "Conv: bad shapes %s and %s",
                          ShapeToString(x->shape).c_str(), ShapeToString(w->shape).c_str());
    NPURT_CHECK_OR_RETURN(i < 2 || (x->shape[i] <= kMaxExtent && w->shape[i] <= kMaxExtent), kModelInvalid,
                          "Conv: spatial dim too large");
  }
  NPURT_CHECK_OR_RETURN(x->num_elements() > 0 && w->num_elements() > 0, kModelInvalid, "Conv: tensor too large");

  const size_t spatial = static_cast<size_t>(rank - 2);
  const int64_t channels = x->shape[1];
  const int64_t maps = w->shape[0];
  int64_t group = 1;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("group", 1, &group));
  NPURT_CHECK_OR_RETURN(group >= 1 && group <= channels && channels % group == 0 && maps % group == 0, kModelInvalid,
                        "Conv: group %" PRId64 " does not divide %" PRId64 " input and %" PRId64 " output channels",
                        group, channels, maps);
  NPURT_CHECK_OR_RETURN(w->shape[1] * group == channels, kModelInvalid,
                        "Conv: weight has %" PRId64 " channels per group, input has %" PRId64 " in %" PRId64 " groups",
                        w->shape[1], channels, group);
  if (b != nullptr) {
    NPURT_RETURN_IF_ERROR(ExpectInputType("Conv", b, DataType::kFloat32, 2));
    NPURT_CHECK_OR_RETURN(b->rank() == 1 && b->shape[0] == maps, kModelInvalid,
                          "Conv: bias shape %s, expected [%" PRId64 "]", ShapeToString(b->shape).c_str(), maps);
  }

  std::vector<int64_t> kernel_shape, strides, dilations, pads;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("kernel_shape", {}, &kernel_shape));
  if (!kernel_shape.empty()) {
    // Redundant with the weights; a mismatch means a broken model.
    NPURT_CHECK_OR_RETURN(kernel_shape.size() == spatial, kModelInvalid,
                          "Conv: kernel_shape has %zu values, expected %zu", kernel_shape.size(), spatial);
    for (size_t i = 0; i < spatial; ++i) {
      NPURT_CHECK_OR_RETURN(kernel_shape[i] == w->shape[i + 2], kModelInvalid,
                            "Conv: kernel_shape disagrees with weight shape %s", ShapeToString(w->shape).c_str());
    }
  }
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("Conv", attrs, "strides", spatial, 1, 1, &strides));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("Conv", attrs, "dilations", spatial, 1, 1, &dilations));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("Conv", attrs, "pads", 2 * spatial, 0, 0, &pads));
  AutoPad auto_pad = AutoPad::kNotSet;
  NPURT_RETURN_IF_ERROR(ParseAutoPad("Conv", attrs, &auto_pad));

  std::string activation;
  std::vector<float> activation_params;
  NPURT_RETURN_IF_ERROR(attrs.GetString("activation", "", &activation));
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_params", {}, &activation_params));
  if (const char* error = ParseFusedActivation(activation, activation_params, &p->activation)) {
    return NPURT_ERROR(kModelInvalid, "Conv: %s (activation '%s')", error, activation.c_str());
  }

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
    const int64_t extent = (k - 1) * d + 1;
    int64_t pad_begin = pads[i];
    int64_t pad_end = pads[i + spatial];
    int64_t out = 0;
    switch (auto_pad) {
      case AutoPad::kNotSet:
      case AutoPad::kValid:
        // auto_pad VALID means no padding; explicit pads are ignored under any auto_pad.
        if (auto_pad == AutoPad::kValid) pad_begin = pad_end = 0;
        NPURT_CHECK_OR_RETURN(in + pad_begin + pad_end >= extent, kModelInvalid,
                              "Conv: kernel extent %" PRId64 " exceeds padded input %" PRId64 " on spatial dim %zu",
                              extent, in + pad_begin + pad_end, i);
        out = (in + pad_begin + pad_end - extent) / s + 1;
        break;
      case AutoPad::kSameUpper:
      case AutoPad::kSameLower:
        SamePadding(auto_pad, in, s, extent, &out, &pad_begin, &pad_end);
        break;
    }
    p->in[slot0 + i] = in;
    p->out[slot0 + i] = out;
    p->kernel[slot0 + i] = k;
    p->stride[slot0 + i] = s;
    p->dilation[slot0 + i] = d;
    p->pad_begin[slot0 + i] = pad_begin;
    out_shape->push_back(out);
  }
  NPURT_CHECK_OR_RETURN(NumElements(*out_shape) > 0, kModelInvalid, "Conv: output shape %s too large",
                        ShapeToString(*out_shape).c_str());
  return Status::Ok();
}

Status ConvInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  ConvParams params;
  Shape shape;
  auto in = [&inputs](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  NPURT_RETURN_IF_ERROR(PlanConv(attrs, in(0), in(1), in(2), &params, &shape));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status ConvPrepare(OpNode* node) {
  auto state = std::make_unique<ConvState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanConv(node->attrs, node->input(0), node->input(1), node->input(2), &state->params, &shape));
  node->state = std::move(state);
  return Status::Ok();
}

Status ConvEval(OpNode* node) {
  const Tensor* bias = node->input(2);
  f32_conv__ref(node->state_as<ConvState>()->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                bias != nullptr ? bias->as<float>() : nullptr, node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpConv = {"Conv", 2, 3, 1, 1, ConvInfer, ConvPrepare, ConvEval};

}  // namespace npurt
