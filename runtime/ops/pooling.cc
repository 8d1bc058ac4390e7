// MaxPool, AveragePool (1-D to 3-D windows: kernel_shape, strides, pads,
// dilations, ceil_mode, auto_pad, count_include_pad), GlobalAveragePool and
// GlobalMaxPool. MaxPool's optional Indices output (numbered as storage_order
// says) runs the reference kernel.
//
// INT8 (quantized models): INT8 in, INT8 out, each with per-tensor
// quantization (the output's may differ: MaxPool then requantizes the
// largest code, the averages quantize the mean real value with the output's
// parameters); see runtime/kernels/ref/pooling.h. MaxPool and GlobalMaxPool
// also take plain INT8 integers (no quantization parameters): they only compare.
#include <cinttypes>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/portable/avg_pool_nhwc.h"
#include "runtime/kernels/portable/global_pool_nhwc.h"
#include "runtime/kernels/portable/max_pool_nhwc.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/ref/pooling.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/max_pool_nhwc_avx2.h"
#endif
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"
#include "runtime/ops/window_attributes.h"

namespace npurt {
namespace {

struct PoolState : OpState {
  PoolParams params;
  S8PoolParams s8;  // INT8 only
  // 2-D MaxPool of float or of codes kept as they are, 2-D AveragePool of int8 / int16 codes: run
  // channels-last (kernels/portable/max_pool_nhwc.h, avg_pool_nhwc.h), staging an NCHW input or output in
  // the node's scratch.
  bool nhwc = false;
  // The channels-last kernel for the tensor type, chosen at prepare (the AVX2 build where the CPU has it);
  // an average pool's reads avg_params (its window: nhwc_params too).
  void (*nhwc_kernel)(const PoolState& state, const void* in, void* out, WorkRange rows) = nullptr;
  PoolNhwcParams nhwc_params;
  AvgPoolNhwcParams avg_params;
  size_t staged_input_bytes = 0;
  // MaxPool with its Indices output (reference kernel, NCHW).
  bool with_indices = false;
  bool column_major = false;
  int spatial_dims = 2;
};

// A channels-last MaxPool / AveragePool kernel of element type T behind the state's untyped pointer.
template <typename T, void (*kKernel)(const PoolNhwcParams&, const T*, T*, WorkRange)>
void NhwcMaxPoolOf(const PoolState& state, const void* in, void* out, WorkRange rows) {
  kKernel(state.nhwc_params, static_cast<const T*>(in), static_cast<T*>(out), rows);
}
template <typename T, void (*kKernel)(const AvgPoolNhwcParams&, const T*, T*, WorkRange)>
void NhwcAvgPoolOf(const PoolState& state, const void* in, void* out, WorkRange rows) {
  kKernel(state.avg_params, static_cast<const T*>(in), static_cast<T*>(out), rows);
}

struct GlobalPoolState : OpState {
  S8GlobalPoolParams s8;  // INT8 only
};

// The input and output parameters of an INT8 pool. Max pools only compare:
// plain integers (no parameters on input or output) run as scale 1, zero point 0.
Status ReadPoolQuant(const char* op, PoolKind kind, const OpNode* node, ActivationQuant* in, ActivationQuant* out) {
  const Tensor& y = *node->outputs[0];
  NPURT_CHECK_OR_RETURN(y.dtype == node->inputs[0]->dtype, kModelInvalid, "%s: output '%s' is %s, expected %s", op,
                        y.name.c_str(), DataTypeName(y.dtype), DataTypeName(node->inputs[0]->dtype));
  if (kind == PoolKind::kMax && y.dtype == DataType::kInt8 && HasNoQuantization(*node)) return Status::Ok();
  NPURT_RETURN_IF_ERROR(GetActivationQuant(op, *node->inputs[0], "input", in));
  return GetActivationQuant(op, y, "output", out);
}

Status ReadFlag(const char* op, const Attributes& attrs, const char* name, bool* out) {
  int64_t v = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt(name, 0, &v));
  NPURT_CHECK_OR_RETURN(v == 0 || v == 1, kModelInvalid, "%s: %s is %" PRId64 ", expected 0 or 1", op, name, v);
  *out = v == 1;
  return Status::Ok();
}

// MaxPool's storage_order: how Indices number the spatial positions (1: first dim fastest).
Status ReadStorageOrder(const Attributes& attrs, bool* column_major) {
  int64_t order = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("storage_order", 0, &order));
  NPURT_CHECK_OR_RETURN(order == 0 || order == 1, kModelInvalid, "MaxPool: storage_order is %" PRId64 ", expected 0 or 1",
                        order);
  if (column_major != nullptr) *column_major = order == 1;
  return Status::Ok();
}

// X must be a float or INT8 NCHW-style tensor with 1 to `max_spatial` spatial dims, all positive.
Status CheckPoolInput(const char* op, const Tensor* x, int max_spatial) {
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", op);
  if (!IsQuantizedActivationType(x->dtype)) NPURT_RETURN_IF_ERROR(ExpectInputType(op, x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->rank() >= 3 && x->rank() <= 2 + max_spatial, kModelInvalid,
                        "%s: input rank %d, expected 3 to %d", op, x->rank(), 2 + max_spatial);
  for (int64_t d : x->shape) {
    NPURT_CHECK_OR_RETURN(d > 0, kModelInvalid, "%s: bad input shape %s", op, ShapeToString(x->shape).c_str());
  }
  NPURT_CHECK_OR_RETURN(x->num_elements() > 0, kModelInvalid, "%s: input too large", op);
  return Status::Ok();
}

// Validates a MaxPool / AveragePool node and computes the kernel params and output shape.
Status PlanPool(const char* op, PoolKind kind, const Attributes& attrs, const Tensor* x, PoolParams* p,
                Shape* out_shape) {
  NPURT_RETURN_IF_ERROR(CheckPoolInput(op, x, 3));
  const size_t spatial = static_cast<size_t>(x->rank() - 2);
  for (size_t i = 0; i < spatial; ++i) {
    NPURT_CHECK_OR_RETURN(x->shape[i + 2] <= kMaxExtent, kModelInvalid, "%s: spatial dim too large", op);
  }
  std::vector<int64_t> kernel, strides, dilations, pads;
  NPURT_RETURN_IF_ERROR(attrs.GetInts("kernel_shape", {}, &kernel));
  NPURT_CHECK_OR_RETURN(kernel.size() == spatial, kModelInvalid, "%s: kernel_shape has %zu values, expected %zu", op,
                        kernel.size(), spatial);
  NPURT_RETURN_IF_ERROR(ReadSpatialInts(op, attrs, "kernel_shape", spatial, 1, 1, &kernel));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts(op, attrs, "strides", spatial, 1, 1, &strides));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts(op, attrs, "dilations", spatial, 1, 1, &dilations));
  NPURT_RETURN_IF_ERROR(ReadSpatialInts(op, attrs, "pads", 2 * spatial, 0, 0, &pads));
  bool ceil_mode = false;
  NPURT_RETURN_IF_ERROR(ReadFlag(op, attrs, "ceil_mode", &ceil_mode));
  p->count_include_pad = false;
  if (kind == PoolKind::kAverage) {
    NPURT_RETURN_IF_ERROR(ReadFlag(op, attrs, "count_include_pad", &p->count_include_pad));
  }
  AutoPad auto_pad = AutoPad::kNotSet;
  NPURT_RETURN_IF_ERROR(ParseAutoPad(op, attrs, &auto_pad));

  p->kind = kind;
  p->planes = x->shape[0] * x->shape[1];
  *out_shape = {x->shape[0], x->shape[1]};
  const size_t slot0 = 3 - spatial;  // 1-D and 2-D fill the trailing slots of (D, H, W)
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = x->shape[i + 2];
    const int64_t s = strides[i];
    const int64_t extent = (kernel[i] - 1) * dilations[i] + 1;
    int64_t pad_begin = 0, pad_end = 0, out = 0;
    if (auto_pad == AutoPad::kSameUpper || auto_pad == AutoPad::kSameLower) {
      SamePadding(auto_pad, in, s, extent, &out, &pad_begin, &pad_end);
    } else {
      if (auto_pad == AutoPad::kNotSet) {
        pad_begin = pads[i];
        pad_end = pads[i + spatial];
        // As ONNX Runtime: a pad as wide as the window would make windows of padding only.
        NPURT_CHECK_OR_RETURN(pad_begin < kernel[i] && pad_end < kernel[i], kModelInvalid,
                              "%s: pads must be smaller than kernel_shape on spatial dim %zu", op, i);
      }
      const int64_t span = in + pad_begin + pad_end - extent;
      NPURT_CHECK_OR_RETURN(span >= 0, kModelInvalid,
                            "%s: window extent %" PRId64 " exceeds padded input on spatial dim %zu", op, extent, i);
      // VALID ignores ceil_mode: ONNX gives the same size either way.
      if (ceil_mode && auto_pad == AutoPad::kNotSet) {
        out = (span + s - 1) / s + 1;
        // ONNX drops a last window that would start inside the end padding.
        if ((out - 1) * s >= in + pad_begin) --out;
      } else {
        out = span / s + 1;
      }
    }
    p->in[slot0 + i] = in;
    p->out[slot0 + i] = out;
    p->kernel[slot0 + i] = kernel[i];
    p->stride[slot0 + i] = s;
    p->dilation[slot0 + i] = dilations[i];
    p->pad_begin[slot0 + i] = pad_begin;
    p->pad_end[slot0 + i] = pad_end;
    out_shape->push_back(out);
  }
  return Status::Ok();
}

template <PoolKind kKind>
const char* PoolName() {
  return kKind == PoolKind::kMax ? "MaxPool" : "AveragePool";
}

template <PoolKind kKind>
Status PoolInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* op = PoolName<kKind>();
  PoolParams params;
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanPool(op, kKind, attrs, inputs.empty() ? nullptr : inputs[0], &params, &shape));
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  if (outputs->size() == 2) {  // MaxPool's Indices
    NPURT_RETURN_IF_ERROR(ReadStorageOrder(attrs, nullptr));
    (*outputs)[1].shape = shape;
    (*outputs)[1].dtype = DataType::kInt64;
  }
  return Status::Ok();
}

// The channels-last window of a 2-D pool and its staging bytes (an NCHW input, then an NCHW output).
void SetNhwcWindow(OpNode* node, PoolState* state) {
  const PoolParams& p = state->params;
  const Tensor& x = *node->inputs[0];
  const DataType t = x.dtype;
  PoolNhwcParams& n = state->nhwc_params;
  n.batch = x.shape[0], n.channels = x.shape[1];
  n.in_h = p.in[1], n.in_w = p.in[2], n.out_h = p.out[1], n.out_w = p.out[2];
  n.kernel_h = p.kernel[1], n.kernel_w = p.kernel[2], n.stride_h = p.stride[1], n.stride_w = p.stride[2];
  n.dilation_h = p.dilation[1], n.dilation_w = p.dilation[2], n.pad_top = p.pad_begin[1], n.pad_left = p.pad_begin[2];
  const size_t elem = DataTypeSize(t);
  state->staged_input_bytes = (static_cast<size_t>(x.num_elements()) * elem + 63) & ~size_t{63};
  node->scratch_bytes = state->staged_input_bytes + static_cast<size_t>(node->outputs[0]->num_elements()) * elem;
  node->channels_last_io = true;
  state->nhwc = true;
}

// A 2-D MaxPool of float, or of int8 / int16 codes whose input and output parameters agree (no
// requantization), takes the channels-last kernel: the layout pass may then keep its tensors NHWC.
void ChooseNhwcMaxPool(OpNode* node, PoolState* state) {
  const Tensor& x = *node->inputs[0];
  const DataType t = x.dtype;
  const bool same_codes = (t == DataType::kInt8 || t == DataType::kInt16) &&
                          state->s8.in_scale == state->s8.out_scale &&
                          state->s8.in_zero_point == state->s8.out_zero_point;
  if (ActiveCpuTarget() == CpuTarget::kRef || x.rank() != 4 || (t != DataType::kFloat32 && !same_codes)) return;
  SetNhwcWindow(node, state);
  node->kernel = "max_pool__nhwc";
  state->nhwc_kernel = t == DataType::kFloat32 ? NhwcMaxPoolOf<float, f32_max_pool__nhwc>
                       : t == DataType::kInt16 ? NhwcMaxPoolOf<int16_t, s16_max_pool__nhwc>
                                               : NhwcMaxPoolOf<int8_t, s8_max_pool__nhwc>;
#if NPURT_HAVE_X86_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) {
    node->kernel = "max_pool__nhwc_avx2";
    state->nhwc_kernel = t == DataType::kFloat32 ? NhwcMaxPoolOf<float, f32_max_pool__nhwc_avx2>
                         : t == DataType::kInt16 ? NhwcMaxPoolOf<int16_t, s16_max_pool__nhwc_avx2>
                                                 : NhwcMaxPoolOf<int8_t, s8_max_pool__nhwc_avx2>;
  }
#endif
}

// A 2-D AveragePool of int8 / int16 codes (any parameters: the mean is requantized) takes the
// channels-last kernel, when its sums fit int32.
void ChooseNhwcAvgPool(OpNode* node, PoolState* state) {
  const PoolParams& p = state->params;
  const Tensor& x = *node->inputs[0];
  const DataType t = x.dtype;
  if (ActiveCpuTarget() == CpuTarget::kRef || x.rank() != 4 || (t != DataType::kInt8 && t != DataType::kInt16) ||
      p.kernel[1] * p.kernel[2] > kAvgPoolNhwcMaxTaps) {
    return;
  }
  SetNhwcWindow(node, state);
  AvgPoolNhwcParams& a = state->avg_params;
  a.window = state->nhwc_params;
  a.pad_bottom = p.pad_end[1], a.pad_right = p.pad_end[2];
  a.count_include_pad = p.count_include_pad;
  a.in_scale = state->s8.in_scale, a.in_zero_point = state->s8.in_zero_point;
  a.out_scale = state->s8.out_scale, a.out_zero_point = state->s8.out_zero_point;
  node->kernel = "avg_pool__nhwc";
  state->nhwc_kernel = t == DataType::kInt16 ? NhwcAvgPoolOf<int16_t, s16_avg_pool__nhwc>
                                             : NhwcAvgPoolOf<int8_t, s8_avg_pool__nhwc>;
}


template <PoolKind kKind>
Status PoolPrepare(OpNode* node) {
  auto state = std::make_unique<PoolState>();
  Shape shape;
  NPURT_RETURN_IF_ERROR(PlanPool(PoolName<kKind>(), kKind, node->attrs, node->input(0), &state->params, &shape));
  if (IsQuantizedActivationType(node->inputs[0]->dtype)) {
    ActivationQuant in, out;
    NPURT_RETURN_IF_ERROR(ReadPoolQuant(PoolName<kKind>(), kKind, node, &in, &out));
    state->s8.pool = state->params;
    state->s8.in_scale = in.scale;
    state->s8.in_zero_point = in.zero_point;
    state->s8.out_scale = out.scale;
    state->s8.out_zero_point = out.zero_point;
  }
  if (kKind == PoolKind::kMax && node->outputs.size() == 2) {
    state->with_indices = true;
    state->spatial_dims = node->inputs[0]->rank() - 2;
    NPURT_RETURN_IF_ERROR(ReadStorageOrder(node->attrs, &state->column_major));
    const bool same_codes = state->s8.in_scale == state->s8.out_scale &&
                            state->s8.in_zero_point == state->s8.out_zero_point;
    NPURT_CHECK_OR_RETURN(!IsQuantizedActivationType(node->inputs[0]->dtype) || same_codes, kModelInvalid,
                          "MaxPool: with Indices, a quantized output must keep the input's scale and zero point");
  } else if (kKind == PoolKind::kMax) {
    ChooseNhwcMaxPool(node, state.get());
  } else {
    ChooseNhwcAvgPool(node, state.get());
  }
  node->state = std::move(state);
  return Status::Ok();
}

// MaxPool / AveragePool on channels-last tensors (either may be NCHW: staged through the scratch), threads over output rows.
Status NhwcPoolEval(OpNode* node, const PoolState& state) {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const PoolNhwcParams& p = state.nhwc_params;
  const size_t elem = DataTypeSize(y.dtype);
  const int64_t in_spatial = p.in_h * p.in_w, out_spatial = p.out_h * p.out_w;
  const void* in = x.data;
  if (!x.channels_last) {
    ParallelFor(p.batch * in_spatial, ThreadsFor(*node, x.num_elements()), [&](int64_t begin, int64_t end) {
      nchw_to_nhwc(x.data, node->scratch, p.batch, p.channels, in_spatial, elem, WorkRange{begin, end});
    });
    in = node->scratch;
  }
  uint8_t* staged_output = node->scratch + state.staged_input_bytes;
  void* out = y.channels_last ? y.data : staged_output;
  const int64_t taps = p.kernel_h * p.kernel_w;
  ParallelFor(p.batch * p.out_h, ThreadsFor(*node, y.num_elements() * taps), [&](int64_t begin, int64_t end) {
    state.nhwc_kernel(state, in, out, WorkRange{begin, end});
  });
  if (!y.channels_last) {
    ParallelFor(p.batch * out_spatial, ThreadsFor(*node, y.num_elements()), [&](int64_t begin, int64_t end) {
      nhwc_to_nchw(staged_output, y.data, p.batch, p.channels, out_spatial, elem, WorkRange{begin, end});
    });
  }
  return Status::Ok();
}

// Threads split the planes (N * C): each slice is the same pool on fewer planes.
Status PoolEval(OpNode* node) {
  const PoolState* state = node->state_as<PoolState>();
  if (state->nhwc) return NhwcPoolEval(node, *state);
  const PoolParams& p = state->params;
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2], out_plane = p.out[0] * p.out[1] * p.out[2];
  const int64_t taps = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const size_t elem = DataTypeSize(y.dtype);
  ParallelFor(p.planes, ThreadsFor(*node, y.num_elements() * taps), [&](int64_t begin, int64_t end) {
    const uint8_t* in = x.as<uint8_t>() + static_cast<size_t>(begin * in_plane) * elem;
    uint8_t* out = y.as<uint8_t>() + static_cast<size_t>(begin * out_plane) * elem;
    if (state->with_indices) {
      PoolParams slice = p;
      slice.planes = end - begin;
      int64_t* indices = node->outputs[1]->as<int64_t>() + begin * out_plane;
      const int64_t base = begin * in_plane;
      if (y.dtype == DataType::kInt8) {
        max_pool_with_indices__ref(slice, state->spatial_dims, state->column_major, base,
                                   reinterpret_cast<const int8_t*>(in), reinterpret_cast<int8_t*>(out), indices);
      } else if (y.dtype == DataType::kInt16) {
        max_pool_with_indices__ref(slice, state->spatial_dims, state->column_major, base,
                                   reinterpret_cast<const int16_t*>(in), reinterpret_cast<int16_t*>(out), indices);
      } else {
        max_pool_with_indices__ref(slice, state->spatial_dims, state->column_major, base,
                                   reinterpret_cast<const float*>(in), reinterpret_cast<float*>(out), indices);
      }
    } else if (IsQuantizedActivationType(y.dtype)) {
      S8PoolParams slice = state->s8;
      slice.pool.planes = end - begin;
      quantized_pool__ref(slice, y.dtype, in, out);
    } else {
      PoolParams slice = p;
      slice.planes = end - begin;
      f32_pool__ref(slice, reinterpret_cast<const float*>(in), reinterpret_cast<float*>(out));
    }
  });
  return Status::Ok();
}

// ---- Global pools: any number of spatial dims, each reduced to 1. ----

template <PoolKind kKind>
const char* GlobalPoolName() {
  return kKind == PoolKind::kMax ? "GlobalMaxPool" : "GlobalAveragePool";
}

template <PoolKind kKind>
Status GlobalPoolInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                       std::vector<Tensor>* outputs) {
  (void)attrs;
  const Tensor* x = inputs.empty() ? nullptr : inputs[0];
  NPURT_RETURN_IF_ERROR(CheckPoolInput(GlobalPoolName<kKind>(), x, 64));
  Shape shape(x->shape.size(), 1);
  shape[0] = x->shape[0];
  shape[1] = x->shape[1];
  (*outputs)[0].shape = shape;
  (*outputs)[0].dtype = x->dtype;
  return Status::Ok();
}

template <PoolKind kKind>
Status GlobalPoolPrepare(OpNode* node) {
  auto state = std::make_unique<GlobalPoolState>();
  const Tensor* x = node->inputs[0];
  if (IsQuantizedActivationType(x->dtype)) {
    ActivationQuant in, out;
    NPURT_RETURN_IF_ERROR(ReadPoolQuant(GlobalPoolName<kKind>(), kKind, node, &in, &out));
    S8GlobalPoolParams& p = state->s8;
    p.kind = kKind;
    p.planes = x->shape[0] * x->shape[1];
    p.plane_size = x->num_elements() / p.planes;
    p.in_scale = in.scale;
    p.in_zero_point = in.zero_point;
    p.out_scale = out.scale;
    p.out_zero_point = out.zero_point;
  }
  // A channels-last input reduces in place (global_pool_nhwc.h); the (N, C, 1, 1) output has one layout.
  node->channels_last_io = x->rank() == 4;
  node->channels_last_kernel = "global_pool__nhwc";
  node->state = std::move(state);
  return Status::Ok();
}

template <PoolKind kKind>
Status GlobalPoolEval(OpNode* node) {
  // Threads split the planes (N * C): each slice is the same pool on fewer planes.
  const Tensor* x = node->inputs[0];
  const int64_t planes = x->shape[0] * x->shape[1], plane_size = x->num_elements() / planes;
  const size_t elem = DataTypeSize(x->dtype);
  if (x->channels_last) {
    ParallelFor(planes, ThreadsFor(*node, x->num_elements()), [&](int64_t begin, int64_t end) {
      const WorkRange range{begin, end};
      if (IsQuantizedActivationType(x->dtype)) {
        quantized_global_pool__nhwc(node->state_as<GlobalPoolState>()->s8, x->shape[1], x->dtype, x->data,
                                    node->outputs[0]->data, range);
      } else {
        f32_global_pool__nhwc(kKind, x->shape[1], planes, plane_size, x->as<float>(), node->outputs[0]->as<float>(),
                              range);
      }
    });
    return Status::Ok();
  }
  ParallelFor(planes, ThreadsFor(*node, x->num_elements()), [&](int64_t begin, int64_t end) {
    const uint8_t* in = x->as<uint8_t>() + static_cast<size_t>(begin * plane_size) * elem;
    uint8_t* out = node->outputs[0]->as<uint8_t>() + static_cast<size_t>(begin) * elem;
    if (IsQuantizedActivationType(x->dtype)) {
      S8GlobalPoolParams slice = node->state_as<GlobalPoolState>()->s8;
      slice.planes = end - begin;
      quantized_global_pool__ref(slice, x->dtype, in, out);
    } else {
      f32_global_pool__ref(kKind, end - begin, plane_size, reinterpret_cast<const float*>(in),
                           reinterpret_cast<float*>(out));
    }
  });
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpMaxPool = {"MaxPool", 1, 1, 1, 2, PoolInfer<PoolKind::kMax>, PoolPrepare<PoolKind::kMax>,
                                 PoolEval, /*view=*/false, /*keeps_half_values=*/true};
extern const OpDef kOpAveragePool = {"AveragePool", 1, 1, 1, 1, PoolInfer<PoolKind::kAverage>,
                                     PoolPrepare<PoolKind::kAverage>, PoolEval};
extern const OpDef kOpGlobalAveragePool = {"GlobalAveragePool", 1, 1, 1, 1, GlobalPoolInfer<PoolKind::kAverage>,
                                           GlobalPoolPrepare<PoolKind::kAverage>, GlobalPoolEval<PoolKind::kAverage>};
extern const OpDef kOpGlobalMaxPool = {"GlobalMaxPool", 1, 1, 1, 1, GlobalPoolInfer<PoolKind::kMax>,
                                       GlobalPoolPrepare<PoolKind::kMax>, GlobalPoolEval<PoolKind::kMax>, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
