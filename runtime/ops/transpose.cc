// Transpose: output dim k is input dim perm[k]; perm defaults to reversed dims.
// Prepare folds size-1 dims and runs of input dims that stay adjacent and in
// order, so the common cases copy contiguous runs. Element copies serve every
// type; quantized (INT8) tensors keep the input's parameters.
#include "runtime/kernels/ref/transpose.h"

#include <cstdint>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct TransposeState : OpState {
  std::vector<int64_t> out_shape;
  std::vector<int64_t> in_strides;
  TransposeParams params;
};

Status ReadPerm(const Attributes& attrs, const Tensor* x, std::vector<int64_t>* perm) {
  const int rank = x->rank();
  if (!attrs.Has("perm")) {
    perm->resize(rank);
    for (int d = 0; d < rank; ++d) (*perm)[d] = rank - 1 - d;
    return Status::Ok();
  }
  NPURT_RETURN_IF_ERROR(attrs.GetInts("perm", {}, perm));
  NPURT_CHECK_OR_RETURN(perm->size() == static_cast<size_t>(rank), kModelInvalid,
                        "Transpose: perm has %zu entries for rank %d", perm->size(), rank);
  std::vector<bool> seen(rank, false);
  for (int64_t p : *perm) {
    NPURT_CHECK_OR_RETURN(p >= 0 && p < rank && !seen[p], kModelInvalid,
                          "Transpose: perm is not a permutation of 0..%d", rank - 1);
    seen[p] = true;
  }
  return Status::Ok();
}

Status TransposeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Transpose: input 0 is missing");
  NPURT_CHECK_OR_RETURN(DataTypeSize(x->dtype) != 0, kModelInvalid, "Transpose: unknown element type");
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "Transpose: bad input shape %s",
                        ShapeToString(x->shape).c_str());
  std::vector<int64_t> perm;
  NPURT_RETURN_IF_ERROR(ReadPerm(attrs, x, &perm));
  Shape out(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) out[k] = x->shape[perm[k]];
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = x->dtype;
  return Status::Ok();
}

Status TransposePrepare(OpNode* node) {
  const Tensor* x = node->inputs[0];
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Transpose", *x, *node->outputs[0]));
  std::vector<int64_t> perm;
  NPURT_RETURN_IF_ERROR(ReadPerm(node->attrs, x, &perm));
  const int rank = x->rank();
  std::vector<int64_t> strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * x->shape[d + 1];

  auto state = std::make_unique<TransposeState>();
  for (int k = 0; k < rank; ++k) {
    const int64_t dim = x->shape[perm[k]];
    if (dim == 1) continue;  // contributes nothing to the walk
    const int64_t stride = strides[perm[k]];
    // Merge with the previous output dim when it is the next-outer input dim.
    if (!state->out_shape.empty() && state->in_strides.back() == stride * dim) {
      state->out_shape.back() *= dim;
      state->in_strides.back() = stride;
      continue;
    }
    state->out_shape.push_back(dim);
    state->in_strides.push_back(stride);
  }
  state->params.rank = static_cast<int>(state->out_shape.size());
  state->params.element_size = DataTypeSize(x->dtype);
  state->params.out_shape = state->out_shape.data();
  state->params.in_strides = state->in_strides.data();
  node->state = std::move(state);
  return Status::Ok();
}

Status TransposeEval(OpNode* node) {
  transpose__ref(node->state_as<TransposeState>()->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpTranspose = {"Transpose", 1, 1, 1, 1, TransposeInfer, TransposePrepare, TransposeEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
