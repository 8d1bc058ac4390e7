// Softmax and LogSoftmax. Opset <= 12 coerces the input to 2-D at `axis` (default 1) and
// normalizes over everything from `axis` on; opset >= 13 normalizes over the
// single `axis` (default -1). The compiler stores the model's opset in the int
// attribute `opset`; without it, opset 13 semantics apply.
//
// INT8 (quantized models): INT8 in, INT8 out, each with per-tensor
// quantization; the reference dequantizes, runs the float softmax and
// quantizes (runtime/kernels/ref/softmax.h). LogSoftmax's quantized form is
// that reference (the optimized tables and rows compute Softmax only).
#include "runtime/kernels/ref/softmax.h"

#include <algorithm>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/requantize_config.h"
#include "runtime/kernels/portable/softmax_table.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct SoftmaxState : OpState {
  SoftmaxParams params;
  S8SoftmaxParams s8;  // INT8 only
  bool s8_table = false;  // int8 in and out over a long axis: s8_softmax__table
  // Other quantized mixes (int16 logits): quantized_softmax__rows, each worker's row of exponentials in
  // its slot of the scratch.
  bool rows = false;
  int slots = 1;
  // Rows contiguous along the axis (inner 1): each row's exponentials quantized by the requantization rows.
  RequantizeFloatRowsFn quantize = nullptr;
  RequantizeRowsParams quantize_params;  // all but acc_scale (each row's 1 / sum)
};

// Resolves the normalized axis and whether the opset <= 12 (coerce to 2-D) rule applies.
Status ReadAxis(const char* name, const Attributes& attrs, int rank, int* axis, bool* coerce_2d) {
  int64_t opset = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("opset", 13, &opset));
  NPURT_CHECK_OR_RETURN(opset >= 1, kModelInvalid, "%s: bad opset %lld", name, static_cast<long long>(opset));
  *coerce_2d = opset <= 12;
  int64_t raw_axis = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", *coerce_2d ? 1 : -1, &raw_axis));
  NPURT_CHECK_OR_RETURN(rank >= 1, kModelInvalid, "%s: input must have rank >= 1", name);
  return NormalizeAxis(name, raw_axis, rank, axis);
}

template <bool kLog>
Status SoftmaxInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = kLog ? "LogSoftmax" : "Softmax";
  NPURT_CHECK_OR_RETURN(inputs.size() == 1, kModelInvalid, "%s: expects 1 input, got %zu", name, inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", name, outputs->size());
  const Tensor* x = inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", name);
  const bool quantized = IsQuantizedActivationType(x->dtype);
  if (!quantized) NPURT_RETURN_IF_ERROR(ExpectInputType(name, x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", name,
                        ShapeToString(x->shape).c_str());
  int axis = 0;
  bool coerce_2d = false;
  NPURT_RETURN_IF_ERROR(ReadAxis(name, attrs, x->rank(), &axis, &coerce_2d));
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = x->dtype;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType(name, attrs, x->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

template <bool kLog>
Status SoftmaxPrepare(OpNode* node) {
  const char* name = kLog ? "LogSoftmax" : "Softmax";
  const Shape& shape = node->inputs[0]->shape;
  int axis = 0;
  bool coerce_2d = false;
  NPURT_RETURN_IF_ERROR(ReadAxis(name, node->attrs, static_cast<int>(shape.size()), &axis, &coerce_2d));
  auto state = std::make_unique<SoftmaxState>();
  SoftmaxParams& p = state->params;
  p.outer = p.axis_size = p.inner = 1;
  p.log = kLog;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis) {
      p.outer *= shape[d];
    } else if (d == axis || coerce_2d) {
      p.axis_size *= shape[d];
    } else {
      p.inner *= shape[d];
    }
  }
  if (IsQuantizedActivationType(node->inputs[0]->dtype)) {
    const Tensor& y = *node->outputs[0];
    NPURT_CHECK_OR_RETURN(IsQuantizedActivationType(y.dtype), kModelInvalid,
                          "%s: output '%s' is %s, expected INT8 or INT16", name, y.name.c_str(), DataTypeName(y.dtype));
    ActivationQuant in, out;
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, *node->inputs[0], "input", &in));
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, y, "output", &out));
    state->s8.softmax = p;
    state->s8.in_scale = in.scale;
    state->s8.in_zero_point = in.zero_point;
    state->s8.out_scale = out.scale;
    state->s8.out_zero_point = out.zero_point;
    state->s8_table = !kLog && node->inputs[0]->dtype == DataType::kInt8 && y.dtype == DataType::kInt8 &&
                      p.axis_size >= kSoftmaxTableMinAxis && ActiveCpuTarget() != CpuTarget::kRef;
    if (state->s8_table) node->kernel = "s8_softmax__table";
    state->rows = !kLog && !state->s8_table && ActiveCpuTarget() != CpuTarget::kRef;
    if (state->rows) {
      node->kernel = "quantized_softmax__rows";
      state->slots = ThreadPool::HardwareThreads();
      node->scratch_bytes = static_cast<size_t>(state->slots) * static_cast<size_t>(p.axis_size) * sizeof(float);
      if (p.inner == 1) {
        state->quantize = ChooseRequantizeFloatRows();
        RequantizeRowsParams& rq = state->quantize_params;
        QuantRange range{};
        QuantizedRange(y.dtype, &range);
        rq.channels = 1;
        rq.out_scale = out.scale;
        rq.out_zero_point = out.zero_point;
        rq.out_type = y.dtype;
        rq.out_min = static_cast<int32_t>(range.min);
        rq.out_max = static_cast<int32_t>(range.max);
      }
    }
  }
  node->state = std::move(state);
  return Status::Ok();
}

Status SoftmaxEval(OpNode* node) {
  const SoftmaxState* state = node->state_as<SoftmaxState>();
  if (state->s8_table) {
    const SoftmaxParams& p = state->params;
    ParallelFor(p.outer * p.inner, ThreadsFor(*node, node->outputs[0]->num_elements() * 4),
                [&](int64_t begin, int64_t end) {
                  s8_softmax__table(state->s8, node->inputs[0]->as<int8_t>(), node->outputs[0]->as<int8_t>(),
                                    WorkRange{begin, end});
                });
    return Status::Ok();
  }
  if (state->rows) {
    const SoftmaxParams& p = state->params;
    const int64_t rows = p.outer * p.inner;
    const int workers = static_cast<int>(std::clamp<int64_t>(
        std::min<int64_t>(ThreadsFor(*node, node->outputs[0]->num_elements() * 16), rows), 1, state->slots));
    const Tensor& x = *node->inputs[0];
    Tensor& y = *node->outputs[0];
    ParallelFor(workers, workers, [&](int64_t first, int64_t last) {
      for (int64_t worker = first; worker < last; ++worker) {
        float* exps = reinterpret_cast<float*>(node->scratch) + worker * p.axis_size;
        if (state->quantize != nullptr) {
          RequantizeRowsParams rq = state->quantize_params;
          const size_t elem = DataTypeSize(y.dtype);
          for (int64_t r = worker * rows / workers; r < (worker + 1) * rows / workers; ++r) {
            const float scale = quantized_softmax_exps(state->s8, x.dtype, x.data, r, exps);
            rq.acc_scale = &scale;
            state->quantize(rq, exps, y.as<uint8_t>() + static_cast<size_t>(r * p.axis_size) * elem,
                            WorkRange{0, p.axis_size});
          }
          continue;
        }
        quantized_softmax__rows(state->s8, node->inputs[0]->dtype, node->inputs[0]->data, node->outputs[0]->dtype,
                                node->outputs[0]->data, exps, WorkRange{worker * rows / workers, (worker + 1) * rows / workers});
      }
    });
    return Status::Ok();
  }
  if (IsQuantizedActivationType(node->outputs[0]->dtype)) {
    quantized_softmax__ref(node->state_as<SoftmaxState>()->s8, node->inputs[0]->dtype, node->inputs[0]->data,
                           node->outputs[0]->dtype, node->outputs[0]->data);
    return Status::Ok();
  }
  f32_softmax__ref(node->state_as<SoftmaxState>()->params, node->inputs[0]->as<float>(),
                   node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpSoftmax = {"Softmax", 1, 1, 1, 1, SoftmaxInfer<false>, SoftmaxPrepare<false>, SoftmaxEval};
extern const OpDef kOpLogSoftmax = {"LogSoftmax", 1, 1, 1, 1, SoftmaxInfer<true>, SoftmaxPrepare<true>, SoftmaxEval};

}  // namespace npurt
