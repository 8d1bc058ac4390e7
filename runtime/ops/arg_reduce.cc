// ArgMax, ArgMin: the int64 index of the extreme element along `axis` (default 0), the axis kept
// as a 1 (keepdims, default 1) or dropped; ties to the first index unless select_last_index = 1
// (opset 12). Float32, integer and quantized (INT8 / INT16 codes, exact) inputs.
#include "runtime/kernels/ref/arg_reduce.h"

#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct ArgReduceState : OpState {
  ArgReduceParams params;
};

bool Supported(DataType t) {
  return t == DataType::kFloat32 || t == DataType::kInt8 || t == DataType::kUint8 || t == DataType::kInt16 ||
         t == DataType::kInt32 || t == DataType::kInt64;
}

Status ReadFlag(const char* op, const Attributes& attrs, const char* name, int64_t default_value, bool* out) {
  int64_t v = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt(name, default_value, &v));
  NPURT_CHECK_OR_RETURN(v == 0 || v == 1, kModelInvalid, "%s: %s must be 0 or 1, got %lld", op, name,
                        static_cast<long long>(v));
  *out = v == 1;
  return Status::Ok();
}

// The axis, keepdims and select_last_index of a node whose input 0 is `x`.
Status ReadArgReduce(const char* op, const Attributes& attrs, const Tensor& x, int* axis, bool* keepdims,
                     bool* select_last) {
  NPURT_CHECK_OR_RETURN(x.rank() >= 1, kModelInvalid, "%s: input must have rank >= 1", op);
  int64_t raw_axis = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 0, &raw_axis));
  NPURT_RETURN_IF_ERROR(NormalizeAxis(op, raw_axis, x.rank(), axis));
  NPURT_RETURN_IF_ERROR(ReadFlag(op, attrs, "keepdims", 1, keepdims));
  return ReadFlag(op, attrs, "select_last_index", 0, select_last);
}

template <bool kMax>
Status ArgReduceInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* op = kMax ? "ArgMax" : "ArgMin";
  NPURT_CHECK_OR_RETURN(inputs.size() == 1 && inputs[0] != nullptr, kModelInvalid, "%s: expects 1 input", op);
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", op, outputs->size());
  const Tensor& x = *inputs[0];
  NPURT_CHECK_OR_RETURN(Supported(x.dtype), kModelInvalid, "%s: input type %s is not supported", op,
                        DataTypeName(x.dtype));
  NPURT_CHECK_OR_RETURN(x.num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", op,
                        ShapeToString(x.shape).c_str());
  int axis = 0;
  bool keepdims = true, select_last = false;
  NPURT_RETURN_IF_ERROR(ReadArgReduce(op, attrs, x, &axis, &keepdims, &select_last));
  NPURT_CHECK_OR_RETURN(x.shape[axis] >= 1, kModelInvalid, "%s: the reduced axis %d is empty (shape %s)", op, axis,
                        ShapeToString(x.shape).c_str());
  Shape out;
  for (int d = 0; d < x.rank(); ++d) {
    if (d != axis) {
      out.push_back(x.shape[d]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = DataType::kInt64;
  return Status::Ok();
}

template <bool kMax>
Status ArgReducePrepare(OpNode* node) {
  const char* op = kMax ? "ArgMax" : "ArgMin";
  const Tensor& x = *node->inputs[0];
  int axis = 0;
  bool keepdims = true;
  auto state = std::make_unique<ArgReduceState>();
  ArgReduceParams& p = state->params;
  NPURT_RETURN_IF_ERROR(ReadArgReduce(op, node->attrs, x, &axis, &keepdims, &p.select_last_index));
  p.max = kMax;
  for (int d = 0; d < x.rank(); ++d) {
    (d < axis ? p.outer : d == axis ? p.axis_size : p.inner) *= x.shape[d];
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status ArgReduceEval(OpNode* node) {
  const ArgReduceParams& p = node->state_as<ArgReduceState>()->params;
  if (p.outer * p.inner == 0) return Status::Ok();
  arg_reduce__ref(p, node->inputs[0]->dtype, node->inputs[0]->data, node->outputs[0]->as<int64_t>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpArgMax = {"ArgMax", 1, 1, 1, 1, ArgReduceInfer<true>, ArgReducePrepare<true>, ArgReduceEval};
extern const OpDef kOpArgMin = {"ArgMin", 1, 1, 1, 1, ArgReduceInfer<false>, ArgReducePrepare<false>, ArgReduceEval};

}  // namespace npurt
