// RoiAlign (opsets 10 and 16: coordinate_transformation_mode, mode avg / max), MaxRoiPool and
// MaxUnpool (kernel_shape, strides, pads, the optional output_shape input) on float NCHW tensors;
// see runtime/kernels/ref/roi_pool.h. Boxes and indices are run-time data: a batch index or an
// unpool index out of range fails the run with a message, never reads outside the tensors.
#include <cinttypes>
#include <string>

#include "runtime/kernels/ref/roi_pool.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

// X: a float [N, C, H, W] map.
Status CheckFeatureMap(const char* op, const Tensor& x) {
  NPURT_RETURN_IF_ERROR(ExpectInputType(op, &x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x.rank() == 4, kModelInvalid, "%s: input must be [N, C, H, W], got %s", op,
                        ShapeToString(x.shape).c_str());
  for (int64_t d : x.shape) {
    NPURT_CHECK_OR_RETURN(d > 0 && d <= kMaxExtent, kModelInvalid, "%s: bad input shape %s", op,
                          ShapeToString(x.shape).c_str());
  }
  return Status::Ok();
}

Status ReadPositive(const char* op, const Attributes& attrs, const char* name, int64_t* out) {
  NPURT_RETURN_IF_ERROR(attrs.GetInt(name, 1, out));
  NPURT_CHECK_OR_RETURN(*out >= 1 && *out <= kMaxExtent, kModelInvalid, "%s: %s is %" PRId64 ", expected >= 1", op,
                        name, *out);
  return Status::Ok();
}

// ---- RoiAlign(X, rois [R, 4], batch_indices [R]) -> [R, C, output_height, output_width] ----

struct RoiAlignState : OpState {
  RoiAlignParams params;
};

Status ReadRoiAlign(const Attributes& attrs, const std::vector<const Tensor*>& inputs, RoiAlignParams* p) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("RoiAlign", inputs, 3));
  const Tensor& x = *inputs[0];
  const Tensor& rois = *inputs[1];
  const Tensor& batch = *inputs[2];
  NPURT_RETURN_IF_ERROR(CheckFeatureMap("RoiAlign", x));
  NPURT_CHECK_OR_RETURN(rois.dtype == DataType::kFloat32 && rois.rank() == 2 && rois.shape[1] == 4, kModelInvalid,
                        "RoiAlign: rois must be FP32 [num_rois, 4], got %s %s", DataTypeName(rois.dtype),
                        ShapeToString(rois.shape).c_str());
  NPURT_CHECK_OR_RETURN(batch.dtype == DataType::kInt64 && batch.rank() == 1 && batch.shape[0] == rois.shape[0],
                        kModelInvalid, "RoiAlign: batch_indices must be INT64 [%" PRId64 "], got %s %s",
                        rois.shape[0], DataTypeName(batch.dtype), ShapeToString(batch.shape).c_str());
  std::string mode, transform;
  NPURT_RETURN_IF_ERROR(attrs.GetString("mode", "avg", &mode));
  NPURT_CHECK_OR_RETURN(mode == "avg" || mode == "max", kModelInvalid,
                        "RoiAlign: mode '%s', expected 'avg' or 'max'", mode.c_str());
  // The converter writes the opset's default (output_half_pixel before opset 16).
  NPURT_RETURN_IF_ERROR(attrs.GetString("coordinate_transformation_mode", "half_pixel", &transform));
  NPURT_CHECK_OR_RETURN(transform == "half_pixel" || transform == "output_half_pixel", kModelInvalid,
                        "RoiAlign: coordinate_transformation_mode '%s', expected 'half_pixel' or 'output_half_pixel'",
                        transform.c_str());
  NPURT_RETURN_IF_ERROR(ReadPositive("RoiAlign", attrs, "output_height", &p->out_h));
  NPURT_RETURN_IF_ERROR(ReadPositive("RoiAlign", attrs, "output_width", &p->out_w));
  NPURT_RETURN_IF_ERROR(attrs.GetInt("sampling_ratio", 0, &p->sampling_ratio));
  NPURT_CHECK_OR_RETURN(p->sampling_ratio >= 0 && p->sampling_ratio <= 1024, kModelInvalid,
                        "RoiAlign: sampling_ratio is %" PRId64 ", expected 0 (adaptive) to 1024", p->sampling_ratio);
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("spatial_scale", 1.0f, &p->spatial_scale));
  p->batch = x.shape[0], p->channels = x.shape[1], p->height = x.shape[2], p->width = x.shape[3];
  p->num_rois = rois.shape[0];
  p->half_pixel = transform == "half_pixel";
  p->max_mode = mode == "max";
  return Status::Ok();
}

Status RoiAlignInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>* outputs) {
  RoiAlignParams p;
  NPURT_RETURN_IF_ERROR(ReadRoiAlign(attrs, inputs, &p));
  (*outputs)[0].shape = {p.num_rois, p.channels, p.out_h, p.out_w};
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status RoiAlignPrepare(OpNode* node) {
  auto state = std::make_unique<RoiAlignState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadRoiAlign(node->attrs, inputs, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status RoiAlignEval(OpNode* node) {
  const RoiAlignParams& p = node->state_as<RoiAlignState>()->params;
  if (!f32_roi_align__ref(p, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                          node->inputs[2]->as<int64_t>(), node->outputs[0]->as<float>())) {
    return NPURT_ERROR(kFail, "RoiAlign: a batch index is outside [0, %" PRId64 ")", p.batch);
  }
  return Status::Ok();
}

// ---- MaxRoiPool(X, rois [R, 5]) -> [R, C, pooled_shape] ----

struct MaxRoiPoolState : OpState {
  MaxRoiPoolParams params;
};

Status ReadMaxRoiPool(const Attributes& attrs, const std::vector<const Tensor*>& inputs, MaxRoiPoolParams* p) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("MaxRoiPool", inputs, 2));
  const Tensor& x = *inputs[0];
  const Tensor& rois = *inputs[1];
  NPURT_RETURN_IF_ERROR(CheckFeatureMap("MaxRoiPool", x));
  NPURT_CHECK_OR_RETURN(rois.dtype == DataType::kFloat32 && rois.rank() == 2 && rois.shape[1] == 5, kModelInvalid,
                        "MaxRoiPool: rois must be FP32 [num_rois, 5] (batch, x1, y1, x2, y2), got %s %s",
                        DataTypeName(rois.dtype), ShapeToString(rois.shape).c_str());
  std::vector<int64_t> pooled;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("pooled_shape", {}, &pooled));
  NPURT_CHECK_OR_RETURN(pooled.size() == 2 && pooled[0] >= 1 && pooled[1] >= 1 && pooled[0] <= kMaxExtent &&
                            pooled[1] <= kMaxExtent,
                        kModelInvalid, "MaxRoiPool: pooled_shape must be two positive values");
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("spatial_scale", 1.0f, &p->spatial_scale));
  p->batch = x.shape[0], p->channels = x.shape[1], p->height = x.shape[2], p->width = x.shape[3];
  p->num_rois = rois.shape[0];
  p->out_h = pooled[0];
  p->out_w = pooled[1];
  return Status::Ok();
}

Status MaxRoiPoolInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                       std::vector<Tensor>* outputs) {
  MaxRoiPoolParams p;
  NPURT_RETURN_IF_ERROR(ReadMaxRoiPool(attrs, inputs, &p));
  (*outputs)[0].shape = {p.num_rois, p.channels, p.out_h, p.out_w};
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status MaxRoiPoolPrepare(OpNode* node) {
  auto state = std::make_unique<MaxRoiPoolState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadMaxRoiPool(node->attrs, inputs, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status MaxRoiPoolEval(OpNode* node) {
  const MaxRoiPoolParams& p = node->state_as<MaxRoiPoolState>()->params;
  if (!f32_max_roi_pool__ref(p, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                             node->outputs[0]->as<float>())) {
    return NPURT_ERROR(kFail, "MaxRoiPool: a box's batch index is outside [0, %" PRId64 ")", p.batch);
  }
  return Status::Ok();
}

// ---- MaxUnpool(X, I, output_shape?) ----

Status MaxUnpoolInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                      std::vector<Tensor>* outputs) {
  const bool has_output_shape = inputs.size() == 3 && inputs[2] != nullptr;
  NPURT_CHECK_OR_RETURN(inputs.size() >= 2, kModelInvalid, "MaxUnpool: expects inputs (X, I, output_shape?)");
  NPURT_RETURN_IF_ERROR(ExpectInputs("MaxUnpool", {inputs[0], inputs[1]}, 2));
  const Tensor& x = *inputs[0];
  const Tensor& indices = *inputs[1];
  NPURT_RETURN_IF_ERROR(ExpectInputType("MaxUnpool", &x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x.rank() >= 3 && x.rank() <= 5, kModelInvalid, "MaxUnpool: input rank %d, expected 3 to 5",
                        x.rank());
  NPURT_CHECK_OR_RETURN(indices.dtype == DataType::kInt64 && indices.shape == x.shape, kModelInvalid,
                        "MaxUnpool: I must be INT64 of X's shape %s, got %s %s", ShapeToString(x.shape).c_str(),
                        DataTypeName(indices.dtype), ShapeToString(indices.shape).c_str());
  const size_t spatial = static_cast<size_t>(x.rank() - 2);
  std::vector<int64_t> kernel, strides, pads;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("kernel_shape", {}, &kernel));
  NPURT_CHECK_OR_RETURN(kernel.size() == spatial, kModelInvalid, "MaxUnpool: kernel_shape has %zu values, expected %zu",
                        kernel.size(), spatial);
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("MaxUnpool", attrs, "kernel_shape", spatial, 1, 1, &kernel));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("MaxUnpool", attrs, "strides", spatial, 1, 1, &strides));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts("MaxUnpool", attrs, "pads", 2 * spatial, 0, 0, &pads));
  Shape out = {x.shape[0], x.shape[1]};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = x.shape[i + 2];
    NPURT_CHECK_OR_RETURN(in > 0 && in <= kMaxExtent, kModelInvalid, "MaxUnpool: bad input shape %s",
                          ShapeToString(x.shape).c_str());
    const int64_t d = (in - 1) * strides[i] - pads[i] - pads[i + spatial] + kernel[i];
    NPURT_CHECK_OR_RETURN(d > 0, kModelInvalid, "MaxUnpool: output dim %zu would be %" PRId64, i, d);
    out.push_back(d);
  }
  if (has_output_shape) {  // output_shape: the MaxPool input's shape, where the default would be smaller
    const Tensor& shape = *inputs[2];
    NPURT_CHECK_OR_RETURN(shape.data != nullptr, kModelInvalid,
                          "MaxUnpool: output_shape must be constant (it decides the shape)");
    std::vector<int64_t> given;
    NPURT_RETURN_IF_ERROR(ReadIntValues("MaxUnpool", &shape, &given));
    NPURT_CHECK_OR_RETURN(given.size() == out.size(), kModelInvalid,
                          "MaxUnpool: output_shape has %zu values for a rank-%zu output", given.size(), out.size());
    for (size_t d = 0; d < given.size(); ++d) {
      NPURT_CHECK_OR_RETURN(given[d] > 0 && given[d] <= kMaxExtent && (d >= 2 || given[d] == out[d]), kModelInvalid,
                            "MaxUnpool: output_shape %s does not fit input %s", ShapeToString(given).c_str(),
                            ShapeToString(x.shape).c_str());
    }
    out = given;
  }
  (*outputs)[0].shape = out;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status MaxUnpoolEval(OpNode* node) {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  if (!f32_max_unpool__ref(x.num_elements(), y.num_elements(), x.as<float>(), node->inputs[1]->as<int64_t>(),
                           y.as<float>())) {
    return NPURT_ERROR(kFail, "MaxUnpool: an index of I is outside the output's %" PRId64 " elements",
                       y.num_elements());
  }
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpRoiAlign = {"RoiAlign", 3, 3, 1, 1, RoiAlignInfer, RoiAlignPrepare, RoiAlignEval};
extern const OpDef kOpMaxRoiPool = {"MaxRoiPool", 2, 2, 1, 1, MaxRoiPoolInfer, MaxRoiPoolPrepare, MaxRoiPoolEval};
extern const OpDef kOpMaxUnpool = {"MaxUnpool", 2, 3, 1, 1, MaxUnpoolInfer, nullptr, MaxUnpoolEval};

}  // namespace npurt
