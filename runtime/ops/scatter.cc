// ScatterND (indices [..., k] naming slices of data; updates of shape indices.shape[:-1] +
// data.shape[k:]) and ScatterElements (indices and updates of one shape, written along `axis`), with
// attribute `reduction` none (default), add, mul (opset 16) or max, min (opset 18). Reductions take
// float32, int32 and int64 data; plain writes any type.
#include "runtime/kernels/ref/scatter.h"

#include <cinttypes>
#include <string>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct ScatterState : OpState {
  ScatterParams params;
};

Status ReadReduction(const char* op, const Attributes& attrs, DataType type, ScatterReduction* out) {
  std::string r;
  NPURT_RETURN_IF_ERROR(attrs.GetString("reduction", "none", &r));
  if (r == "none") {
    *out = ScatterReduction::kNone;
    return Status::Ok();
  }
  if (r == "add") {
    *out = ScatterReduction::kAdd;
  } else if (r == "mul") {
    *out = ScatterReduction::kMul;
  } else if (r == "max") {
    *out = ScatterReduction::kMax;
  } else if (r == "min") {
    *out = ScatterReduction::kMin;
  } else {
    return NPURT_ERROR(kModelInvalid, "%s: reduction '%s' is not none, add, mul, max or min", op, r.c_str());
  }
  NPURT_CHECK_OR_RETURN(type == DataType::kFloat32 || type == DataType::kInt32 || type == DataType::kInt64,
                        kModelInvalid, "%s: reduction '%s' on %s data (FP32, INT32, INT64 only)", op, r.c_str(),
                        DataTypeName(type));
  return Status::Ok();
}

// Checks the three inputs of either op; `nd` selects ScatterND's shape rules.
Status MakeScatterParams(bool nd, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                         ScatterParams* p) {
  const char* op = nd ? "ScatterND" : "ScatterElements";
  NPURT_CHECK_OR_RETURN(inputs.size() == 3 && inputs[0] != nullptr && inputs[1] != nullptr && inputs[2] != nullptr,
                        kModelInvalid, "%s: expects inputs (data, indices, updates)", op);
  const Tensor& data = *inputs[0];
  const Tensor& indices = *inputs[1];
  const Tensor& updates = *inputs[2];
  NPURT_CHECK_OR_RETURN(DataTypeSize(data.dtype) != 0, kModelInvalid, "%s: unknown element type", op);
  NPURT_CHECK_OR_RETURN(updates.dtype == data.dtype, kModelInvalid, "%s: updates are %s, data %s", op,
                        DataTypeName(updates.dtype), DataTypeName(data.dtype));
  NPURT_CHECK_OR_RETURN(indices.dtype == DataType::kInt64 || indices.dtype == DataType::kInt32, kModelInvalid,
                        "%s: indices have type %s, expected int32 or int64", op, DataTypeName(indices.dtype));
  NPURT_CHECK_OR_RETURN(data.rank() >= 1 && data.rank() <= kMaxScatterRank, kModelInvalid,
                        "%s: data rank %d is not in 1..%d", op, data.rank(), kMaxScatterRank);
  NPURT_CHECK_OR_RETURN(data.num_elements() >= 0 && indices.num_elements() >= 0 && updates.num_elements() >= 0,
                        kModelInvalid, "%s: bad input shapes", op);
  NPURT_RETURN_IF_ERROR(ReadReduction(op, attrs, data.dtype, &p->reduction));
  p->type = data.dtype;
  p->rank = data.rank();
  for (int d = 0; d < p->rank; ++d) p->data_shape[d] = data.shape[d];
  p->indices_int64 = indices.dtype == DataType::kInt64;
  if (nd) {
    NPURT_CHECK_OR_RETURN(indices.rank() >= 1, kModelInvalid, "ScatterND: indices must have rank >= 1");
    const int64_t k = indices.shape.back();
    NPURT_CHECK_OR_RETURN(k >= 1 && k <= data.rank(), kModelInvalid,
                          "ScatterND: index depth %" PRId64 " is not in 1..%d (the data's rank)", k, data.rank());
    Shape want(indices.shape.begin(), indices.shape.end() - 1);
    want.insert(want.end(), data.shape.begin() + k, data.shape.end());
    NPURT_CHECK_OR_RETURN(updates.shape == want, kModelInvalid, "ScatterND: updates have shape %s, expected %s",
                          ShapeToString(updates.shape).c_str(), ShapeToString(want).c_str());
    p->index_depth = static_cast<int>(k);
    p->index_count = indices.num_elements() / k;
  } else {
    NPURT_CHECK_OR_RETURN(indices.rank() == data.rank(), kModelInvalid,
                          "ScatterElements: indices have rank %d, data %d", indices.rank(), data.rank());
    NPURT_CHECK_OR_RETURN(updates.shape == indices.shape, kModelInvalid,
                          "ScatterElements: updates have shape %s, indices %s", ShapeToString(updates.shape).c_str(),
                          ShapeToString(indices.shape).c_str());
    int64_t axis = 0;
    NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &axis));
    NPURT_RETURN_IF_ERROR(NormalizeAxis(op, axis, data.rank(), &p->axis));
    for (int d = 0; d < p->rank; ++d) {
      NPURT_CHECK_OR_RETURN(d == p->axis || indices.shape[d] <= data.shape[d], kModelInvalid,
                            "ScatterElements: indices %s exceed data %s along dim %d",
                            ShapeToString(indices.shape).c_str(), ShapeToString(data.shape).c_str(), d);
      p->index_shape[d] = indices.shape[d];
    }
  }
  return Status::Ok();
}

template <bool kNd>
Status ScatterInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  ScatterParams p;
  NPURT_RETURN_IF_ERROR(MakeScatterParams(kNd, attrs, inputs, &p));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

template <bool kNd>
Status ScatterPrepare(OpNode* node) {
  const char* op = kNd ? "ScatterND" : "ScatterElements";
  NPURT_CHECK_OR_RETURN(!IsQuantizedActivationType(node->inputs[0]->dtype) || node->inputs[0]->quant.empty(),
                        kModelInvalid, "%s: quantized data is not supported", op);
  auto state = std::make_unique<ScatterState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(MakeScatterParams(kNd, node->attrs, inputs, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

template <bool kNd>
Status ScatterEval(OpNode* node) {
  const ScatterParams& p = node->state_as<ScatterState>()->params;
  const bool ok = kNd ? scatter_nd__ref(p, node->inputs[0]->data, node->inputs[1]->data, node->inputs[2]->data,
                                        node->outputs[0]->data)
                      : scatter_elements__ref(p, node->inputs[0]->data, node->inputs[1]->data, node->inputs[2]->data,
                                              node->outputs[0]->data);
  if (!ok) return NPURT_ERROR(kFail, "%s: index out of range", kNd ? "ScatterND" : "ScatterElements");
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpScatterND = {"ScatterND", 3, 3, 1, 1, ScatterInfer<true>, ScatterPrepare<true>,
                                   ScatterEval<true>};
extern const OpDef kOpScatterElements = {"ScatterElements", 3, 3, 1, 1, ScatterInfer<false>, ScatterPrepare<false>,
                                         ScatterEval<false>};

}  // namespace npurt
