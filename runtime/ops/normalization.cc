// BatchNormalization (inference mode only: 5 inputs, output Y only) and
// LayerNormalization (output Y only; Mean and InvStdDev are training outputs).
#include <cmath>

#include "runtime/kernels/ref/broadcast.h"
#include "runtime/kernels/ref/normalization.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct BatchNormState : OpState {
  BatchNormParams params;
};

struct LayerNormState : OpState {
  LayerNormParams params;
};

Status ReadEpsilon(const char* op, const Attributes& attrs, float* epsilon) {
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("epsilon", 1e-5f, epsilon));
  NPURT_CHECK_OR_RETURN(std::isfinite(*epsilon) && *epsilon >= 0.0f, kModelInvalid, "%s: bad epsilon %g", op,
                        static_cast<double>(*epsilon));
  return Status::Ok();
}

Status CheckFloatInput(const char* op, const Tensor* t, int index) {
  NPURT_RETURN_IF_ERROR(ExpectInputType(op, t, DataType::kFloat32, index));
  NPURT_CHECK_OR_RETURN(t->num_elements() >= 0, kModelInvalid, "%s: input %d has bad shape %s", op, index,
                        ShapeToString(t->shape).c_str());
  return Status::Ok();
}

Status BatchNormInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                      std::vector<Tensor>* outputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 5, kModelInvalid, "BatchNormalization: expects 5 inputs, got %zu",
                        inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid,
                        "BatchNormalization: only inference mode (1 output) is supported, got %zu outputs",
                        outputs->size());
  int64_t training_mode = 0, spatial = 1;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("training_mode", 0, &training_mode));
  NPURT_CHECK_OR_RETURN(training_mode == 0, kModelInvalid, "BatchNormalization: training_mode is not supported");
  NPURT_RETURN_IF_ERROR(attrs.GetInt("spatial", 1, &spatial));  // opset < 9
  NPURT_CHECK_OR_RETURN(spatial == 1, kModelInvalid, "BatchNormalization: spatial=0 is not supported");
  float epsilon = 0.0f;
  NPURT_RETURN_IF_ERROR(ReadEpsilon("BatchNormalization", attrs, &epsilon));

  for (int i = 0; i < 5; ++i) NPURT_RETURN_IF_ERROR(CheckFloatInput("BatchNormalization", inputs[i], i));
  const Tensor* x = inputs[0];
  NPURT_CHECK_OR_RETURN(x->rank() >= 2, kModelInvalid, "BatchNormalization: X must have rank >= 2, got %s",
                        ShapeToString(x->shape).c_str());
  const int64_t channels = x->shape[1];
  static const char* const kNames[] = {"X", "scale", "B", "mean", "var"};
  for (int i = 1; i < 5; ++i) {
    NPURT_CHECK_OR_RETURN(inputs[i]->shape == Shape{channels}, kModelInvalid,
                          "BatchNormalization: %s has shape %s, expected [%lld]", kNames[i],
                          ShapeToString(inputs[i]->shape).c_str(), static_cast<long long>(channels));
  }
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status BatchNormPrepare(OpNode* node) {
  auto state = std::make_unique<BatchNormState>();
  BatchNormParams& p = state->params;
  const Shape& shape = node->inputs[0]->shape;
  p.batch = shape[0];
  p.channels = shape[1];
  p.spatial = 1;
  for (size_t d = 2; d < shape.size(); ++d) p.spatial *= shape[d];
  NPURT_RETURN_IF_ERROR(ReadEpsilon("BatchNormalization", node->attrs, &p.epsilon));
  node->state = std::move(state);
  return Status::Ok();
}

Status BatchNormEval(OpNode* node) {
  const auto& in = node->inputs;
  f32_batch_norm__ref(node->state_as<BatchNormState>()->params, in[0]->as<float>(), in[1]->as<float>(),
                      in[2]->as<float>(), in[3]->as<float>(), in[4]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

// Scale and B must cover the normalized dims X[axis:] exactly (extra leading
// 1s allowed) or be a single value; other partial broadcasts are not supported.
Status CheckLayerNormParam(const char* what, const Tensor* t, const Shape& normalized) {
  const int64_t size = NumElements(normalized);
  const int64_t n = t->num_elements();
  size_t lead = 0;
  while (t->shape.size() - lead > normalized.size() && t->shape[lead] == 1) ++lead;
  const Shape trimmed(t->shape.begin() + lead, t->shape.end());
  NPURT_CHECK_OR_RETURN(BroadcastsTo(trimmed, normalized) && (n == size || n == 1), kModelInvalid,
                        "LayerNormalization: %s shape %s does not match normalized shape %s", what,
                        ShapeToString(t->shape).c_str(), ShapeToString(normalized).c_str());
  return Status::Ok();
}

Status LayerNormAxis(const Attributes& attrs, int rank, int* axis) {
  int64_t raw_axis = -1;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", -1, &raw_axis));
  NPURT_CHECK_OR_RETURN(rank >= 1, kModelInvalid, "LayerNormalization: X must have rank >= 1");
  return NormalizeAxis("LayerNormalization", raw_axis, rank, axis);
}

Status LayerNormInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                      std::vector<Tensor>* outputs) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 2 || inputs.size() == 3, kModelInvalid,
                        "LayerNormalization: expects 2 or 3 inputs, got %zu", inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid,
                        "LayerNormalization: only output Y is supported, got %zu outputs", outputs->size());
  NPURT_RETURN_IF_ERROR(CheckFloatInput("LayerNormalization", inputs[0], 0));
  NPURT_RETURN_IF_ERROR(CheckFloatInput("LayerNormalization", inputs[1], 1));
  const Tensor* x = inputs[0];
  int axis = 0;
  NPURT_RETURN_IF_ERROR(LayerNormAxis(attrs, x->rank(), &axis));
  float epsilon = 0.0f;
  NPURT_RETURN_IF_ERROR(ReadEpsilon("LayerNormalization", attrs, &epsilon));
  const Shape normalized(x->shape.begin() + axis, x->shape.end());
  NPURT_RETURN_IF_ERROR(CheckLayerNormParam("Scale", inputs[1], normalized));
  if (inputs.size() == 3 && inputs[2] != nullptr) {
    NPURT_RETURN_IF_ERROR(CheckFloatInput("LayerNormalization", inputs[2], 2));
    NPURT_RETURN_IF_ERROR(CheckLayerNormParam("B", inputs[2], normalized));
  }
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status LayerNormPrepare(OpNode* node) {
  auto state = std::make_unique<LayerNormState>();
  LayerNormParams& p = state->params;
  const Shape& shape = node->inputs[0]->shape;
  int axis = 0;
  NPURT_RETURN_IF_ERROR(LayerNormAxis(node->attrs, static_cast<int>(shape.size()), &axis));
  NPURT_RETURN_IF_ERROR(ReadEpsilon("LayerNormalization", node->attrs, &p.epsilon));
  p.outer = 1;
  p.size = 1;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) (d < axis ? p.outer : p.size) *= shape[d];
  // A single value broadcasts (stride 0) unless it is also the whole row.
  p.scale_stride = node->inputs[1]->num_elements() == p.size ? 1 : 0;
  const Tensor* bias = node->input(2);
  p.bias_stride = bias != nullptr && bias->num_elements() == p.size ? 1 : 0;
  node->state = std::move(state);
  return Status::Ok();
}

Status LayerNormEval(OpNode* node) {
  const Tensor* bias = node->input(2);
  f32_layer_norm__ref(node->state_as<LayerNormState>()->params, node->inputs[0]->as<float>(),
                      node->inputs[1]->as<float>(), bias != nullptr ? bias->as<float>() : nullptr,
                      node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpBatchNormalization = {"BatchNormalization", 5, 5, 1, 1, BatchNormInfer, BatchNormPrepare,
                                            BatchNormEval};
extern const OpDef kOpLayerNormalization = {"LayerNormalization", 2, 3, 1, 1, LayerNormInfer, LayerNormPrepare,
                                            LayerNormEval};

}  // namespace npurt
