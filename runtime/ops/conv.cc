// Conv: 1-D, 2-D and 3-D convolution in NCHW with groups (depthwise included),
// strides, dilations, pads or auto_pad, an optional bias, and an optional
// activation that the compiler's fusion pass folds in (attributes `activation`,
// `activation_params`; see kernels/ref/fused_activation.h).
//
// Float32, or quantized (contract in kernels/ref/quantize.h): int8 or int16
// input and output (chosen independently, see QuantizedOutputType) quantized
// per tensor, a constant symmetric int8 weight quantized per tensor or per
// output channel (axis 0), an optional constant int32 bias whose real value is
// bias[m] * input scale * weight scale[m].
//
// An optional fourth input, `residual` (the compiler's fused Add), of the
// output's shape joins the sum before the activation (kernels/ref/conv.h):
// float32 for a float convolution, int8 or int16 quantized per tensor otherwise.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/ref/conv.h"
#include "runtime/ops/conv_fast_path.h"
#include "runtime/ops/conv_int8_path.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/conv_geometry.h"
#include "runtime/ops/fused_activation_attributes.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

struct ConvState : OpState {
  ConvParams params;
  std::vector<float> affine;  // params.activation's per-channel scales and shifts, when it has them
  bool quantized = false;
  bool has_residual = false;
  ConvResidual residual;  // its type and quantization; eval points it at the tensor
  ConvQuantParams quant;  // quantized only
  ConvInt8Path int8;      // npurt's int8 kernels (quantized), when one fits
  ConvFastPath fast;      // else an optimized library kernel, when prepare found one
};

// Validates the node and computes the kernel params and the output shape; infer
// and prepare both use it so they cannot disagree.
Status PlanConv(const Attributes& attrs, const Tensor* x, const Tensor* w, const Tensor* b, ConvParams* p,
                Shape* out_shape, bool* quantized) {
  NPURT_RETURN_IF_ERROR(CheckConvOperandTypes("Conv", x, w, b, quantized));
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

  NPURT_RETURN_IF_ERROR(ReadFusedActivation("Conv", attrs, &p->activation));

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

// The residual input (nullptr: none) against the planned output.
Status CheckResidual(const Tensor* r, const Shape& out_shape, bool quantized) {
  if (r == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(r->shape == out_shape, kModelInvalid, "Conv: residual shape %s differs from output shape %s",
                        ShapeToString(r->shape).c_str(), ShapeToString(out_shape).c_str());
  const bool type_ok = quantized ? (r->dtype == DataType::kInt8 || r->dtype == DataType::kInt16)
                                 : r->dtype == DataType::kFloat32;
  NPURT_CHECK_OR_RETURN(type_ok, kModelInvalid, "Conv: residual of type %s in a %s convolution, expected %s",
                        DataTypeName(r->dtype), quantized ? "quantized" : "float",
                        quantized ? "INT8 or INT16" : "FLOAT32");
  return Status::Ok();
}

// The affine after the activation (attributes activation_scale / activation_shift) into `storage`, which
// `p->activation` then points at.
Status ReadConvAffine(const Attributes& attrs, ConvParams* p, std::vector<float>* storage) {
  std::vector<float> scale, shift;
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_scale", {}, &scale));
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_shift", {}, &shift));
  if (const char* error = ParseActivationAffine(scale, shift, p->out_channels, storage, &p->activation)) {
    return NPURT_ERROR(kModelInvalid, "Conv: %s (%zu scales, %zu shifts, %" PRId64 " output channels)", error,
                       scale.size(), shift.size(), p->out_channels);
  }
  return Status::Ok();
}

// ---- int8 ----

// Computes the integer kernel's quantization parameters. With an int8 input
// also bounds every accumulator, |bias| + max|x - zp| * sum|w|, by the int32
// range, so the kernel's int32 arithmetic cannot overflow (int16 inputs
// accumulate in int64).
Status PrepareQuantizedConv(const OpNode& node, ConvState* state) {
  const Tensor& x = *node.inputs[0];
  const Tensor& w = *node.inputs[1];
  const Tensor* b = node.input(2);
  const Tensor& y = *node.outputs[0];
  const ConvParams& p = state->params;
  TensorQuant xq, yq;
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("Conv", x, "input", &xq));
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("Conv", y, "output", &yq));
  std::vector<float> w_scale;
  NPURT_RETURN_IF_ERROR(ReadWeightScales("Conv", w, 0, p.out_channels, "output channel", &w_scale));
  ConvQuantParams& q = state->quant;
  q.input_zero_point = xq.zero_point;
  q.acc_scale.resize(w_scale.size());
  for (size_t m = 0; m < w_scale.size(); ++m) q.acc_scale[m] = xq.scale * w_scale[m];
  q.output_scale = yq.scale;
  q.output_zero_point = yq.zero_point;
  q.output_min = static_cast<int32_t>(yq.range.min);
  q.output_max = static_cast<int32_t>(yq.range.max);
  if (b != nullptr) NPURT_RETURN_IF_ERROR(CheckBiasQuant("Conv", *b, q.acc_scale));

  if (x.dtype != DataType::kInt8) return Status::Ok();
  const int64_t max_input = std::max<int64_t>(xq.zero_point - xq.range.min, xq.range.max - xq.zero_point);
  const int64_t per_channel = w.num_elements() / p.out_channels;
  const int8_t* weights = w.as<int8_t>();
  for (int64_t m = 0; m < p.out_channels; ++m) {
    int64_t sum = 0;
    for (int64_t i = 0; i < per_channel; ++i) sum += std::abs(static_cast<int64_t>(weights[m * per_channel + i]));
    const int64_t bound = (b != nullptr ? std::abs(static_cast<int64_t>(b->as<int32_t>()[m])) : 0) + max_input * sum;
    NPURT_CHECK_OR_RETURN(bound <= INT32_MAX, kModelInvalid,
                          "Conv: output channel %" PRId64 " of weight '%s' can overflow the int32 accumulator "
                          "(bound %" PRId64 ")",
                          m, w.name.c_str(), bound);
  }
  return Status::Ok();
}

// ---- op ----

Status ConvInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  ConvParams params;
  Shape shape;
  bool quantized = false;
  auto in = [&inputs](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  NPURT_RETURN_IF_ERROR(PlanConv(attrs, in(0), in(1), in(2), &params, &shape, &quantized));
  NPURT_RETURN_IF_ERROR(CheckResidual(in(3), shape, quantized));
  std::vector<float> affine;
  NPURT_RETURN_IF_ERROR(ReadConvAffine(attrs, &params, &affine));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType("Conv", attrs, in(0)->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

Status ConvPrepare(OpNode* node) {
  auto state = std::make_unique<ConvState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanConv(node->attrs, node->input(0), node->input(1), node->input(2), &state->params, &shape,
                                 &state->quantized));
  const Tensor* r = node->input(3);
  NPURT_RETURN_IF_ERROR(CheckResidual(r, shape, state->quantized));
  NPURT_RETURN_IF_ERROR(ReadConvAffine(node->attrs, &state->params, &state->affine));
  if (state->quantized) NPURT_RETURN_IF_ERROR(PrepareQuantizedConv(*node, state.get()));
  if (r != nullptr) {
    state->has_residual = true;
    state->residual.type = r->dtype;
    if (state->quantized) {
      TensorQuant rq;
      NPURT_RETURN_IF_ERROR(ReadActivationQuant("Conv", *r, "residual", &rq));
      state->residual.scale = rq.scale;
      state->residual.zero_point = rq.zero_point;
    }
  }
  const ConvResidual* residual = state->has_residual ? &state->residual : nullptr;
  if (state->quantized) NPURT_RETURN_IF_ERROR(state->int8.Prepare(node, state->params, state->quant, residual));
  if (!state->int8.enabled()) {
    NPURT_RETURN_IF_ERROR(
        state->fast.Prepare(node, state->params, state->quantized ? &state->quant : nullptr, false, residual));
  }
  node->state = std::move(state);
  return Status::Ok();
}

// Threads split the output channels.
Status ConvEval(OpNode* node) {
  const ConvState* state = node->state_as<ConvState>();
  if (state->int8.enabled()) return state->int8.Eval(node);
  if (state->fast.enabled()) return state->fast.Eval(node);
  const Tensor* bias = node->input(2);
  ConvResidual residual = state->residual;
  if (state->has_residual) residual.data = node->inputs[3]->data;
  const ConvResidual* r = state->has_residual ? &residual : nullptr;
  const int threads = ThreadsFor(*node, node->outputs[0]->num_elements() * node->inputs[1]->num_elements() /
                                            state->params.out_channels);
  if (state->quantized) {
    ParallelFor(state->params.out_channels, threads, [&](int64_t begin, int64_t end) {
      quantized_conv__ref(state->params, state->quant, node->inputs[0]->dtype, node->inputs[0]->data,
                          node->inputs[1]->as<int8_t>(), bias != nullptr ? bias->as<int32_t>() : nullptr,
                          node->outputs[0]->dtype, node->outputs[0]->data, WorkRange{begin, end}, r);
    });
    return Status::Ok();
  }
  ParallelFor(state->params.out_channels, threads, [&](int64_t begin, int64_t end) {
    f32_conv__ref(state->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                  bias != nullptr ? bias->as<float>() : nullptr, node->outputs[0]->as<float>(), WorkRange{begin, end},
                  r);
  });
  return Status::Ok();
}

}  // namespace

Status ConvGeometry(const Attributes& attrs, const Tensor* x, const Tensor* w, ConvParams* params) {
  Shape shape;
  bool quantized = false;
  return PlanConv(attrs, x, w, nullptr, params, &shape, &quantized);
}

extern const OpDef kOpConv = {"Conv", 2, 4, 1, 1, ConvInfer, ConvPrepare, ConvEval};

}  // namespace npurt
