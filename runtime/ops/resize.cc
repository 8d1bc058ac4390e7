// Resize (float32). Opset 10 has inputs (X, scales); opset 11+ has (X, roi,
// scales, sizes) where any of the last three may be omitted or an empty
// tensor. Exactly one of scales/sizes must be given, as a constant.
// Modes: nearest (round_prefer_floor, round_prefer_ceil, floor, ceil) and N-D
// linear. Coordinate modes: half_pixel, half_pixel_symmetric, asymmetric,
// pytorch_half_pixel, align_corners, tf_half_pixel_for_nearest. Cubic and
// tf_crop_and_resize are rejected.
// Arithmetic is float32 like onnxruntime, so index rounding matches it.
//
// INT8 (quantized models): X INT8 in, INT8 out, each with per-tensor
// quantization: nearest copies codes (requantizing when the output's
// parameters differ), linear interpolates the real values and quantizes
// (runtime/kernels/ref/resize.h). Upsample is imported as Resize.
#include "runtime/kernels/ref/resize.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <string>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/portable/resize_nearest_rows.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

enum class CoordMode { kHalfPixel, kHalfPixelSymmetric, kAsymmetric, kPytorchHalfPixel, kAlignCorners, kTfHalfPixel };
// kSimple is opset 10's rule (onnxruntime): truncate when upsampling, ceil when downsampling.
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };

struct ResizePlan {
  bool linear = false;
  CoordMode coord = CoordMode::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  Shape out_shape;
  std::vector<float> scales;  // per dim, output / input
};

struct ResizeState : OpState {
  bool linear = false;
  std::vector<int64_t> out_shape;
  std::vector<int64_t> in_strides;
  std::vector<std::vector<int64_t>> index0, index1;
  std::vector<std::vector<float>> weight1;
  std::vector<const int64_t*> index0_ptrs, index1_ptrs;
  std::vector<const float*> weight1_ptrs;
  ResizeParams params;
  S8ResizeParams s8;  // INT8 only
  // Nearest on int8 or float: the row kernel (runtime/kernels/portable), int8 through this table
  // (empty when the input and output parameters are the same).
  bool by_rows = false;
  std::vector<int8_t> requantize;
  // The row kernel on rank-4 tensors in either layout: nearest[x channels-last][y channels-last] walks
  // the output in its own order (N, H, W, C when channels-last) and reads the input with its layout's strides.
  struct LayoutWalk {
    int64_t out_shape[4];
    int64_t in_strides[4];
    const int64_t* index0[4];
    ResizeParams params;
  };
  LayoutWalk nearest[2][2];
};

// Fills state->nearest from the NCHW tables (index0 per logical dim).
void PrepareLayoutWalks(const Shape& in_shape, ResizeState* state) {
  const int64_t c = in_shape[1], h = in_shape[2], w = in_shape[3];
  const int64_t nchw_strides[4] = {c * h * w, h * w, w, 1};
  const int64_t nhwc_strides[4] = {h * w * c, 1, w * c, c};  // per logical dim (N, C, H, W)
  for (int x_last = 0; x_last < 2; ++x_last) {
    for (int y_last = 0; y_last < 2; ++y_last) {
      ResizeState::LayoutWalk& walk = state->nearest[x_last][y_last];
      const int order[4] = {0, y_last ? 2 : 1, y_last ? 3 : 2, y_last ? 1 : 3};  // output dim k is logical dim order[k]
      for (int k = 0; k < 4; ++k) {
        walk.out_shape[k] = state->out_shape[order[k]];
        walk.in_strides[k] = (x_last ? nhwc_strides : nchw_strides)[order[k]];
        walk.index0[k] = state->index0[order[k]].data();
      }
      walk.params = state->params;
      walk.params.out_shape = walk.out_shape;
      walk.params.in_strides = walk.in_strides;
      walk.params.index0 = walk.index0;
    }
  }
}

// A 0-element tensor stands for an omitted input.
const Tensor* PresentInput(const std::vector<const Tensor*>& inputs, size_t i) {
  if (i >= inputs.size() || inputs[i] == nullptr) return nullptr;
  return inputs[i]->num_elements() == 0 ? nullptr : inputs[i];
}

Status ParseModes(const Attributes& attrs, bool opset10, ResizePlan* plan) {
  std::string mode;
  NPURT_RETURN_IF_ERROR(attrs.GetString("mode", "nearest", &mode));
  if (mode == "linear") {
    plan->linear = true;
  } else if (mode != "nearest") {
    return NPURT_ERROR(kModelInvalid, "Resize: mode '%s' is not supported", mode.c_str());
  }

  // Opset 10 had no such attributes: asymmetric coordinates and the simple rounding.
  std::string coord;
  NPURT_RETURN_IF_ERROR(
      attrs.GetString("coordinate_transformation_mode", opset10 ? "asymmetric" : "half_pixel", &coord));
  if (coord == "half_pixel") {
    plan->coord = CoordMode::kHalfPixel;
  } else if (coord == "half_pixel_symmetric") {
    plan->coord = CoordMode::kHalfPixelSymmetric;
  } else if (coord == "asymmetric") {
    plan->coord = CoordMode::kAsymmetric;
  } else if (coord == "pytorch_half_pixel") {
    plan->coord = CoordMode::kPytorchHalfPixel;
  } else if (coord == "align_corners") {
    plan->coord = CoordMode::kAlignCorners;
  } else if (coord == "tf_half_pixel_for_nearest") {
    plan->coord = CoordMode::kTfHalfPixel;
  } else {
    return NPURT_ERROR(kModelInvalid, "Resize: coordinate_transformation_mode '%s' is not supported", coord.c_str());
  }

  std::string nearest;
  NPURT_RETURN_IF_ERROR(attrs.GetString("nearest_mode", opset10 ? "" : "round_prefer_floor", &nearest));
  if (nearest == "round_prefer_floor") {
    plan->nearest = NearestMode::kRoundPreferFloor;
  } else if (nearest == "round_prefer_ceil") {
    plan->nearest = NearestMode::kRoundPreferCeil;
  } else if (nearest == "floor") {
    plan->nearest = NearestMode::kFloor;
  } else if (nearest == "ceil") {
    plan->nearest = NearestMode::kCeil;
  } else if (nearest.empty() && opset10) {
    plan->nearest = NearestMode::kSimple;
  } else {
    return NPURT_ERROR(kModelInvalid, "Resize: nearest_mode '%s' is not supported", nearest.c_str());
  }

  int64_t antialias = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("antialias", 0, &antialias));
  NPURT_CHECK_OR_RETURN(antialias == 0, kModelInvalid, "Resize: antialias is not supported");
  std::string policy;
  NPURT_RETURN_IF_ERROR(attrs.GetString("keep_aspect_ratio_policy", "stretch", &policy));
  NPURT_CHECK_OR_RETURN(policy == "stretch", kModelInvalid, "Resize: keep_aspect_ratio_policy '%s' is not supported",
                        policy.c_str());
  return Status::Ok();
}

Status MakeResizePlan(const Attributes& attrs, const std::vector<const Tensor*>& inputs, ResizePlan* plan) {
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Resize: input 0 is missing");
  if (!IsQuantizedActivationType(x->dtype)) NPURT_RETURN_IF_ERROR(ExpectInputType("Resize", x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "Resize: bad input shape %s",
                        ShapeToString(x->shape).c_str());
  const int rank = x->rank();
  NPURT_CHECK_OR_RETURN(rank >= 1 && rank <= kResizeMaxRank, kModelInvalid, "Resize: rank %d is not in [1, %d]", rank,
                        kResizeMaxRank);
  const bool opset10 = inputs.size() == 2;
  NPURT_RETURN_IF_ERROR(ParseModes(attrs, opset10, plan));

  const Tensor* scales = PresentInput(inputs, opset10 ? 1 : 2);
  const Tensor* sizes = opset10 ? nullptr : PresentInput(inputs, 3);
  NPURT_CHECK_OR_RETURN((scales != nullptr) != (sizes != nullptr), kModelInvalid,
                        "Resize: exactly one of 'scales' and 'sizes' must be given");

  // Opset 18 may list the axes that scales/sizes refer to; the others keep their size.
  std::vector<int> axes;
  if (attrs.Has("axes")) {
    std::vector<int64_t> raw;
    NPURT_RETURN_IF_ERROR(attrs.GetInts("axes", {}, &raw));
    std::vector<bool> seen(rank, false);
    for (int64_t a : raw) {
      int axis = 0;
      NPURT_RETURN_IF_ERROR(NormalizeAxis("Resize", a, rank, &axis));
      NPURT_CHECK_OR_RETURN(!seen[axis], kModelInvalid, "Resize: axis %d is repeated", axis);
      seen[axis] = true;
      axes.push_back(axis);
    }
  } else {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  }

  plan->out_shape = x->shape;
  plan->scales.assign(rank, 1.0f);
  if (scales != nullptr) {
    NPURT_CHECK_OR_RETURN(scales->dtype == DataType::kFloat32 && scales->data != nullptr, kModelInvalid,
                          "Resize: 'scales' must be a constant float32 tensor");
    NPURT_CHECK_OR_RETURN(scales->num_elements() == static_cast<int64_t>(axes.size()), kModelInvalid,
                          "Resize: %" PRId64 " scales for %zu axes", scales->num_elements(), axes.size());
    const float* s = scales->as<float>();
    for (size_t i = 0; i < axes.size(); ++i) {
      const int d = axes[i];
      NPURT_CHECK_OR_RETURN(std::isfinite(s[i]) && s[i] > 0.0f, kModelInvalid, "Resize: scale %g must be positive",
                            static_cast<double>(s[i]));
      const double out = std::floor(static_cast<double>(x->shape[d]) * static_cast<double>(s[i]));
      NPURT_CHECK_OR_RETURN(out < 9.0e15, kModelInvalid, "Resize: output dim %d is too large", d);
      plan->out_shape[d] = static_cast<int64_t>(out);
      plan->scales[d] = s[i];
    }
  } else {
    NPURT_CHECK_OR_RETURN(sizes->data != nullptr, kModelInvalid, "Resize: 'sizes' must be constant");
    std::vector<int64_t> values;
    NPURT_RETURN_IF_ERROR(ReadIntValues("Resize", sizes, &values));
    NPURT_CHECK_OR_RETURN(values.size() == axes.size(), kModelInvalid, "Resize: %zu sizes for %zu axes", values.size(),
                          axes.size());
    for (size_t i = 0; i < axes.size(); ++i) {
      const int d = axes[i];
      const int64_t in = x->shape[d];
      NPURT_CHECK_OR_RETURN(values[i] >= 0, kModelInvalid, "Resize: negative size %" PRId64, values[i]);
      plan->out_shape[d] = values[i];
      plan->scales[d] = in == 0 ? 1.0f : static_cast<float>(values[i]) / static_cast<float>(in);
    }
  }
  for (int d = 0; d < rank; ++d) {
    NPURT_CHECK_OR_RETURN(x->shape[d] > 0 || plan->out_shape[d] == 0, kModelInvalid,
                          "Resize: cannot resize empty dim %d to %" PRId64, d, plan->out_shape[d]);
    NPURT_CHECK_OR_RETURN(plan->scales[d] > 0.0f, kModelInvalid, "Resize: scale of dim %d is not positive", d);
  }
  NPURT_CHECK_OR_RETURN(NumElements(plan->out_shape) >= 0 && NumElements(plan->out_shape) <= INT64_MAX / 4,
                        kModelInvalid, "Resize: output shape %s is too large", ShapeToString(plan->out_shape).c_str());
  return Status::Ok();
}

Status ResizeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  ResizePlan plan;
  NPURT_RETURN_IF_ERROR(MakeResizePlan(attrs, inputs, &plan));
  (*outputs)[0].shape = plan.out_shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

// Input coordinate of output index `o` (ONNX coordinate_transformation_mode).
float OriginalCoordinate(CoordMode mode, float o, float scale, float out_len, float in_len) {
  switch (mode) {
    case CoordMode::kHalfPixel: return (o + 0.5f) / scale - 0.5f;
    case CoordMode::kHalfPixelSymmetric: {
      const float adjustment = out_len / (scale * in_len);
      const float offset = in_len / 2 * (1.0f - adjustment);
      return offset + (o + 0.5f) / scale - 0.5f;
    }
    case CoordMode::kAsymmetric: return o / scale;
    case CoordMode::kPytorchHalfPixel: return out_len > 1 ? (o + 0.5f) / scale - 0.5f : 0.0f;
    case CoordMode::kAlignCorners: return out_len == 1 ? 0.0f : o * (in_len - 1) / (out_len - 1);
    case CoordMode::kTfHalfPixel: return (o + 0.5f) / scale;
  }
  return 0.0f;
}

int64_t NearestIndex(NearestMode mode, float x, bool downsampling) {
  switch (mode) {
    case NearestMode::kRoundPreferFloor:
      return static_cast<int64_t>(x - std::floor(x) == 0.5f ? std::floor(x) : std::round(x));
    case NearestMode::kRoundPreferCeil: return static_cast<int64_t>(std::round(x));  // ties away from zero
    case NearestMode::kFloor: return static_cast<int64_t>(std::floor(x));
    case NearestMode::kCeil: return static_cast<int64_t>(std::ceil(x));
    case NearestMode::kSimple: return static_cast<int64_t>(downsampling ? std::ceil(x) : x);
  }
  return 0;
}

Status ResizePrepare(OpNode* node) {
  const Tensor* x = node->inputs[0];
  std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  ResizePlan plan;
  NPURT_RETURN_IF_ERROR(MakeResizePlan(node->attrs, inputs, &plan));
  const int rank = x->rank();

  auto state = std::make_unique<ResizeState>();
  state->linear = plan.linear;
  state->out_shape = plan.out_shape;
  state->in_strides.assign(rank, 1);
  for (int d = rank - 2; d >= 0; --d) state->in_strides[d] = state->in_strides[d + 1] * x->shape[d + 1];
  state->index0.resize(rank);
  state->index1.resize(rank);
  state->weight1.resize(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t in_len = x->shape[d];
    const int64_t out_len = plan.out_shape[d];
    const float scale = plan.scales[d];
    state->index0[d].resize(static_cast<size_t>(out_len));
    state->index1[d].resize(static_cast<size_t>(out_len));
    state->weight1[d].resize(static_cast<size_t>(out_len));
    for (int64_t o = 0; o < out_len; ++o) {
      float orig = OriginalCoordinate(plan.coord, static_cast<float>(o), scale, static_cast<float>(out_len),
                                      static_cast<float>(in_len));
      if (std::isnan(orig)) orig = 0.0f;  // inf - inf from absurd scales; any in-range index will do
      if (!plan.linear) {
        // Clamp in float first so huge coordinates cannot overflow the integer cast.
        const float bounded = std::clamp(orig, -1.0f, static_cast<float>(in_len));
        const int64_t i = NearestIndex(plan.nearest, bounded, scale < 1.0f);
        state->index0[d][o] = std::clamp<int64_t>(i, 0, in_len - 1);
        continue;
      }
      // Outside the input the edge value repeats (onnxruntime clamps the coordinate).
      const float c = std::clamp(orig, 0.0f, static_cast<float>(in_len - 1));
      const int64_t i0 = std::min<int64_t>(static_cast<int64_t>(c), in_len - 1);
      state->index0[d][o] = i0;
      state->index1[d][o] = std::min<int64_t>(i0 + 1, in_len - 1);
      state->weight1[d][o] = c - static_cast<float>(i0);
    }
    state->index0_ptrs.push_back(state->index0[d].data());
    state->index1_ptrs.push_back(state->index1[d].data());
    state->weight1_ptrs.push_back(state->weight1[d].data());
  }
  state->params.rank = rank;
  state->params.out_shape = state->out_shape.data();
  state->params.in_strides = state->in_strides.data();
  state->params.index0 = state->index0_ptrs.data();
  state->params.index1 = state->index1_ptrs.data();
  state->params.weight1 = state->weight1_ptrs.data();
  if (IsQuantizedActivationType(x->dtype)) {
    const Tensor& y = *node->outputs[0];
    NPURT_CHECK_OR_RETURN(y.dtype == x->dtype, kModelInvalid, "Resize: output '%s' is %s, expected %s",
                          y.name.c_str(), DataTypeName(y.dtype), DataTypeName(x->dtype));
    ActivationQuant in, out;
    NPURT_RETURN_IF_ERROR(GetActivationQuant("Resize", *x, "input", &in));
    NPURT_RETURN_IF_ERROR(GetActivationQuant("Resize", y, "output", &out));
    state->s8.resize = state->params;
    state->s8.in_scale = in.scale;
    state->s8.in_zero_point = in.zero_point;
    state->s8.out_scale = out.scale;
    state->s8.out_zero_point = out.zero_point;
  }
  const DataType type = node->outputs[0]->dtype;
  const S8ResizeParams& q = state->s8;
  const bool same_codes = q.in_scale == q.out_scale && q.in_zero_point == q.out_zero_point;
  state->by_rows = !state->linear && ActiveCpuTarget() != CpuTarget::kRef &&
                   (type == DataType::kFloat32 || type == DataType::kInt8 || (type == DataType::kInt16 && same_codes));
  if (state->by_rows) {
    node->kernel = type == DataType::kInt8    ? "s8_resize_nearest__rows"
                   : type == DataType::kInt16 ? "s16_resize_nearest__rows"
                                              : "f32_resize_nearest__rows";
    if (type == DataType::kInt8 && (q.in_scale != q.out_scale || q.in_zero_point != q.out_zero_point)) {
      state->requantize.resize(256);
      BuildResizeRequantizeTable(q, state->requantize.data());
    }
    if (rank == 4) {
      PrepareLayoutWalks(x->shape, state.get());
      node->channels_last_io = true;
    }
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status ResizeEval(OpNode* node) {
  const ResizeState* state = node->state_as<ResizeState>();
  if (state->by_rows) {
    const Tensor* x = node->inputs[0];
    const Tensor* y = node->outputs[0];
    const ResizeParams& params =
        node->channels_last_io ? state->nearest[x->channels_last][y->channels_last].params : state->params;
    const int64_t rows = ResizeOutputRows(params);
    const int8_t* table = state->requantize.empty() ? nullptr : state->requantize.data();
    ParallelFor(rows, ThreadsFor(*node, y->num_elements() * 4), [&](int64_t begin, int64_t end) {
      if (y->dtype == DataType::kInt8) {
        s8_resize_nearest__rows(params, table, x->as<int8_t>(), y->as<int8_t>(), WorkRange{begin, end});
      } else if (y->dtype == DataType::kInt16) {
        s16_resize_nearest__rows(params, x->as<int16_t>(), y->as<int16_t>(), WorkRange{begin, end});
      } else {
        f32_resize_nearest__rows(params, x->as<float>(), y->as<float>(), WorkRange{begin, end});
      }
    });
    return Status::Ok();
  }
  if (IsQuantizedActivationType(node->outputs[0]->dtype)) {
    quantized_resize__ref(state->s8, state->linear, node->outputs[0]->dtype, node->inputs[0]->data,
                          node->outputs[0]->data);
    return Status::Ok();
  }
  const float* in = node->inputs[0]->as<float>();
  float* out = node->outputs[0]->as<float>();
  if (state->linear) {
    f32_resize_linear__ref(state->params, in, out);
  } else {
    f32_resize_nearest__ref(state->params, in, out);
  }
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpResize = {"Resize", 1, 4, 1, 1, ResizeInfer, ResizePrepare, ResizeEval};

}  // namespace npurt
