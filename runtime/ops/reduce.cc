// The reductions of NPURT_REDUCE_OPS (runtime/kernels/ref/reduce.h): ReduceSum,
// ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare. Axes come from the `axes`
// attribute (ReduceSum < 13, others < 18) or a constant input 1 (ReduceSum >=
// 13, all >= 18). Empty axes reduce everything unless noop_with_empty_axes = 1, which
// makes the op an identity.
#include <string>
#include <utility>
#include <vector>

#include "runtime/kernels/ref/reduce.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct ReduceState : OpState {
  ReduceParams params;
};

const char* OpName(ReduceOp op) {
  switch (op) {
#define NPURT_REDUCE_NAME(name) \
  case ReduceOp::k##name: return "Reduce" #name;
    NPURT_REDUCE_OPS(NPURT_REDUCE_NAME)
#undef NPURT_REDUCE_NAME
  }
  return "?";
}

// What infer and prepare both need: which input dims are reduced and whether
// they stay as 1s.
struct ReducePlan {
  std::vector<bool> reduced;
  bool keepdims = true;
};

Status ReadBool(const char* op, const Attributes& attrs, const char* name, int64_t default_value, bool* out) {
  int64_t v = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt(name, default_value, &v));
  NPURT_CHECK_OR_RETURN(v == 0 || v == 1, kModelInvalid, "%s: %s must be 0 or 1, got %lld", op, name,
                        static_cast<long long>(v));
  *out = v == 1;
  return Status::Ok();
}

Status MakePlan(ReduceOp op, const Attributes& attrs, const std::vector<const Tensor*>& inputs, ReducePlan* plan) {
  const char* name = OpName(op);
  const int rank = inputs[0]->rank();
  bool noop_with_empty_axes = false;
  NPURT_RETURN_IF_ERROR(ReadBool(name, attrs, "keepdims", 1, &plan->keepdims));
  NPURT_RETURN_IF_ERROR(ReadBool(name, attrs, "noop_with_empty_axes", 0, &noop_with_empty_axes));
  std::vector<int64_t> axes;
  const Tensor* axes_input = inputs.size() > 1 ? inputs[1] : nullptr;
  if (axes_input != nullptr) {
    NPURT_CHECK_OR_RETURN(!attrs.Has("axes"), kModelInvalid, "%s: axes given both as attribute and as input", name);
    NPURT_CHECK_OR_RETURN(axes_input->rank() <= 1, kModelInvalid, "%s: axes input must be 1-D, got shape %s", name,
                          ShapeToString(axes_input->shape).c_str());
    NPURT_CHECK_OR_RETURN(axes_input->dtype == DataType::kInt64 || axes_input->dtype == DataType::kInt32,
                          kModelInvalid, "%s: axes input has type %s", name, DataTypeName(axes_input->dtype));
    NPURT_CHECK_OR_RETURN(axes_input->data != nullptr, kModelInvalid, "%s: axes input must be constant", name);
    // ReadIntValues memcpys into an empty vector's null data() for [0]-shaped input.
    if (axes_input->num_elements() != 0) NPURT_RETURN_IF_ERROR(ReadIntValues(name, axes_input, &axes));
  } else {
    NPURT_RETURN_IF_ERROR(attrs.GetInts("axes", {}, &axes));
  }
  plan->reduced.assign(static_cast<size_t>(rank), axes.empty() && !noop_with_empty_axes);
  for (int64_t axis : axes) {
    int a = 0;
    NPURT_RETURN_IF_ERROR(NormalizeAxis(name, axis, rank, &a));
    NPURT_CHECK_OR_RETURN(!plan->reduced[a], kModelInvalid, "%s: axis %lld is repeated", name,
                          static_cast<long long>(axis));
    plan->reduced[a] = true;
  }
  return Status::Ok();
}

template <ReduceOp kOp>
Status ReduceInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = OpName(kOp);
  NPURT_CHECK_OR_RETURN(inputs.size() == 1 || inputs.size() == 2, kModelInvalid, "%s: expects 1 or 2 inputs, got %zu",
                        name, inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", name,
                        outputs->size());
  const Tensor* x = inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", name);
  const DataType t = x->dtype;
  const bool integer_ok = ReduceTakesIntegers(kOp) && (t == DataType::kInt32 || t == DataType::kInt64);
  NPURT_CHECK_OR_RETURN(t == DataType::kFloat32 || integer_ok, kModelInvalid, "%s: input type %s is not supported",
                        name, DataTypeName(t));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", name,
                        ShapeToString(x->shape).c_str());
  ReducePlan plan;
  NPURT_RETURN_IF_ERROR(MakePlan(kOp, attrs, inputs, &plan));
  Shape out;
  for (int d = 0; d < x->rank(); ++d) {
    if (!plan.reduced[d]) {
      out.push_back(x->shape[d]);
    } else if (plan.keepdims) {
      out.push_back(1);
    }
  }
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = t;
  return Status::Ok();
}

template <ReduceOp kOp>
Status ReducePrepare(OpNode* node) {
  const char* name = OpName(kOp);
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  ReducePlan plan;
  NPURT_RETURN_IF_ERROR(MakePlan(kOp, node->attrs, inputs, &plan));
  auto state = std::make_unique<ReduceState>();
  ReduceParams& p = state->params;
  p.op = kOp;
  p.out_count = node->outputs[0]->num_elements();
  const Shape& shape = node->inputs[0]->shape;
  if (node->inputs[0]->num_elements() == 0) {
    p.reduced_count = 0;  // every output (if any) reduces an empty set
    node->state = std::move(state);
    return Status::Ok();
  }
  // Drop size-1 dims, merge neighbours of the same kind; strides are the input's.
  p.reduced_count = 1;
  int64_t stride = 1;
  bool last_reduced = false;
  bool have_last = false;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    const int64_t n = shape[d];
    if (n == 1) continue;
    const bool r = plan.reduced[d];
    if (r) p.reduced_count *= n;
    int& rank = r ? p.reduced_rank : p.kept_rank;
    int64_t* dims = r ? p.reduced_dims : p.kept_dims;
    int64_t* strides = r ? p.reduced_strides : p.kept_strides;
    if (have_last && last_reduced == r) {
      dims[rank - 1] *= n;  // strides[rank - 1] stays: it is the inner dim's
    } else {
      NPURT_CHECK_OR_RETURN(rank < kMaxReduceRank, kModelInvalid, "%s: input rank too large", name);
      dims[rank] = n;
      strides[rank] = stride;
      ++rank;
    }
    stride *= n;
    last_reduced = r;
    have_last = true;
  }
  // Collected innermost first; the kernel walks outermost first.
  auto reverse = [](int rank, int64_t* dims, int64_t* strides) {
    for (int i = 0, j = rank - 1; i < j; ++i, --j) {
      std::swap(dims[i], dims[j]);
      std::swap(strides[i], strides[j]);
    }
  };
  reverse(p.kept_rank, p.kept_dims, p.kept_strides);
  reverse(p.reduced_rank, p.reduced_dims, p.reduced_strides);
  node->state = std::move(state);
  return Status::Ok();
}

template <ReduceOp kOp>
Status ReduceEval(OpNode* node) {
  const ReduceParams& p = node->state_as<ReduceState>()->params;
  const Tensor* x = node->inputs[0];
  Tensor* y = node->outputs[0];
  switch (x->dtype) {
    case DataType::kInt32: i32_reduce__ref(p, x->as<int32_t>(), y->as<int32_t>()); break;
    case DataType::kInt64: i64_reduce__ref(p, x->as<int64_t>(), y->as<int64_t>()); break;
    default: f32_reduce__ref(p, x->as<float>(), y->as<float>()); break;
  }
  return Status::Ok();
}

}  // namespace

#define NPURT_REDUCE_OPDEF(name)                                                                          \
  extern const OpDef kOpReduce##name = {"Reduce" #name, 1, 2, 1, 1, ReduceInfer<ReduceOp::k##name>,     \
                                        ReducePrepare<ReduceOp::k##name>, ReduceEval<ReduceOp::k##name>,   \
                                        /*view=*/false,                                                   \
                                        ReduceOp::k##name == ReduceOp::kMax || ReduceOp::k##name == ReduceOp::kMin};
NPURT_REDUCE_OPS(NPURT_REDUCE_OPDEF)
#undef NPURT_REDUCE_OPDEF

}  // namespace npurt
