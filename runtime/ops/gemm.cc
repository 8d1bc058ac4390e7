// Gemm (Y = alpha * A' * B' + beta * C, C unidirectionally broadcast to (M, N),
// plus the optional fused `activation` of the compiler's fusion pass) and
// MatMul (numpy matmul: 1-D operands promoted then squeezed, leading batch
// dims broadcast).
//
// Both also run on int8 (contract in kernels/ref/quantize.h), with A and the
// output quantized per tensor:
//  * Gemm: B a constant symmetric int8 weight, per tensor or per output column
//    (the N axis of B: 0 when transB = 1, else 1), or an int8 activation
//    quantized per tensor with any zero point; alpha folds into the
//    accumulator scale, so C can only be a constant int32 bias of length N
//    (shape [N] or [1, N]) with beta 1, its real value bias[j] * alpha *
//    scale_A * scale_B[j] (ONNX Runtime's QGemm: C scale = alpha / beta *
//    scale_A * scale_B; with alpha 1 that is the Conv convention).
//  * MatMul: B a constant symmetric int8 weight (per tensor, or per column
//    along its last axis), or an int8 activation quantized per tensor with any
//    zero point (attention's Q x K^T).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/int8/requantize_config.h"
#include "runtime/kernels/portable/quantized_matmul_sums.h"
#include "runtime/kernels/ref/gemm.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/conv_int8_path.h"
#include "runtime/ops/gemm_fast_path.h"
#include "runtime/ops/fused_activation_attributes.h"
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

// Float32 A and B, or quantized A and B (*quantized): int8 or int16
// activations, int8 weights.
Status CheckOperandTypes(const char* op, const Tensor* a, const Tensor* b, bool* quantized) {
  *quantized = a != nullptr && IsQuantizedActivationType(a->dtype);
  if (!*quantized) {
    NPURT_RETURN_IF_ERROR(ExpectInputType(op, a, DataType::kFloat32, 0));
    return ExpectInputType(op, b, DataType::kFloat32, 1);
  }
  NPURT_CHECK_OR_RETURN(b != nullptr, kModelInvalid, "%s: input 1 is missing", op);
  const bool b_ok = b->constant ? b->dtype == DataType::kInt8 : IsQuantizedActivationType(b->dtype);
  NPURT_CHECK_OR_RETURN(b_ok, kModelInvalid,
                        "%s: A '%s' is %s but B '%s' is %s (a quantized %s needs an int8 weight or an int8/int16 "
                        "activation)",
                        op, a->name.c_str(), DataTypeName(a->dtype), b->name.c_str(), DataTypeName(b->dtype), op);
  return Status::Ok();
}

// ---- int8 helpers ----

// The largest |x - zero point| of a quantized tensor.
int64_t MaxMagnitude(const TensorQuant& q) {
  return std::max<int64_t>(q.zero_point - q.range.min, q.range.max - q.zero_point);
}

// ---- Gemm ----

struct GemmState : OpState {
  GemmParams params;
  bool quantized = false;
  GemmQuantParams quant;  // int8 only
  ConvInt8Path int8;      // int8 against a constant B: npurt's int8 kernels
  GemmFastPath fast;
};

// Validates the node and fills the kernel params (shared by infer and prepare).
Status PlanGemm(const Attributes& attrs, const Tensor* a, const Tensor* b, const Tensor* c, GemmParams* p,
                bool* quantized) {
  NPURT_RETURN_IF_ERROR(CheckOperandTypes("Gemm", a, b, quantized));
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
  if (*quantized) {
    NPURT_CHECK_OR_RETURN(std::isfinite(p->alpha), kModelInvalid, "Gemm: int8 Gemm needs a finite alpha, has %g",
                          static_cast<double>(p->alpha));
    if (c != nullptr) {
      const bool bias_shape = (c->rank() == 1 && c->shape[0] == p->n) ||
                              (c->rank() == 2 && c->shape[0] == 1 && c->shape[1] == p->n);
      NPURT_CHECK_OR_RETURN(c->dtype == DataType::kInt32 && bias_shape && p->beta == 1.0f, kModelInvalid,
                            "Gemm: C '%s' is %s %s with beta %g; int8 Gemm needs C as an int32 bias of length N "
                            "(%" PRId64 ") with beta 1",
                            c->name.c_str(), DataTypeName(c->dtype), ShapeToString(c->shape).c_str(),
                            static_cast<double>(p->beta), p->n);
    }
  } else if (c != nullptr) {
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

  NPURT_RETURN_IF_ERROR(ReadFusedActivation("Gemm", attrs, &p->activation));
  return Status::Ok();
}

// The int8 kernel's quantization parameters; bounds every accumulator by the
// int32 range so the kernel's int32 arithmetic cannot overflow: |bias| +
// max|A - zp| * sum_k |B(k, j)| for a weight B, |bias| + max|A - zp| * K *
// max|B - zp| for an activation B.
Status PrepareQuantizedGemm(const OpNode& node, GemmState* state) {
  const Tensor& a = *node.inputs[0];
  const Tensor& b = *node.inputs[1];
  const Tensor* c = node.input(2);
  const GemmParams& p = state->params;
  TensorQuant aq, yq;
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("Gemm", a, "input A", &aq));
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("Gemm", *node.outputs[0], "output", &yq));
  GemmQuantParams& q = state->quant;
  q.a_zero_point = aq.zero_point;
  std::vector<float> b_scale;
  std::vector<int64_t> column_bound(static_cast<size_t>(p.n));  // max |sum_k (A - zp) (B - zp)| per column
  if (b.constant) {
    NPURT_RETURN_IF_ERROR(ReadWeightScales("Gemm", b, p.trans_b ? 0 : 1, p.n, "output column", &b_scale));
    q.b_zero_point = 0;
    const int64_t b_row = p.trans_b ? 1 : p.n, b_col = p.trans_b ? p.k : 1;
    const int8_t* weights = b.as<int8_t>();
    for (int64_t j = 0; j < p.n; ++j) {
      int64_t sum = 0;
      for (int64_t kk = 0; kk < p.k; ++kk) sum += std::abs(static_cast<int64_t>(weights[kk * b_row + j * b_col]));
      column_bound[static_cast<size_t>(j)] = MaxMagnitude(aq) * sum;
    }
  } else {
    TensorQuant bq;
    NPURT_RETURN_IF_ERROR(ReadActivationQuant("Gemm", b, "input B", &bq));
    b_scale.assign(static_cast<size_t>(p.n), bq.scale);
    q.b_zero_point = bq.zero_point;
    column_bound.assign(static_cast<size_t>(p.n), MaxMagnitude(aq) * p.k * MaxMagnitude(bq));
  }
  q.acc_scale.resize(b_scale.size());
  for (size_t j = 0; j < b_scale.size(); ++j) q.acc_scale[j] = p.alpha * (aq.scale * b_scale[j]);
  q.output_scale = yq.scale;
  q.output_zero_point = yq.zero_point;
  q.output_min = static_cast<int32_t>(yq.range.min);
  q.output_max = static_cast<int32_t>(yq.range.max);

  const int32_t* bias = nullptr;
  if (c != nullptr) {
    NPURT_CHECK_OR_RETURN(c->constant, kModelInvalid, "Gemm: int32 bias C '%s' must be a constant", c->name.c_str());
    bias = c->as<int32_t>();
    const QuantInfo& info = c->quant;
    if (!info.empty()) {
      NPURT_CHECK_OR_RETURN(info.scale.size() == 1 || static_cast<int64_t>(info.scale.size()) == p.n, kModelInvalid,
                            "Gemm: bias C '%s' has %zu scales for %" PRId64 " columns", c->name.c_str(),
                            info.scale.size(), p.n);
      for (size_t j = 0; j < q.acc_scale.size(); ++j) {
        const float got = info.scale[info.scale.size() == 1 ? 0 : j];
        const float want = q.acc_scale[j];
        NPURT_CHECK_OR_RETURN(std::fabs(got - want) <= 1e-5f * std::fabs(want), kModelInvalid,
                              "Gemm: bias C '%s' has scale %g for column %zu, expected alpha x scale A x scale B = %g",
                              c->name.c_str(), static_cast<double>(got), j, static_cast<double>(want));
      }
      for (int32_t zp : info.zero_point) {
        NPURT_CHECK_OR_RETURN(zp == 0, kModelInvalid, "Gemm: bias C '%s' has zero point %d, expected 0",
                              c->name.c_str(), zp);
      }
    }
  }

  if (a.dtype != DataType::kInt8 || b.dtype != DataType::kInt8) return Status::Ok();  // int64 accumulation
  for (int64_t j = 0; j < p.n; ++j) {
    const int64_t bound = (bias != nullptr ? std::abs(static_cast<int64_t>(bias[j])) : 0) +
                          column_bound[static_cast<size_t>(j)];
    NPURT_CHECK_OR_RETURN(bound <= INT32_MAX, kModelInvalid,
                          "Gemm: column %" PRId64 " of B '%s' can overflow the int32 accumulator (bound %" PRId64 ")",
                          j, b.name.c_str(), bound);
  }
  return Status::Ok();
}

Status GemmInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  GemmParams params;
  bool quantized = false;
  NPURT_RETURN_IF_ERROR(
      PlanGemm(attrs, InputAt(inputs, 0), InputAt(inputs, 1), InputAt(inputs, 2), &params, &quantized));
  (*outputs)[0].shape = {params.m, params.n};
  (*outputs)[0].dtype = DataType::kFloat32;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType("Gemm", attrs, inputs[0]->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

Status GemmPrepare(OpNode* node) {
  auto state = std::make_unique<GemmState>();
  NPURT_RETURN_IF_ERROR(PlanGemm(node->attrs, node->input(0), node->input(1), node->input(2), &state->params,
                                 &state->quantized));
  if (state->quantized) NPURT_RETURN_IF_ERROR(PrepareQuantizedGemm(*node, state.get()));
  const GemmParams& p = state->params;
  const Tensor* c = node->input(2);
  // The library's bias is one row, added as is: float needs alpha = beta = 1 and a C of N values
  // (int8 has alpha in acc_scale and C as the int32 bias already).
  // (The quantized plan checked C is N int32 values and left its strides at 0.)
  const bool plain_bias = c == nullptr || state->quantized || (p.c_row_stride == 0 && p.c_col_stride == 1);
  if (!p.trans_a && plain_bias && (state->quantized || (p.alpha == 1.0f && (c == nullptr || p.beta == 1.0f)))) {
    GemmFastShape shape;
    shape.rows = p.m, shape.n = p.n, shape.k = p.k, shape.trans_b = p.trans_b, shape.activation = p.activation;
    shape.quantized = state->quantized;
    if (state->quantized) {
      const GemmQuantParams& q = state->quant;
      shape.a_zero_point = q.a_zero_point, shape.acc_scale = q.acc_scale;
      shape.output_scale = q.output_scale, shape.output_zero_point = q.output_zero_point;
      shape.output_min = q.output_min, shape.output_max = q.output_max;
    }
    if (state->quantized) NPURT_RETURN_IF_ERROR(state->int8.PrepareMatrix(node, shape, c));
    if (!state->int8.enabled() && (!state->quantized || state->quant.b_zero_point == 0)) {
      NPURT_RETURN_IF_ERROR(state->fast.Prepare(node, shape, c));
    }
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status GemmEval(OpNode* node) {
  const GemmState* state = node->state_as<GemmState>();
  if (state->int8.enabled()) return state->int8.Eval(node);
  if (state->fast.enabled()) return state->fast.Eval(node);
  const Tensor* c = node->input(2);
  const GemmParams& p = state->params;
  const int threads = ThreadsFor(*node, p.m * p.n * p.k);  // threads split the rows
  if (state->quantized) {
    ParallelFor(p.m, threads, [&](int64_t begin, int64_t end) {
      quantized_gemm__ref(p, state->quant, node->inputs[0]->dtype, node->inputs[0]->data,
                          node->inputs[1]->as<int8_t>(), c != nullptr ? c->as<int32_t>() : nullptr,
                          node->outputs[0]->dtype, node->outputs[0]->data, WorkRange{begin, end});
    });
    return Status::Ok();
  }
  ParallelFor(p.m, threads, [&](int64_t begin, int64_t end) {
    f32_gemm__ref(p, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                  c != nullptr ? c->as<float>() : nullptr, node->outputs[0]->as<float>(), WorkRange{begin, end});
  });
  return Status::Ok();
}

// ---- MatMul ----

struct MatMulState : OpState {
  MatMulParams params;
  bool quantized = false;
  MatMulQuantParams quant;  // int8 only
  ConvInt8Path int8;        // int8 against a constant B: npurt's int8 kernels
  GemmFastPath fast;
  // A quantized MatMul that takes neither: each row's exact sums (kernels/portable/quantized_matmul_sums.h)
  // requantized by the rows kernel, in a slot of N doubles and N floats per thread of the node's scratch.
  RequantizeFloatRowsFn requantize = nullptr;
  RequantizeRowsParams requantize_params;  // all but acc_scale (quant's, set at eval: no pointer into the state)
  int slots = 0;
  size_t slot_bytes = 0;
};

// Output shape and, when `p` is set, the kernel params with per-batch offsets.
Status PlanMatMul(const Tensor* a, const Tensor* b, Shape* out_shape, MatMulParams* p, bool* quantized) {
  NPURT_RETURN_IF_ERROR(CheckOperandTypes("MatMul", a, b, quantized));
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

// The int8 kernel's quantization parameters; bounds every accumulator by the
// int32 range so the kernel's int32 arithmetic cannot overflow: max|A - zp| *
// sum_k |B(k, j)| for a weight B, max|A - zp| * K * max|B - zp| for an
// activation B.
Status PrepareQuantizedMatMul(const OpNode& node, MatMulState* state) {
  const Tensor& a = *node.inputs[0];
  const Tensor& b = *node.inputs[1];
  const MatMulParams& p = state->params;
  TensorQuant aq, yq;
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("MatMul", a, "input A", &aq));
  NPURT_RETURN_IF_ERROR(ReadActivationQuant("MatMul", *node.outputs[0], "output", &yq));
  MatMulQuantParams& q = state->quant;
  q.a_zero_point = aq.zero_point;
  q.acc_scale.resize(static_cast<size_t>(p.n));
  int64_t bound = 0;
  if (b.constant) {
    // A weight: per column along the last axis of a B of rank >= 2 (one column when B is 1-D).
    NPURT_CHECK_OR_RETURN(b.rank() >= 2 || b.quant.scale.size() <= 1, kModelInvalid,
                          "MatMul: 1-D weight '%s' has %zu scales; a vector B can only be quantized per tensor",
                          b.name.c_str(), b.quant.scale.size());
    std::vector<float> b_scale;
    NPURT_RETURN_IF_ERROR(ReadWeightScales("MatMul", b, b.rank() - 1, p.n, "output column", &b_scale));
    for (size_t j = 0; j < b_scale.size(); ++j) q.acc_scale[j] = aq.scale * b_scale[j];
    q.b_zero_point = 0;
    const int64_t matrices = b.num_elements() / (p.k * p.n);
    for (int64_t mat = 0; mat < matrices; ++mat) {
      const int8_t* weights = b.as<int8_t>() + mat * p.k * p.n;
      for (int64_t j = 0; j < p.n; ++j) {
        int64_t sum = 0;
        for (int64_t kk = 0; kk < p.k; ++kk) sum += std::abs(static_cast<int64_t>(weights[kk * p.n + j]));
        bound = std::max(bound, MaxMagnitude(aq) * sum);
      }
    }
  } else {
    TensorQuant bq;
    NPURT_RETURN_IF_ERROR(ReadActivationQuant("MatMul", b, "input B", &bq));
    for (float& s : q.acc_scale) s = aq.scale * bq.scale;
    q.b_zero_point = bq.zero_point;
    bound = MaxMagnitude(aq) * p.k * MaxMagnitude(bq);
  }
  const bool int32_accumulator = a.dtype == DataType::kInt8 && b.dtype == DataType::kInt8;
  NPURT_CHECK_OR_RETURN(!int32_accumulator || bound <= INT32_MAX, kModelInvalid,
                        "MatMul: '%s' x '%s' can overflow the int32 accumulator (K %" PRId64 ", bound %" PRId64 ")",
                        a.name.c_str(), b.name.c_str(), p.k, bound);
  q.output_scale = yq.scale;
  q.output_zero_point = yq.zero_point;
  q.output_min = static_cast<int32_t>(yq.range.min);
  q.output_max = static_cast<int32_t>(yq.range.max);
  return Status::Ok();
}

Status MatMulInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  Shape shape;
  bool quantized = false;
  NPURT_RETURN_IF_ERROR(PlanMatMul(InputAt(inputs, 0), InputAt(inputs, 1), &shape, nullptr, &quantized));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType("MatMul", attrs, inputs[0]->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

Status MatMulPrepare(OpNode* node) {
  auto state = std::make_unique<MatMulState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanMatMul(node->input(0), node->input(1), &shape, &state->params, &state->quantized));
  if (state->quantized) NPURT_RETURN_IF_ERROR(PrepareQuantizedMatMul(*node, state.get()));
  // One weight B for every matrix of a contiguous A: one (batches * M, K) x (K, N) product.
  const MatMulParams& p = state->params;
  bool one_product = node->inputs[1]->constant && (!state->quantized || state->quant.b_zero_point == 0);
  for (size_t i = 0; one_product && i < p.a_offsets.size(); ++i) {
    one_product = p.b_offsets[i] == 0 && p.a_offsets[i] == static_cast<int64_t>(i) * p.m * p.k;
  }
  if (one_product) {
    GemmFastShape shape;
    shape.rows = static_cast<int64_t>(p.a_offsets.size()) * p.m, shape.n = p.n, shape.k = p.k;
    shape.quantized = state->quantized;
    if (state->quantized) {
      const MatMulQuantParams& q = state->quant;
      shape.a_zero_point = q.a_zero_point, shape.acc_scale = q.acc_scale;
      shape.output_scale = q.output_scale, shape.output_zero_point = q.output_zero_point;
      shape.output_min = q.output_min, shape.output_max = q.output_max;
    }
    if (state->quantized) NPURT_RETURN_IF_ERROR(state->int8.PrepareMatrix(node, shape, nullptr));
    if (!state->int8.enabled()) NPURT_RETURN_IF_ERROR(state->fast.Prepare(node, shape, nullptr));
  }
  if (state->quantized && !state->int8.enabled() && !state->fast.enabled() && ActiveCpuTarget() != CpuTarget::kRef &&
      p.k <= kQuantizedMatMulSumsMaxK) {
    state->requantize = ChooseRequantizeFloatRows();
    const MatMulQuantParams& q = state->quant;
    RequantizeRowsParams& rq = state->requantize_params;
    rq.channels = p.n;
    rq.out_scale = q.output_scale;
    rq.out_zero_point = q.output_zero_point;
    rq.out_min = q.output_min;
    rq.out_max = q.output_max;
    rq.out_type = node->outputs[0]->dtype;
    state->slots = ThreadPool::HardwareThreads();
    state->slot_bytes = (static_cast<size_t>(p.n) * (sizeof(double) + sizeof(float)) + 63) & ~size_t{63};
    node->scratch_bytes = static_cast<size_t>(state->slots) * state->slot_bytes;
    node->kernel = "quantized_matmul_sums__portable";
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status MatMulEval(OpNode* node) {
  const MatMulState* state = node->state_as<MatMulState>();
  if (state->int8.enabled()) return state->int8.Eval(node);
  if (state->fast.enabled()) return state->fast.Eval(node);
  const MatMulParams& p = state->params;
  const int64_t rows = static_cast<int64_t>(p.a_offsets.size()) * p.m;  // threads split the rows of all matrices
  const int threads = ThreadsFor(*node, rows * p.n * p.k);
  if (state->requantize != nullptr) {
    const MatMulQuantParams& q = state->quant;
    RequantizeRowsParams rq = state->requantize_params;
    rq.acc_scale = q.acc_scale.data();
    const size_t out_elem = DataTypeSize(rq.out_type);
    const int workers = std::clamp(threads, 1, state->slots);
    ParallelFor(workers, workers, [&](int64_t first, int64_t last) {
      for (int64_t worker = first; worker < last; ++worker) {
        uint8_t* slot = node->scratch + static_cast<size_t>(worker) * state->slot_bytes;
        double* acc = reinterpret_cast<double*>(slot);
        float* sums = reinterpret_cast<float*>(slot + static_cast<size_t>(p.n) * sizeof(double));
        for (int64_t r = worker * rows / workers; r < (worker + 1) * rows / workers; ++r) {
          quantized_matmul_sums__portable(p, q, node->inputs[0]->dtype, node->inputs[0]->data, node->inputs[1]->dtype,
                                          node->inputs[1]->data, r, acc, sums);
          state->requantize(rq, sums, node->outputs[0]->as<uint8_t>() + static_cast<size_t>(r * p.n) * out_elem,
                            WorkRange{0, 1});
        }
      }
    });
    return Status::Ok();
  }
  if (state->quantized) {
    ParallelFor(rows, threads, [&](int64_t begin, int64_t end) {
      quantized_matmul__ref(p, state->quant, node->inputs[0]->dtype, node->inputs[0]->data, node->inputs[1]->dtype,
                            node->inputs[1]->data, node->outputs[0]->dtype, node->outputs[0]->data,
                            WorkRange{begin, end});
    });
    return Status::Ok();
  }
  ParallelFor(rows, threads, [&](int64_t begin, int64_t end) {
    f32_matmul__ref(p, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(), node->outputs[0]->as<float>(),
                    WorkRange{begin, end});
  });
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpGemm = {"Gemm", 2, 3, 1, 1, GemmInfer, GemmPrepare, GemmEval};
extern const OpDef kOpMatMul = {"MatMul", 2, 2, 1, 1, MatMulInfer, MatMulPrepare, MatMulEval};

}  // namespace npurt
