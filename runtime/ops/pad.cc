// Pad: mode constant (default), reflect, edge or wrap (opset 19). Pads come from attribute
// `pads` (opset < 11, with float attribute `value`) or constant input 1
// (opset >= 11, optional input 2 constant_value, opset 18 optional input 3
// axes), laid out [x1_begin, x2_begin, ..., x1_end, x2_end, ...].
// Negative pads crop. As in onnxruntime, cropping happens first and reflect/
// edge/wrap then mirror, repeat or cycle the cropped region.
//
// Element copies serve every type. Quantized (INT8 with quantization
// parameters) data keeps its parameters (the output must carry the same) and
// the pad value is a real value quantized with them: attribute `value` or a
// float32 constant_value directly, an INT8 constant_value after dequantizing
// it with its own parameters; 0.0 pads with the zero point.
#include "runtime/kernels/ref/pad.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

struct PadDim {
  int64_t crop_begin;  // input elements dropped at the start
  int64_t kept;        // input elements kept
  int64_t pad_begin;   // output elements added before the kept ones
  int64_t out;
};

struct PadPlan {
  PadMode mode = PadMode::kConstant;
  std::vector<PadDim> dims;
};

struct PadState : OpState {
  std::vector<int64_t> out_shape;
  std::vector<int64_t> out_block;
  std::vector<int64_t> in_strides;
  std::vector<std::vector<int64_t>> maps;
  std::vector<const int64_t*> map_ptrs;
  uint64_t attr_value = 0;  // constant from attribute `value` (or 0), converted to the element type
  // Quantized data: the constant_value input is quantized with the data's parameters at eval.
  bool quantized = false;
  ActivationQuant data_quant;
  ActivationQuant value_quant;  // of an INT8 constant_value
  uint64_t input_value = 0;     // constant_value, quantized
  PadParams params;
};

template <typename T>
void StoreSaturated(double v, void* out) {
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  T t = 0;
  if (v <= lo) {
    t = std::numeric_limits<T>::lowest();
  } else if (v >= hi) {
    t = std::numeric_limits<T>::max();
  } else if (v == v) {
    t = static_cast<T>(v);
  }
  std::memcpy(out, &t, sizeof(T));
}

// Converts the float attribute `value` to the tensor's element type.
void StoreValue(DataType type, float v, void* out) {
  switch (type) {
    case DataType::kFloat32: std::memcpy(out, &v, 4); break;
    case DataType::kFloat16: {
      const uint16_t h = FloatToHalf(v);
      std::memcpy(out, &h, 2);
      break;
    }
    case DataType::kInt8: StoreSaturated<int8_t>(v, out); break;
    case DataType::kUint8: StoreSaturated<uint8_t>(v, out); break;
    case DataType::kInt16: StoreSaturated<int16_t>(v, out); break;
    case DataType::kUint16: StoreSaturated<uint16_t>(v, out); break;
    case DataType::kInt32: StoreSaturated<int32_t>(v, out); break;
    case DataType::kUint32: StoreSaturated<uint32_t>(v, out); break;
    case DataType::kInt64: StoreSaturated<int64_t>(v, out); break;
    case DataType::kBool: *static_cast<uint8_t*>(out) = v != 0.0f ? 1 : 0; break;
  }
}

const Tensor* InputOrNull(const std::vector<const Tensor*>& inputs, size_t i) {
  return i < inputs.size() ? inputs[i] : nullptr;
}

Status MakePadPlan(const Attributes& attrs, const std::vector<const Tensor*>& inputs, PadPlan* plan) {
  const Tensor* x = InputOrNull(inputs, 0);
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "Pad: input 0 is missing");
  NPURT_CHECK_OR_RETURN(DataTypeSize(x->dtype) != 0, kModelInvalid, "Pad: unknown element type");
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "Pad: bad input shape %s",
                        ShapeToString(x->shape).c_str());
  const int rank = x->rank();

  std::string mode;
  NPURT_RETURN_IF_ERROR(attrs.GetString("mode", "constant", &mode));
  if (mode == "constant") {
    plan->mode = PadMode::kConstant;
  } else if (mode == "reflect") {
    plan->mode = PadMode::kReflect;
  } else if (mode == "edge") {
    plan->mode = PadMode::kEdge;
  } else if (mode == "wrap") {  // opset 19
    plan->mode = PadMode::kWrap;
  } else {
    return NPURT_ERROR(kModelInvalid, "Pad: mode '%s' is not supported", mode.c_str());
  }

  std::vector<int64_t> pads;
  const Tensor* t_pads = InputOrNull(inputs, 1);
  if (t_pads != nullptr) {
    NPURT_CHECK_OR_RETURN(t_pads->rank() == 1, kModelInvalid, "Pad: input 'pads' must be 1-D");
    NPURT_RETURN_IF_ERROR(ReadIntValues("Pad", t_pads, &pads));
  } else {
    NPURT_CHECK_OR_RETURN(attrs.Has("pads"), kModelInvalid, "Pad: needs 'pads' (attribute or input 1)");
    NPURT_RETURN_IF_ERROR(attrs.GetInts("pads", {}, &pads));
  }

  const Tensor* t_value = InputOrNull(inputs, 2);
  if (t_value != nullptr) {
    // Quantized data may take a real (float32) pad value.
    const bool real_for_int8 = x->dtype == DataType::kInt8 && t_value->dtype == DataType::kFloat32;
    NPURT_CHECK_OR_RETURN(t_value->dtype == x->dtype || real_for_int8, kModelInvalid,
                          "Pad: constant_value has type %s, data has %s", DataTypeName(t_value->dtype),
                          DataTypeName(x->dtype));
    NPURT_CHECK_OR_RETURN(t_value->num_elements() >= 0 && t_value->num_elements() <= 1, kModelInvalid,
                          "Pad: constant_value must be a scalar");
  }

  // Axes the pads apply to; all dims by default.
  std::vector<int> axes;
  const Tensor* t_axes = InputOrNull(inputs, 3);
  if (t_axes != nullptr) {
    NPURT_CHECK_OR_RETURN(t_axes->rank() == 1, kModelInvalid, "Pad: input 'axes' must be 1-D");
    std::vector<int64_t> raw;
    NPURT_RETURN_IF_ERROR(ReadIntValues("Pad", t_axes, &raw));
    std::vector<bool> seen(rank, false);
    for (int64_t a : raw) {
      int axis = 0;
      NPURT_RETURN_IF_ERROR(NormalizeAxis("Pad", a, rank, &axis));
      NPURT_CHECK_OR_RETURN(!seen[axis], kModelInvalid, "Pad: axis %d is repeated", axis);
      seen[axis] = true;
      axes.push_back(axis);
    }
  } else {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  }
  const size_t n = axes.size();
  NPURT_CHECK_OR_RETURN(pads.size() == 2 * n, kModelInvalid, "Pad: %zu pads for %zu axes (expected %zu)", pads.size(),
                        n, 2 * n);

  plan->dims.resize(rank);
  for (int d = 0; d < rank; ++d) plan->dims[d] = PadDim{0, x->shape[d], 0, x->shape[d]};
  for (size_t i = 0; i < n; ++i) {
    const int axis = axes[i];
    const int64_t dim = x->shape[axis];
    const int64_t begin = pads[i];
    const int64_t end = pads[i + n];
    PadDim& p = plan->dims[axis];
    // Compare before negating so INT64_MIN cannot overflow.
    NPURT_CHECK_OR_RETURN(begin >= -dim && end >= -dim, kModelInvalid, "Pad: pads crop more than dim %d has", axis);
    p.crop_begin = begin < 0 ? -begin : 0;
    const int64_t crop_end = end < 0 ? -end : 0;
    NPURT_CHECK_OR_RETURN(p.crop_begin + crop_end <= dim, kModelInvalid, "Pad: pads crop more than dim %d has", axis);
    p.kept = dim - p.crop_begin - crop_end;
    p.pad_begin = begin > 0 ? begin : 0;
    const int64_t pad_end = end > 0 ? end : 0;
    constexpr int64_t kMaxPad = int64_t{1} << 40;  // keeps the sums below far from overflow
    NPURT_CHECK_OR_RETURN(p.pad_begin <= kMaxPad && pad_end <= kMaxPad, kModelInvalid,
                          "Pad: pad on dim %d is too large", axis);
    p.out = p.kept + p.pad_begin + pad_end;
    if (p.pad_begin > 0 || pad_end > 0) {
      if (plan->mode == PadMode::kEdge || plan->mode == PadMode::kWrap) {
        NPURT_CHECK_OR_RETURN(p.kept >= 1, kModelInvalid, "Pad: %s mode needs a non-empty dim %d",
                              plan->mode == PadMode::kEdge ? "edge" : "wrap", axis);
      } else if (plan->mode == PadMode::kReflect) {
        NPURT_CHECK_OR_RETURN(p.kept >= 2 && p.pad_begin < p.kept && pad_end < p.kept, kModelInvalid,
                              "Pad: reflect pads on dim %d must be smaller than the dim (%" PRId64 ")", axis, p.kept);
      }
    }
  }
  Shape out(rank);
  for (int d = 0; d < rank; ++d) out[d] = plan->dims[d].out;
  NPURT_CHECK_OR_RETURN(
      NumElements(out) >= 0 && NumElements(out) <= INT64_MAX / static_cast<int64_t>(DataTypeSize(x->dtype)),
      kModelInvalid, "Pad: output shape %s is too large", ShapeToString(out).c_str());
  return Status::Ok();
}

Status PadInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  PadPlan plan;
  NPURT_RETURN_IF_ERROR(MakePadPlan(attrs, inputs, &plan));
  Shape out;
  for (const PadDim& p : plan.dims) out.push_back(p.out);
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

// Input index for output index `o` of one dim, or -1 for the constant.
int64_t MapIndex(const PadDim& p, PadMode mode, int64_t o) {
  int64_t j = o - p.pad_begin;  // position relative to the kept region
  if (j < 0 || j >= p.kept) {
    switch (mode) {
      case PadMode::kConstant: return -1;
      case PadMode::kEdge: j = std::clamp<int64_t>(j, 0, p.kept - 1); break;
      case PadMode::kReflect: j = j < 0 ? -j : 2 * (p.kept - 1) - j; break;
      case PadMode::kWrap: j = (j % p.kept + p.kept) % p.kept; break;  // pads may exceed the dim
    }
  }
  return p.crop_begin + j;
}

Status PadPrepare(OpNode* node) {
  const Tensor* x = node->inputs[0];
  std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  PadPlan plan;
  NPURT_RETURN_IF_ERROR(MakePadPlan(node->attrs, inputs, &plan));
  const int rank = x->rank();

  auto state = std::make_unique<PadState>();
  state->out_shape.resize(rank);
  state->out_block.assign(rank, 1);
  state->in_strides.assign(rank, 1);
  state->maps.resize(rank);
  for (int d = 0; d < rank; ++d) {
    const PadDim& p = plan.dims[d];
    state->out_shape[d] = p.out;
    state->maps[d].resize(static_cast<size_t>(p.out));
    for (int64_t o = 0; o < p.out; ++o) state->maps[d][o] = MapIndex(p, plan.mode, o);
    state->map_ptrs.push_back(state->maps[d].data());
  }
  for (int d = rank - 2; d >= 0; --d) {
    state->out_block[d] = state->out_block[d + 1] * state->out_shape[d + 1];
    state->in_strides[d] = state->in_strides[d + 1] * x->shape[d + 1];
  }
  float value = 0.0f;
  NPURT_RETURN_IF_ERROR(node->attrs.GetFloat("value", 0.0f, &value));
  StoreValue(x->dtype, value, &state->attr_value);
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Pad", *x, *node->outputs[0]));
  const Tensor* t_value = node->input(2);
  if (x->dtype == DataType::kInt8 && !x->quant.empty()) {
    state->quantized = true;
    NPURT_RETURN_IF_ERROR(GetActivationQuant("Pad", *x, "data", &state->data_quant));
    const int8_t code = static_cast<int8_t>(
        QuantizeValue(value, state->data_quant.scale, state->data_quant.zero_point, -128, 127));
    std::memcpy(&state->attr_value, &code, 1);
    if (t_value != nullptr && t_value->dtype == DataType::kInt8 && t_value->num_elements() == 1) {
      NPURT_RETURN_IF_ERROR(GetActivationQuant("Pad", *t_value, "constant_value", &state->value_quant));
    }
  } else if (t_value != nullptr) {
    NPURT_CHECK_OR_RETURN(t_value->dtype == x->dtype, kModelInvalid,
                          "Pad: a %s constant_value needs quantization parameters on the %s data '%s'",
                          DataTypeName(t_value->dtype), DataTypeName(x->dtype), x->name.c_str());
  }

  state->params.rank = rank;
  state->params.element_size = DataTypeSize(x->dtype);
  state->params.out_shape = state->out_shape.data();
  state->params.out_block = state->out_block.data();
  state->params.in_strides = state->in_strides.data();
  state->params.index_maps = state->map_ptrs.data();
  state->params.constant_value = &state->attr_value;
  node->state = std::move(state);
  return Status::Ok();
}

Status PadEval(OpNode* node) {
  PadState* state = node->state_as<PadState>();
  // constant_value may be computed at run time, so it is read here.
  const Tensor* t_value = node->input(2);
  if (state->quantized && t_value != nullptr && t_value->num_elements() == 1) {
    const ActivationQuant& d = state->data_quant;
    const float real = t_value->dtype == DataType::kFloat32
                           ? *t_value->as<float>()
                           : DequantizeValue(*t_value->as<int8_t>(), state->value_quant.scale,
                                             state->value_quant.zero_point);
    const int8_t code = static_cast<int8_t>(QuantizeValue(real, d.scale, d.zero_point, -128, 127));
    std::memcpy(&state->input_value, &code, 1);
    state->params.constant_value = &state->input_value;
  } else {
    state->params.constant_value = t_value != nullptr && t_value->num_elements() == 1
                                       ? t_value->data
                                       : static_cast<const void*>(&state->attr_value);
  }
  pad__ref(state->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpPad = {"Pad", 1, 4, 1, 1, PadInfer, PadPrepare, PadEval};

}  // namespace npurt
