// ConvTranspose: 1-D, 2-D and 3-D transposed convolution in NCHW with groups,
// strides, dilations, pads, output_padding, output_shape, auto_pad, an
// optional bias, and an optional activation that the compiler's fusion pass
// folds in (attributes `activation`, `activation_params`, as Conv's; no affine).
//
// Padding follows the ONNX text: SAME_* make the output input * stride (ONNX
// Runtime differs when the kernel is shorter than the stride); an odd total
// padding puts its extra pixel at the end for SAME_UPPER and at the beginning
// otherwise (SAME_LOWER, and an explicit output_shape without auto_pad, where
// ONNX Runtime 1.30 agrees).
//
// Float32, or quantized (contract in kernels/ref/quantize.h): int8 or int16
// input and output (chosen independently, see QuantizedOutputType) quantized
// per tensor, a constant symmetric int8 weight [C, M/g, k...]
// quantized per tensor or per channel along axis 1, an optional constant int32
// bias whose real value is bias[m] * input scale * weight scale of output
// channel m. Along axis 1 the weight holds M/g scales, one per channel of a
// group and shared by all groups (ONNX per-axis semantics; what a model file
// can hold, the loader checks one scale per index of the axis), or M scales,
// channel j of group g using scale g * (M/g) + j, i.e. one per output channel
// (the same when there is one group).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/ref/conv_transpose.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/conv_fast_path.h"
#include "runtime/ops/conv_int8_path.h"
#include "runtime/ops/conv_geometry.h"
#include "runtime/ops/fused_activation_attributes.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

struct ConvTransposeState : OpState {
  ConvTransposeParams params;
  bool quantized = false;
  ConvQuantParams quant;  // quantized only
  ConvInt8Path int8;      // quantized, kernel == stride: npurt's int8 kernels (depth to space)
  ConvFastPath fast;      // an optimized kernel, when prepare found one
};

// Validates the node and computes the kernel params and the output shape (shared by infer and prepare).
Status PlanConvTranspose(const Attributes& attrs, const Tensor* x, const Tensor* w, const Tensor* b,
                         ConvTransposeParams* p, Shape* out_shape, bool* quantized) {
  NPURT_RETURN_IF_ERROR(CheckConvOperandTypes("ConvTranspose", x, w, b, quantized));
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
  NPURT_RETURN_IF_ERROR(ReadFusedActivation("ConvTranspose", attrs, &p->activation));
  NPURT_CHECK_OR_RETURN(!attrs.Has("activation_scale") && !attrs.Has("activation_shift"), kModelInvalid,
                        "ConvTranspose: an affine after the activation is for Conv only");

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

// ---- int8 ----

// The weight scale of each of the M output channels: a constant symmetric int8
// weight quantized per tensor or along axis 1 (M/g or M scales, see the top).
Status ReadGroupedWeightScales(const Tensor& w, const ConvTransposeParams& p, std::vector<float>* scales) {
  const QuantInfo& info = w.quant;
  NPURT_CHECK_OR_RETURN(w.constant, kModelInvalid, "ConvTranspose: int8 weight '%s' must be a constant",
                        w.name.c_str());
  NPURT_CHECK_OR_RETURN(!info.empty(), kModelInvalid,
                        "ConvTranspose: weight '%s' is INT8 but has no quantization parameters", w.name.c_str());
  const int64_t group_out = p.out_channels / p.groups;
  const int64_t count = static_cast<int64_t>(info.scale.size());
  const bool per_channel = info.axis == 1 && (count == group_out || count == p.out_channels);
  NPURT_CHECK_OR_RETURN(info.per_tensor() || per_channel, kModelInvalid,
                        "ConvTranspose: weight '%s' %s must be quantized per tensor or per output channel (axis 1, "
                        "%" PRId64 " scales, or %" PRId64 " for all groups), has %zu scales along axis %d",
                        w.name.c_str(), ShapeToString(w.shape).c_str(), group_out, p.out_channels, info.scale.size(),
                        info.axis);
  for (int32_t zp : info.zero_point) {
    NPURT_CHECK_OR_RETURN(zp == 0, kModelInvalid,
                          "ConvTranspose: weight '%s' has zero point %d; int8 weights must be symmetric (zero point 0)",
                          w.name.c_str(), zp);
  }
  scales->resize(static_cast<size_t>(p.out_channels));
  for (int64_t m = 0; m < p.out_channels; ++m) {
    const int64_t index = !per_channel ? 0 : count == p.out_channels ? m : m % group_out;
    const float s = info.scale[static_cast<size_t>(index)];
    NPURT_CHECK_OR_RETURN(std::isfinite(s) && s > 0.0f, kModelInvalid, "ConvTranspose: weight '%s' has scale %g",
                          w.name.c_str(), static_cast<double>(s));
    (*scales)[static_cast<size_t>(m)] = s;
  }
  return Status::Ok();
}

// Computes the integer kernel's quantization parameters. With an int8 input
// also bounds every accumulator, |bias| + max|x - zp| * sum|w| over the output
// channel's weights, by the int32 range, so the kernel's int32 arithmetic
// cannot overflow (int16 inputs accumulate in int64).
Status PrepareQuantizedConvTranspose(const OpNode& node, ConvTransposeState* state) {
  const Tensor& x = *node.inputs[0];
  const Tensor& w = *node.inputs[1];
  const Tensor* b = node.input(2);
  const Tensor& y = *node.outputs[0];
  const ConvTransposeParams& p = state->params;
  TensorQuant xq, yq;
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("ConvTranspose", x, "input", &xq));
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("ConvTranspose", y, "output", &yq));
  std::vector<float> w_scale;
  NPURT_RETURN_IF_ERROR(ReadGroupedWeightScales(w, p, &w_scale));
  ConvQuantParams& q = state->quant;
  q.input_zero_point = xq.zero_point;
  q.acc_scale.resize(w_scale.size());
  for (size_t m = 0; m < w_scale.size(); ++m) q.acc_scale[m] = xq.scale * w_scale[m];
  q.output_scale = yq.scale;
  q.output_zero_point = yq.zero_point;
  q.output_min = static_cast<int32_t>(yq.range.min);
  q.output_max = static_cast<int32_t>(yq.range.max);
  if (b != nullptr) NPURT_RETURN_IF_ERROR(CheckBiasQuant("ConvTranspose", *b, q.acc_scale));

  if (x.dtype != DataType::kInt8) return Status::Ok();
  const int64_t max_input = std::max<int64_t>(xq.zero_point - xq.range.min, xq.range.max - xq.zero_point);
  const int64_t group_in = p.in_channels / p.groups, group_out = p.out_channels / p.groups;
  const int64_t kernel_volume = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int8_t* weights = w.as<int8_t>();
  for (int64_t m = 0; m < p.out_channels; ++m) {
    const int64_t g = m / group_out, j = m % group_out;
    int64_t sum = 0;
    for (int64_t ic = g * group_in; ic < (g + 1) * group_in; ++ic) {
      const int8_t* taps = weights + (ic * group_out + j) * kernel_volume;
      for (int64_t t = 0; t < kernel_volume; ++t) sum += std::abs(static_cast<int64_t>(taps[t]));
    }
    const int64_t bound = (b != nullptr ? std::abs(static_cast<int64_t>(b->as<int32_t>()[m])) : 0) + max_input * sum;
    NPURT_CHECK_OR_RETURN(bound <= INT32_MAX, kModelInvalid,
                          "ConvTranspose: output channel %" PRId64 " of weight '%s' can overflow the int32 "
                          "accumulator (bound %" PRId64 ")",
                          m, w.name.c_str(), bound);
  }
  return Status::Ok();
}

// ---- op ----

Status ConvTransposeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                          std::vector<Tensor>* outputs) {
  auto in = [&inputs](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  ConvTransposeParams params;
  Shape shape;
  bool quantized = false;
  NPURT_RETURN_IF_ERROR(PlanConvTranspose(attrs, in(0), in(1), in(2), &params, &shape, &quantized));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType("ConvTranspose", attrs, in(0)->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

Status ConvTransposePrepare(OpNode* node) {
  auto state = std::make_unique<ConvTransposeState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanConvTranspose(node->attrs, node->input(0), node->input(1), node->input(2), &state->params,
                                          &shape, &state->quantized));
  if (state->quantized) NPURT_RETURN_IF_ERROR(PrepareQuantizedConvTranspose(*node, state.get()));
  const ConvTransposeParams& t = state->params;
  ConvParams p;  // the same geometry and activation in the Conv struct the fast path takes
  p.batch = t.batch, p.in_channels = t.in_channels, p.out_channels = t.out_channels, p.groups = t.groups;
  p.activation = t.activation;
  for (int d = 0; d < 3; ++d) {
    p.in[d] = t.in[d], p.out[d] = t.out[d], p.kernel[d] = t.kernel[d], p.stride[d] = t.stride[d];
    p.dilation[d] = t.dilation[d], p.pad_begin[d] = t.pad_begin[d];
  }
  if (state->quantized) NPURT_RETURN_IF_ERROR(state->int8.PrepareDepthToSpace(node, p, state->quant));
  if (!state->int8.enabled()) {
    NPURT_RETURN_IF_ERROR(state->fast.Prepare(node, p, state->quantized ? &state->quant : nullptr, /*transposed=*/true));
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status ConvTransposeEval(OpNode* node) {
  const ConvTransposeState* state = node->state_as<ConvTransposeState>();
  if (state->int8.enabled()) return state->int8.Eval(node);
  if (state->fast.enabled()) return state->fast.Eval(node);
  const Tensor* bias = node->input(2);
  // Threads split the output channels; every input pixel reaches out_channels / groups of them.
  const int threads = ThreadsFor(*node, node->inputs[0]->num_elements() * node->inputs[1]->num_elements() /
                                            node->inputs[0]->shape[1]);
  if (state->quantized) {
    ParallelFor(state->params.out_channels, threads, [&](int64_t begin, int64_t end) {
      quantized_conv_transpose__ref(state->params, state->quant, node->inputs[0]->dtype, node->inputs[0]->data,
                                    node->inputs[1]->as<int8_t>(), bias != nullptr ? bias->as<int32_t>() : nullptr,
                                    node->outputs[0]->dtype, node->outputs[0]->data, WorkRange{begin, end});
    });
    return Status::Ok();
  }
  ParallelFor(state->params.out_channels, threads, [&](int64_t begin, int64_t end) {
    f32_conv_transpose__ref(state->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                            bias != nullptr ? bias->as<float>() : nullptr, node->outputs[0]->as<float>(),
                            WorkRange{begin, end});
  });
  return Status::Ok();
}

}  // namespace

Status ConvTransposeGeometry(const Attributes& attrs, const Tensor* x, const Tensor* w, ConvTransposeParams* params) {
  Shape shape;
  bool quantized = false;
  return PlanConvTranspose(attrs, x, w, nullptr, params, &shape, &quantized);
}

extern const OpDef kOpConvTranspose = {"ConvTranspose", 2, 3, 1, 1, ConvTransposeInfer, ConvTransposePrepare,
                                       ConvTransposeEval};

}  // namespace npurt
