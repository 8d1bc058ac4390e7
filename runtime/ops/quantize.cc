// QuantizeLinear / DequantizeLinear (ONNX opsets 10 and 13): float <-> int8,
// uint8 (and int16/uint16, int32 for dequantization) with a per-tensor scale
// and zero point, or one per index along `axis` (opset 13). The arithmetic is
// runtime/kernels/ref/quantize.h.
//
// npurt's requantization form, QuantizeLinear(x, y_scale, y_zero_point, x_scale, x_zero_point) of int8 / int16
// codes x, all per tensor: exactly QuantizeLinear(DequantizeLinear(x, x_scale, x_zero_point), ...) -- the
// same float steps, in blocks, without the float tensor between them (the quantizer's int16 -> int8
// boundaries).
#include <algorithm>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/op.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/requantize_avx2.h"
#include "runtime/kernels/x86/requantize_avx512.h"
#endif

namespace npurt {
namespace {

struct QuantizeState : OpState {
  QuantizeParams params;
  bool requantize = false;  // int codes in (inputs 3 and 4 their scale and zero point)
  bool per_tensor_avx2 = false;  // int8 / int16 with one scale: quantize_per_tensor__avx2 and its inverse
  bool requantize_avx512 = false;  // the requantization form on requantize_codes__avx512
};

// The per-tensor int8 / int16 conversions: element-wise in any layout, and vectorized where AVX2 is.
void ChoosePerTensorKernel(OpNode* node, DataType quantized_type, QuantizeState* state, const char* kernel) {
  if (state->params.axis_size != 1 || (quantized_type != DataType::kInt8 && quantized_type != DataType::kInt16)) {
    return;
  }
  node->layout_agnostic = true;
#if NPURT_HAVE_X86_KERNELS
  state->per_tensor_avx2 = ActiveCpuTarget() >= CpuTarget::kAvx2;
  if (state->per_tensor_avx2) node->kernel = kernel;
#else
  static_cast<void>(kernel);
#endif
}

#if NPURT_HAVE_X86_KERNELS
// The zero point of a per-tensor conversion (int8 or int16 storage; 0 when absent).
int32_t ZeroPointOf(const Tensor* zp) {
  if (zp == nullptr) return 0;
  return zp->dtype == DataType::kInt16 ? zp->as<int16_t>()[0] : zp->as<int8_t>()[0];
}
#endif

bool PerTensor(const Tensor& scale) { return scale.num_elements() == 1 && scale.rank() <= 1; }

// Checks scale / zero point against x and the axis; fills the [outer, axis, inner] view.
Status DescribeQuantization(const char* op, const Attributes& attrs, const Tensor& x, const Tensor* scale,
                            const Tensor* zero_point, QuantizeParams* params) {
  NPURT_CHECK_OR_RETURN(scale != nullptr, kModelInvalid, "%s: the scale input is missing", op);
  NPURT_RETURN_IF_ERROR(ExpectInputType(op, scale, DataType::kFloat32, 1));
  NPURT_CHECK_OR_RETURN(scale->rank() <= 1, kModelInvalid, "%s: scale must be a scalar or 1-D, got rank %d", op,
                        scale->rank());
  params->outer = 1;
  params->axis_size = 1;
  params->inner = x.num_elements();
  if (!PerTensor(*scale)) {
    int64_t axis = 1;
    NPURT_RETURN_IF_ERROR(attrs.GetInt("axis", 1, &axis));
    int a = 0;
    NPURT_RETURN_IF_ERROR(NormalizeAxis(op, axis, x.rank(), &a));
    NPURT_CHECK_OR_RETURN(scale->shape[0] == x.shape[a], kModelInvalid,
                          "%s: %lld scales for axis %d of size %lld", op, static_cast<long long>(scale->shape[0]), a,
                          static_cast<long long>(x.shape[a]));
    params->outer = NumElements(Shape(x.shape.begin(), x.shape.begin() + a));
    params->axis_size = x.shape[a];
    params->inner = NumElements(Shape(x.shape.begin() + a + 1, x.shape.end()));
  }
  if (zero_point != nullptr) {
    NPURT_CHECK_OR_RETURN(zero_point->shape == scale->shape ||
                              (zero_point->num_elements() == 1 && scale->num_elements() == 1),
                          kModelInvalid, "%s: zero point shape differs from the scale's", op);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- Quantize

Status QuantizeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                     std::vector<Tensor>* outputs) {
  const Tensor* x = inputs[0];
  const Tensor* zp = inputs.size() > 2 ? inputs[2] : nullptr;
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "QuantizeLinear: input is missing");
  if (inputs.size() > 3) {
    // The requantization form: int codes with their own per-tensor scale and zero point.
    const Tensor* x_scale = inputs[3];
    const Tensor* x_zp = inputs.size() > 4 ? inputs[4] : nullptr;
    NPURT_CHECK_OR_RETURN(x->dtype == DataType::kInt8 || x->dtype == DataType::kInt16, kModelInvalid,
                          "QuantizeLinear: requantizes int8 or int16 codes, got %s", DataTypeName(x->dtype));
    NPURT_CHECK_OR_RETURN(x_scale != nullptr, kModelInvalid, "QuantizeLinear: the input's scale is missing");
    NPURT_RETURN_IF_ERROR(ExpectInputType("QuantizeLinear", x_scale, DataType::kFloat32, 3));
    NPURT_CHECK_OR_RETURN(PerTensor(*x_scale) && PerTensor(*inputs[1]), kModelInvalid,
                          "QuantizeLinear: requantization is per tensor (one input and one output scale)");
    NPURT_CHECK_OR_RETURN(x_zp == nullptr || (x_zp->dtype == x->dtype && x_zp->num_elements() == 1), kModelInvalid,
                          "QuantizeLinear: the input's zero point must be one %s", DataTypeName(x->dtype));
  } else {
    NPURT_RETURN_IF_ERROR(ExpectInputType("QuantizeLinear", x, DataType::kFloat32, 0));
  }
  // Without a zero point the output is uint8 (ONNX).
  const DataType type = zp != nullptr ? zp->dtype : DataType::kUint8;
  QuantRange range{};
  NPURT_CHECK_OR_RETURN(QuantizedRange(type, &range) && type != DataType::kInt32, kModelInvalid,
                        "QuantizeLinear: cannot quantize to %s", DataTypeName(type));
  QuantizeParams params{};
  NPURT_RETURN_IF_ERROR(DescribeQuantization("QuantizeLinear", attrs, *x, inputs[1], zp, &params));
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = type;
  return Status::Ok();
}

Status QuantizePrepare(OpNode* node) {
  auto state = std::make_unique<QuantizeState>();
  NPURT_RETURN_IF_ERROR(DescribeQuantization("QuantizeLinear", node->attrs, *node->inputs[0], node->inputs[1],
                                             node->input(2), &state->params));
  state->params.type = node->outputs[0]->dtype;
  state->requantize = node->inputs.size() > 3;
  ChoosePerTensorKernel(node, state->params.type, state.get(),
                        state->requantize ? "requantize_per_tensor__avx2" : "quantize_per_tensor__avx2");
#if NPURT_HAVE_X86_KERNELS
  // Requantization on AVX-512: one pass over the codes (requantize_codes__avx512).
  state->requantize_avx512 = state->requantize && state->per_tensor_avx2 && ActiveCpuTarget() >= CpuTarget::kAvx512;
  if (state->requantize_avx512) node->kernel = "requantize_codes__avx512";
#endif
  if (state->requantize) node->layout_agnostic = true;  // element-wise, per tensor
  node->state = std::move(state);
  return Status::Ok();
}

// The requantization form: blocks of x dequantized into a float buffer on the stack, then quantized, each
// step by the kernels of DequantizeLinear and QuantizeLinear.
Status RequantizeEval(OpNode* node) {
  const QuantizeState& state = *node->state_as<QuantizeState>();
  const Tensor& x = *node->inputs[0];
  Tensor& y = *node->outputs[0];
  const Tensor* x_zp = node->input(4);
  const Tensor* y_zp = node->input(2);
  const float* x_scale = node->inputs[3]->as<float>();
  const float* y_scale = node->inputs[1]->as<float>();
  const size_t x_elem = DataTypeSize(x.dtype), y_elem = DataTypeSize(y.dtype);
#if NPURT_HAVE_X86_KERNELS
  if (state.requantize_avx512) {
    ParallelFor(x.num_elements(), ThreadsFor(*node, x.num_elements() * 4), [&](int64_t begin, int64_t end) {
      requantize_codes__avx512(x.data, x.dtype, ZeroPointOf(x_zp), x_scale[0], y_scale[0], ZeroPointOf(y_zp), y.dtype,
                               y.data, WorkRange{begin, end});
    });
    return Status::Ok();
  }
#endif
  ParallelFor(x.num_elements(), ThreadsFor(*node, x.num_elements() * 4), [&](int64_t begin, int64_t end) {
    constexpr int64_t kBlock = 1024;
    float real[kBlock];
    for (int64_t at = begin; at < end; at += kBlock) {
      const int64_t n = std::min(kBlock, end - at);
      const void* from = static_cast<const uint8_t*>(x.data) + static_cast<size_t>(at) * x_elem;
      void* to = static_cast<uint8_t*>(y.data) + static_cast<size_t>(at) * y_elem;
#if NPURT_HAVE_X86_KERNELS
      if (state.per_tensor_avx2) {
        dequantize_per_tensor__avx2(from, x.dtype, x_scale[0], ZeroPointOf(x_zp), real, WorkRange{0, n});
        quantize_per_tensor__avx2(real, y_scale[0], ZeroPointOf(y_zp), y.dtype, to, WorkRange{0, n});
        continue;
      }
#endif
      dequantize__ref(QuantizeParams{x.dtype, 1, 1, n}, from, x_scale, x_zp != nullptr ? x_zp->data : nullptr, real);
      quantize__ref(QuantizeParams{y.dtype, 1, 1, n}, real, y_scale, y_zp != nullptr ? y_zp->data : nullptr, to);
    }
  });
  return Status::Ok();
}

Status QuantizeEval(OpNode* node) {
  if (node->state_as<QuantizeState>()->requantize) return RequantizeEval(node);
  const Tensor* zp = node->input(2);
#if NPURT_HAVE_X86_KERNELS
  if (node->state_as<QuantizeState>()->per_tensor_avx2) {
    const Tensor& x = *node->inputs[0];
    Tensor& y = *node->outputs[0];
    const float scale = node->inputs[1]->as<float>()[0];
    const int32_t zero_point = ZeroPointOf(zp);
    ParallelFor(x.num_elements(), ThreadsFor(*node, x.num_elements() * 4), [&](int64_t begin, int64_t end) {
      quantize_per_tensor__avx2(x.as<float>(), scale, zero_point, y.dtype, y.data, WorkRange{begin, end});
    });
    return Status::Ok();
  }
#endif
  quantize__ref(node->state_as<QuantizeState>()->params, node->inputs[0]->as<float>(), node->inputs[1]->as<float>(),
                zp != nullptr ? zp->data : nullptr, node->outputs[0]->data);
  return Status::Ok();
}

// -------------------------------------------------------------- Dequantize

Status DequantizeInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                       std::vector<Tensor>* outputs) {
  const Tensor* x = inputs[0];
  const Tensor* zp = inputs.size() > 2 ? inputs[2] : nullptr;
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "DequantizeLinear: input is missing");
  QuantRange range{};
  NPURT_CHECK_OR_RETURN(QuantizedRange(x->dtype, &range), kModelInvalid, "DequantizeLinear: cannot dequantize %s",
                        DataTypeName(x->dtype));
  if (zp != nullptr) {
    NPURT_CHECK_OR_RETURN(zp->dtype == x->dtype, kModelInvalid,
                          "DequantizeLinear: zero point is %s, input is %s", DataTypeName(zp->dtype),
                          DataTypeName(x->dtype));
  }
  QuantizeParams params{};
  NPURT_RETURN_IF_ERROR(DescribeQuantization("DequantizeLinear", attrs, *x, inputs[1], zp, &params));
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = DataType::kFloat32;
  return Status::Ok();
}

Status DequantizePrepare(OpNode* node) {
  auto state = std::make_unique<QuantizeState>();
  NPURT_RETURN_IF_ERROR(DescribeQuantization("DequantizeLinear", node->attrs, *node->inputs[0], node->inputs[1],
                                             node->input(2), &state->params));
  state->params.type = node->inputs[0]->dtype;
  ChoosePerTensorKernel(node, state->params.type, state.get(), "dequantize_per_tensor__avx2");
  node->state = std::move(state);
  return Status::Ok();
}

Status DequantizeEval(OpNode* node) {
  const Tensor* zp = node->input(2);
#if NPURT_HAVE_X86_KERNELS
  if (node->state_as<QuantizeState>()->per_tensor_avx2) {
    const Tensor& x = *node->inputs[0];
    Tensor& y = *node->outputs[0];
    const float scale = node->inputs[1]->as<float>()[0];
    const int32_t zero_point = ZeroPointOf(zp);
    ParallelFor(x.num_elements(), ThreadsFor(*node, x.num_elements() * 2), [&](int64_t begin, int64_t end) {
      dequantize_per_tensor__avx2(x.data, x.dtype, scale, zero_point, y.as<float>(), WorkRange{begin, end});
    });
    return Status::Ok();
  }
#endif
  dequantize__ref(node->state_as<QuantizeState>()->params, node->inputs[0]->data, node->inputs[1]->as<float>(),
                  zp != nullptr ? zp->data : nullptr, node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpQuantizeLinear = {"QuantizeLinear", 2, 5, 1, 1, QuantizeInfer, QuantizePrepare, QuantizeEval};
extern const OpDef kOpDequantizeLinear = {"DequantizeLinear", 2, 3, 1, 1, DequantizeInfer, DequantizePrepare,
                                          DequantizeEval};

}  // namespace npurt
