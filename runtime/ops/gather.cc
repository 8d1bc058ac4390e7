// Gather: picks slices of `data` along `axis` (default 0) at `indices` (int32
// or int64, constant or computed). Output shape is data.shape[:axis] +
// indices.shape + data.shape[axis+1:]. ONNX leaves out-of-range indices
// undefined; constant ones are rejected at infer, computed ones fail eval.
// Byte copies serve every type; a quantized (INT8) output carries the data's parameters.
//
// GatherElements: output[p] = data[p with coordinate `axis` replaced by indices[p]]; indices (int32
// or int64) have the data's rank and give the output's shape, each dim at most the data's except
// along the axis.
#include "runtime/kernels/ref/gather.h"

#include <cinttypes>
#include <cstdint>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct GatherState : OpState {
  GatherParams params;
};

Status GatherAxis(const Attributes& attrs, const Tensor* data, int* axis) {
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &axis_attr));
  return NormalizeAxis("Gather", axis_attr, data->rank(), axis);
}

Status GatherInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const Tensor* data = inputs.size() > 0 ? inputs[0] : nullptr;
  const Tensor* indices = inputs.size() > 1 ? inputs[1] : nullptr;
  NPURT_CHECK_OR_RETURN(data != nullptr && indices != nullptr, kModelInvalid, "Gather: needs data and indices");
  NPURT_CHECK_OR_RETURN(DataTypeSize(data->dtype) != 0, kModelInvalid, "Gather: unknown element type");
  NPURT_CHECK_OR_RETURN(indices->dtype == DataType::kInt32 || indices->dtype == DataType::kInt64, kModelInvalid,
                        "Gather: indices have type %s, expected int32 or int64", DataTypeName(indices->dtype));
  NPURT_CHECK_OR_RETURN(data->num_elements() >= 0 && indices->num_elements() >= 0, kModelInvalid,
                        "Gather: bad input shapes %s, %s", ShapeToString(data->shape).c_str(),
                        ShapeToString(indices->shape).c_str());
  NPURT_CHECK_OR_RETURN(data->rank() >= 1, kModelInvalid, "Gather: data must have rank >= 1");
  int axis = 0;
  NPURT_RETURN_IF_ERROR(GatherAxis(attrs, data, &axis));
  const int64_t dim = data->shape[axis];

  if (indices->data != nullptr) {
    std::vector<int64_t> values;
    NPURT_RETURN_IF_ERROR(ReadIntValues("Gather", indices, &values));
    for (int64_t v : values) {
      NPURT_CHECK_OR_RETURN(v >= -dim && v < dim, kModelInvalid,
                            "Gather: index %" PRId64 " out of range for dim %" PRId64, v, dim);
    }
  }

  Shape out(data->shape.begin(), data->shape.begin() + axis);
  out.insert(out.end(), indices->shape.begin(), indices->shape.end());
  out.insert(out.end(), data->shape.begin() + axis + 1, data->shape.end());
  NPURT_CHECK_OR_RETURN(
      NumElements(out) >= 0 && NumElements(out) <= INT64_MAX / static_cast<int64_t>(DataTypeSize(data->dtype)),
      kModelInvalid, "Gather: output shape %s is too large", ShapeToString(out).c_str());
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = data->dtype;
  return Status::Ok();
}

Status GatherPrepare(OpNode* node) {
  const Tensor* data = node->inputs[0];
  const Tensor* indices = node->inputs[1];
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Gather", *data, *node->outputs[0]));
  int axis = 0;
  NPURT_RETURN_IF_ERROR(GatherAxis(node->attrs, data, &axis));
  auto state = std::make_unique<GatherState>();
  GatherParams& p = state->params;
  p.outer = 1;
  for (int d = 0; d < axis; ++d) p.outer *= static_cast<size_t>(data->shape[d]);
  p.axis_dim = data->shape[axis];
  p.inner_bytes = DataTypeSize(data->dtype);
  for (int d = axis + 1; d < data->rank(); ++d) p.inner_bytes *= static_cast<size_t>(data->shape[d]);
  p.num_indices = static_cast<size_t>(indices->num_elements());
  p.indices_int64 = indices->dtype == DataType::kInt64;
  node->state = std::move(state);
  return Status::Ok();
}

Status GatherEval(OpNode* node) {
  const GatherParams& p = node->state_as<GatherState>()->params;
  if (!gather__ref(p, node->inputs[0]->data, node->inputs[1]->data, node->outputs[0]->data)) {
    return NPURT_ERROR(kFail, "Gather: index out of range for dim %" PRId64, p.axis_dim);
  }
  return Status::Ok();
}

struct GatherElementsState : OpState {
  GatherElementsParams params;
};

Status GatherElementsInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                           std::vector<Tensor>* outputs) {
  const Tensor* data = inputs.size() > 0 ? inputs[0] : nullptr;
  const Tensor* indices = inputs.size() > 1 ? inputs[1] : nullptr;
  NPURT_CHECK_OR_RETURN(data != nullptr && indices != nullptr, kModelInvalid, "GatherElements: needs data and indices");
  NPURT_CHECK_OR_RETURN(DataTypeSize(data->dtype) != 0, kModelInvalid, "GatherElements: unknown element type");
  NPURT_CHECK_OR_RETURN(indices->dtype == DataType::kInt32 || indices->dtype == DataType::kInt64, kModelInvalid,
                        "GatherElements: indices have type %s, expected int32 or int64", DataTypeName(indices->dtype));
  NPURT_CHECK_OR_RETURN(data->rank() >= 1 && data->rank() <= kMaxGatherElementsRank, kModelInvalid,
                        "GatherElements: data rank %d is not in 1..%d", data->rank(), kMaxGatherElementsRank);
  NPURT_CHECK_OR_RETURN(indices->rank() == data->rank(), kModelInvalid,
                        "GatherElements: indices have rank %d, data %d", indices->rank(), data->rank());
  NPURT_CHECK_OR_RETURN(data->num_elements() >= 0 && indices->num_elements() >= 0, kModelInvalid,
                        "GatherElements: bad input shapes");
  int axis = 0;
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &axis_attr));
  NPURT_RETURN_IF_ERROR(NormalizeAxis("GatherElements", axis_attr, data->rank(), &axis));
  for (int d = 0; d < data->rank(); ++d) {
    NPURT_CHECK_OR_RETURN(d == axis || indices->shape[d] <= data->shape[d], kModelInvalid,
                          "GatherElements: indices %s exceed data %s along dim %d",
                          ShapeToString(indices->shape).c_str(), ShapeToString(data->shape).c_str(), d);
  }
  if (indices->data != nullptr && indices->num_elements() > 0) {
    std::vector<int64_t> values;
    NPURT_RETURN_IF_ERROR(ReadIntValues("GatherElements", indices, &values));
    const int64_t dim = data->shape[axis];
    for (int64_t v : values) {
      NPURT_CHECK_OR_RETURN(v >= -dim && v < dim, kModelInvalid,
                            "GatherElements: index %" PRId64 " out of range for dim %" PRId64, v, dim);
    }
  }
  (*outputs)[0].shape = indices->shape;
  (*outputs)[0].dtype = data->dtype;
  return Status::Ok();
}

Status GatherElementsPrepare(OpNode* node) {
  const Tensor& data = *node->inputs[0];
  const Tensor& indices = *node->inputs[1];
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("GatherElements", data, *node->outputs[0]));
  auto state = std::make_unique<GatherElementsState>();
  GatherElementsParams& p = state->params;
  int64_t axis_attr = 0;
  NPURT_RETURN_IF_ERROR(node->attrs.GetInt("axis", 0, &axis_attr));
  NPURT_RETURN_IF_ERROR(NormalizeAxis("GatherElements", axis_attr, data.rank(), &p.axis));
  p.rank = data.rank();
  p.element_size = DataTypeSize(data.dtype);
  for (int d = 0; d < p.rank; ++d) {
    p.data_shape[d] = data.shape[d];
    p.index_shape[d] = indices.shape[d];
  }
  p.indices_int64 = indices.dtype == DataType::kInt64;
  node->state = std::move(state);
  return Status::Ok();
}

Status GatherElementsEval(OpNode* node) {
  const GatherElementsParams& p = node->state_as<GatherElementsState>()->params;
  if (!gather_elements__ref(p, node->inputs[0]->data, node->inputs[1]->data, node->outputs[0]->data)) {
    return NPURT_ERROR(kFail, "GatherElements: index out of range for dim %" PRId64, p.data_shape[p.axis]);
  }
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpGather = {"Gather", 2, 2, 1, 1, GatherInfer, GatherPrepare, GatherEval, /*view=*/false, /*keeps_half_values=*/true};
extern const OpDef kOpGatherElements = {"GatherElements", 2, 2, 1, 1, GatherElementsInfer, GatherElementsPrepare,
                                        GatherElementsEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
