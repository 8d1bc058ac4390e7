// Gemm (Y = alpha * A' * B' + beta * C, C unidirectionally broadcast to (M, N),
// plus the optional fused `activation` of the compiler's fusion pass) and
// MatMul (numpy matmul: 1-D operands promoted then squeezed, leading batch
// dims broadcast).
#include <algorithm>
#include <cinttypes>
#include <string>
#include <vector>

#include "runtime/kernels/ref/gemm.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

const Tensor* InputAt(const std::vector<const Tensor*>& inputs, size_t i) {
  return i < inputs.size() ? inputs[i] : nullptr;
}

Status ExpectPositiveDims(const char* op, const Tensor* t, int index) {
  for (int64_t d : t->shape) {
    NPURT_CHECK_OR_RETURN(d > 0, kModelInvalid, "%s: input %d has bad shape %s", op, index,
                          ShapeToString(t->shape).c_str());
  }
  NPURT_CHECK_OR_RETURN(t->num_elements() > 0, kModelInvalid, "%s: input %d is too large", op, index);
  return Status::Ok();
}

// ---- Gemm ----

struct GemmState : OpState {
  GemmParams params;
};

// Validates the node and fills the kernel params (shared by infer and prepare).
Status PlanGemm(const Attributes& attrs, const Tensor* a, const Tensor* b, const Tensor* c, GemmParams* p) {
  NPURT_RETURN_IF_ERROR(ExpectInputType("Gemm", a, DataType::kFloat32, 0));
  NPURT_RETURN_IF_ERROR(ExpectInputType("Gemm", b, DataType::kFloat32, 1));
  NPURT_CHECK_OR_RETURN(a->rank() == 2 && b->rank() == 2, kModelInvalid, "Gemm: A %s and B %s must be matrices",
                        ShapeToString(a->shape).c_str(), ShapeToString(b->shape).c_str());
  NPURT_RETURN_IF_ERROR(ExpectPositiveDims("Gemm", a, 0));
  NPURT_RETURN_IF_ERROR(ExpectPositiveDims("Gemm", b, 1));
  int64_t trans_a = 0, trans_b = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("transA", 0, &trans_a));
  NPURT_RETURN_IF_ERROR(attrs.GetInt("transB", 0, &trans_b));
  NPURT_CHECK_OR_RETURN((trans_a == 0 || trans_a == 1) && (trans_b == 0 || trans_b == 1), kModelInvalid,
                        "Gemm: transA %" PRId64 " / transB %" PRId64 " must be 0 or 1", trans_a, trans_b);
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 1.0f, &p->alpha));
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("beta", 1.0f, &p->beta));
  p->trans_a = trans_a == 1;
  p->trans_b = trans_b == 1;
  p->m = a->shape[p->trans_a ? 1 : 0];
  p->k = a->shape[p->trans_a ? 0 : 1];
  p->n = b->shape[p->trans_b ? 0 : 1];
  const int64_t kb = b->shape[p->trans_b ? 1 : 0];
  NPURT_CHECK_OR_RETURN(p->k == kb, kModelInvalid, "Gemm: inner dims differ (%" PRId64 " vs %" PRId64 ")", p->k, kb);
  NPURT_CHECK_OR_RETURN(NumElements({p->m, p->n}) > 0, kModelInvalid, "Gemm: output too large");

  p->c_row_stride = p->c_col_stride = 0;
  if (c != nullptr) {
    NPURT_RETURN_IF_ERROR(ExpectInputType("Gemm", c, DataType::kFloat32, 2));
    NPURT_RETURN_IF_ERROR(ExpectPositiveDims("Gemm", c, 2));
    const int rank = c->rank();
    const int64_t rows = rank == 2 ? c->shape[0] : 1;
    const int64_t cols = rank >= 1 ? c->shape[rank - 1] : 1;
    NPURT_CHECK_OR_RETURN(rank <= 2 && (rows == 1 || rows == p->m) && (cols == 1 || cols == p->n), kModelInvalid,
                          "Gemm: C shape %s does not broadcast to [%" PRId64 ",%" PRId64 "]",
                          ShapeToString(c->shape).c_str(), p->m, p->n);
    p->c_row_stride = rows == 1 ? 0 : cols;
    p->c_col_stride = cols == 1 ? 0 : 1;
  }

  std::string activation;
  std::vector<float> activation_params;
  NPURT_RETURN_IF_ERROR(attrs.GetString("activation", "", &activation));
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_params", {}, &activation_params));
  if (const char* error = ParseFusedActivation(activation, activation_params, &p->activation)) {
    return NPURT_ERROR(kModelInvalid, "Gemm: %s (activation '%s')", error, activation.c_str());
  }
  return Status::Ok();
}

Status GemmInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  GemmParams params;
  NPURT_RETURN_IF_ERROR(PlanGemm(attrs, InputAt(inputs, 0), InputAt(inputs, 1), InputAt(inputs, 2), &params));
  (*outputs)[0].shape = {params.m, params.n};
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status GemmPrepare(OpNode* node) {
  auto state = std::make_unique<GemmState>();
  NPURT_RETURN_IF_ERROR(PlanGemm(node->attrs, node->input(0), node->input(1), node->input(2), &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status GemmEval(OpNode* node) {
  const Tensor* c = node->input(2);
  f32_gemm__ref(node->state_as<GemmState>()->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                c != nullptr ? c->as<float>() : nullptr, node->outputs[0]->as<float>());
  return Status::Ok();
}

// ---- MatMul ----

struct MatMulState : OpState {
  MatMulParams params;
};

// Output shape and, when `p` is set, the kernel params with per-batch offsets.
Status PlanMatMul(const Tensor* a, const Tensor* b, Shape* out_shape, MatMulParams* p) {
  NPURT_RETURN_IF_ERROR(ExpectInputType("MatMul", a, DataType::kFloat32, 0));
  NPURT_RETURN_IF_ERROR(ExpectInputType("MatMul", b, DataType::kFloat32, 1));
  NPURT_CHECK_OR_RETURN(a->rank() >= 1 && b->rank() >= 1, kModelInvalid, "MatMul: scalar operand (%s x %s)",
                        ShapeToString(a->shape).c_str(), ShapeToString(b->shape).c_str());
  NPURT_RETURN_IF_ERROR(ExpectPositiveDims("MatMul", a, 0));
  NPURT_RETURN_IF_ERROR(ExpectPositiveDims("MatMul", b, 1));
  // numpy: a 1-D A is a row (1, K), a 1-D B a column (K, 1); the unit dim is dropped from the output.
  Shape as = a->shape, bs = b->shape;
  if (as.size() == 1) as.insert(as.begin(), 1);
  if (bs.size() == 1) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  NPURT_CHECK_OR_RETURN(bs[bs.size() - 2] == k, kModelInvalid, "MatMul: inner dims differ (%s x %s)",
                        ShapeToString(a->shape).c_str(), ShapeToString(b->shape).c_str());
  const size_t a_batch_rank = as.size() - 2, b_batch_rank = bs.size() - 2;
  const size_t batch_rank = std::max(a_batch_rank, b_batch_rank);
  Shape batch(batch_rank);
  for (size_t i = 0; i < batch_rank; ++i) {
    // Right-aligned; a missing dim counts as 1.
    const int64_t da = i + a_batch_rank >= batch_rank ? as[i + a_batch_rank - batch_rank] : 1;
    const int64_t db = i + b_batch_rank >= batch_rank ? bs[i + b_batch_rank - batch_rank] : 1;
    NPURT_CHECK_OR_RETURN(da == db || da == 1 || db == 1, kModelInvalid, "MatMul: batch dims of %s and %s differ",
                          ShapeToString(a->shape).c_str(), ShapeToString(b->shape).c_str());
    batch[i] = std::max(da, db);
  }
  *out_shape = batch;
  if (a->rank() > 1) out_shape->push_back(m);
  if (b->rank() > 1) out_shape->push_back(n);
  Shape full = batch;
  full.push_back(m);
  full.push_back(n);
  NPURT_CHECK_OR_RETURN(NumElements(full) > 0, kModelInvalid, "MatMul: output too large");
  if (p == nullptr) return Status::Ok();

  p->m = m;
  p->n = n;
  p->k = k;
  const int64_t batches = NumElements(batch);
  p->a_offsets.assign(static_cast<size_t>(batches), 0);
  p->b_offsets.assign(static_cast<size_t>(batches), 0);
  // Walk the output batch index like an odometer, carrying each operand's offset.
  std::vector<int64_t> a_stride(batch_rank, 0), b_stride(batch_rank, 0);
  int64_t sa = m * k, sb = k * n;
  for (size_t i = batch_rank; i-- > 0;) {
    if (i + a_batch_rank >= batch_rank) {
      const int64_t d = as[i + a_batch_rank - batch_rank];
      a_stride[i] = d == 1 ? 0 : sa;
      sa *= d;
    }
    if (i + b_batch_rank >= batch_rank) {
      const int64_t d = bs[i + b_batch_rank - batch_rank];
      b_stride[i] = d == 1 ? 0 : sb;
      sb *= d;
    }
  }
  for (int64_t flat = 0; flat < batches; ++flat) {
    int64_t oa = 0, ob = 0;
    for (size_t i = batch_rank, r = static_cast<size_t>(flat); i-- > 0;) {
      const int64_t idx = static_cast<int64_t>(r % static_cast<size_t>(batch[i]));
      r /= static_cast<size_t>(batch[i]);
      oa += idx * a_stride[i];
      ob += idx * b_stride[i];
    }
    p->a_offsets[flat] = oa;
    p->b_offsets[flat] = ob;
  }
  return Status::Ok();
}

Status MatMulInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  (void)attrs;
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanMatMul(InputAt(inputs, 0), InputAt(inputs, 1), &shape, nullptr));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status MatMulPrepare(OpNode* node) {
  auto state = std::make_unique<MatMulState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanMatMul(node->input(0), node->input(1), &shape, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status MatMulEval(OpNode* node) {
  f32_matmul__ref(node->state_as<MatMulState>()->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                  node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpGemm = {"Gemm", 2, 3, 1, 1, GemmInfer, GemmPrepare, GemmEval};
extern const OpDef kOpMatMul = {"MatMul", 2, 2, 1, 1, MatMulInfer, MatMulPrepare, MatMulEval};

}  // namespace npurt
