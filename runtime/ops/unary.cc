// Elementwise float32 functions of one input, every op of NPURT_UNARY_OPS
// (runtime/kernels/ref/unary.h): activations, math, trigonometry, rounding. Clip takes min/max as attributes
// (opset < 11) or as optional scalar inputs 1 and 2 (opset >= 11); the inputs
// are read at eval, so they need not be constant.
//
// INT8 (quantized models): INT8 in, INT8 out, each with per-tensor
// quantization; prepare tabulates the op for all 256 input codes
// (BuildS8UnaryTable) and eval is one lookup per element (s8_lookup__ref).
// Clip's min/max inputs are FP32 (real values) or INT8 with their own
// quantization; when computed at run time, eval rebuilds the table from them
// first. Relu and Clip also take plain INT8 integers (no quantization
// parameters on any tensor of the node): they only compare values.
//
// INT16 (the hybrid scheme): an int16 input or output (the `output_type`
// attribute, see QuantizedOutputType) computes the formula per element on
// the dequantized value (quantized_unary__ref): 65536 input codes make a
// table pointless for a reference kernel. Clip bounds must then be FP32 or
// INT8. Off the reference target, prepare tabulates that formula for every
// input code instead (at most 65536 entries, 128 KiB), bit for bit the
// reference's, and eval is one lookup per element over the threads; Clip with
// bounds computed at run time keeps the formula.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/unary.h"
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

// An INT8 Clip bound input: float32 (a real value) or INT8 (dequantized with `quant`).
struct ClipBound {
  bool present = false;
  bool is_float = false;
  bool constant = false;
  ActivationQuant quant;  // scale 1, zero point 0 for plain integers
};

struct UnaryState : OpState {
  UnaryParams params;
  // INT8 only.
  ActivationQuant in_q, out_q;  // scale 1, zero point 0 for plain integers
  ClipBound lo, hi;
  bool runtime_bounds = false;  // Clip bounds computed at run time: the table is rebuilt by eval
  bool wide = false;            // an int16 input or output: per-element formula, no table
  int8_t table[kS8TableSize] = {};
  S8LookupParams s8;  // s8.table points at `table`
  // A wide op's outputs for every input code (index: code - min code), in the output type.
  std::vector<uint8_t> wide_table;
};

const char* OpName(UnaryOp op) {
  switch (op) {
#define NPURT_UNARY_NAME(name) \
  case UnaryOp::k##name: return #name;
    NPURT_UNARY_OPS(NPURT_UNARY_NAME)
#undef NPURT_UNARY_NAME
  }
  return "?";
}

// Clip bound `index` (1 = min, 2 = max): attribute or input, never both.
// FP32, or for an INT8 x also INT8.
Status CheckClipBound(const Attributes& attrs, const std::vector<const Tensor*>& inputs, size_t index,
                      const char* attr_name) {
  const Tensor* t = index < inputs.size() ? inputs[index] : nullptr;
  if (t == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(!attrs.Has(attr_name), kModelInvalid, "Clip: %s given both as attribute and as input",
                        attr_name);
  if (!IsQuantizedActivationType(inputs[0]->dtype) || t->dtype != DataType::kInt8) {
    NPURT_RETURN_IF_ERROR(ExpectInputType("Clip", t, DataType::kFloat32, static_cast<int>(index)));
  }
  NPURT_CHECK_OR_RETURN(t->num_elements() == 1, kModelInvalid, "Clip: %s must be a scalar, got shape %s", attr_name,
                        ShapeToString(t->shape).c_str());
  return Status::Ok();
}

// Fills the attribute-driven parameters (everything but count and Clip's inputs).
Status ReadParams(UnaryOp op, const Attributes& attrs, UnaryParams* p) {
  p->op = op;
  switch (op) {
    case UnaryOp::kLeakyRelu: return attrs.GetFloat("alpha", 0.01f, &p->alpha);
    case UnaryOp::kHardSigmoid:
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 0.2f, &p->alpha));
      return attrs.GetFloat("beta", 0.5f, &p->beta);
    case UnaryOp::kClip:
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("min", -std::numeric_limits<float>::infinity(), &p->lo));
      return attrs.GetFloat("max", std::numeric_limits<float>::infinity(), &p->hi);
    case UnaryOp::kElu:
    case UnaryOp::kThresholdedRelu: return attrs.GetFloat("alpha", 1.0f, &p->alpha);
    case UnaryOp::kCelu:
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 1.0f, &p->alpha));
      NPURT_CHECK_OR_RETURN(p->alpha != 0.0f, kModelInvalid, "Celu: alpha must not be 0");
      return Status::Ok();
    case UnaryOp::kSelu:  // ONNX's defaults, written as float32
      NPURT_RETURN_IF_ERROR(attrs.GetFloat("alpha", 1.67326319217681884765625f, &p->alpha));
      return attrs.GetFloat("gamma", 1.05070102214813232421875f, &p->gamma);
    default: return Status::Ok();
  }
}

template <UnaryOp kOp>
Status UnaryInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = OpName(kOp);
  const size_t max_inputs = kOp == UnaryOp::kClip ? 3 : 1;
  NPURT_CHECK_OR_RETURN(!inputs.empty() && inputs.size() <= max_inputs, kModelInvalid, "%s: bad input count %zu",
                        name, inputs.size());
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", name,
                        outputs->size());
  const Tensor* x = inputs[0];
  NPURT_CHECK_OR_RETURN(x != nullptr, kModelInvalid, "%s: input 0 is missing", name);
  const bool quantized = IsQuantizedActivationType(x->dtype);
  if (!quantized) NPURT_RETURN_IF_ERROR(ExpectInputType(name, x, DataType::kFloat32, 0));
  NPURT_CHECK_OR_RETURN(x->num_elements() >= 0, kModelInvalid, "%s: bad input shape %s", name,
                        ShapeToString(x->shape).c_str());
  UnaryParams params;
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, attrs, &params));
  if (kOp == UnaryOp::kClip) {
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 1, "min"));
    NPURT_RETURN_IF_ERROR(CheckClipBound(attrs, inputs, 2, "max"));
  }
  (*outputs)[0].shape = x->shape;
  (*outputs)[0].dtype = x->dtype;
  if (quantized) NPURT_RETURN_IF_ERROR(QuantizedOutputType(name, attrs, x->dtype, &(*outputs)[0].dtype));
  return Status::Ok();
}

// Where INT8 Clip's bound input `index` comes from and how to read its real value.
Status DescribeInt8ClipBound(const OpNode* node, size_t index, const char* role, bool plain, ClipBound* bound) {
  const Tensor* t = node->input(index);
  if (t == nullptr) return Status::Ok();
  NPURT_CHECK_OR_RETURN(t->num_elements() == 1, kModelInvalid, "Clip: %s '%s' must be a scalar", role,
                        t->name.c_str());
  bound->present = true;
  bound->is_float = t->dtype == DataType::kFloat32;
  bound->constant = t->constant;
  if (!bound->is_float && !plain) NPURT_RETURN_IF_ERROR(GetActivationQuant("Clip", *t, role, &bound->quant));
  return Status::Ok();
}

// The real value of a Clip bound described by DescribeInt8ClipBound.
float ReadInt8ClipBound(const Tensor* t, const ClipBound& bound, float fallback) {
  if (!bound.present) return fallback;
  if (bound.is_float) return *t->as<float>();
  return DequantizeValue(*t->as<int8_t>(), bound.quant.scale, bound.quant.zero_point);
}

// (Re)builds the INT8 table; Clip reads its bound inputs first.
void BuildInt8Table(const OpNode* node, UnaryState* state) {
  UnaryParams params = state->params;
  if (params.op == UnaryOp::kClip) {
    params.lo = ReadInt8ClipBound(node->input(1), state->lo, params.lo);
    params.hi = ReadInt8ClipBound(node->input(2), state->hi, params.hi);
  }
  BuildS8UnaryTable(params, state->in_q.scale, state->in_q.zero_point, state->out_q.scale, state->out_q.zero_point,
                    state->table);
}

template <UnaryOp kOp>
Status PrepareInt8(OpNode* node, UnaryState* state) {
  const char* name = OpName(kOp);
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  NPURT_CHECK_OR_RETURN(IsQuantizedActivationType(y.dtype), kModelInvalid, "%s: output '%s' is %s, expected INT8 or INT16",
                        name, y.name.c_str(), DataTypeName(y.dtype));
  state->wide = x.dtype != DataType::kInt8 || y.dtype != DataType::kInt8;
  // Plain integers (no parameters anywhere) for the ops that only compare: scale 1, zero point 0.
  const bool plain = !state->wide && (kOp == UnaryOp::kRelu || kOp == UnaryOp::kClip) && HasNoQuantization(*node);
  if (!plain) {
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, x, "input", &state->in_q));
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, y, "output", &state->out_q));
  }
  if (kOp == UnaryOp::kClip) {
    NPURT_RETURN_IF_ERROR(DescribeInt8ClipBound(node, 1, "min", plain, &state->lo));
    NPURT_RETURN_IF_ERROR(DescribeInt8ClipBound(node, 2, "max", plain, &state->hi));
    state->runtime_bounds = (state->lo.present && !state->lo.constant) || (state->hi.present && !state->hi.constant);
  }
  if (state->wide) return Status::Ok();
  BuildInt8Table(node, state);  // with run-time bounds, rebuilt by every eval
  state->s8.count = state->params.count;
  state->s8.table = state->table;
  return Status::Ok();
}

// The parameters of a wide op's reference formula (Clip's bounds as `lo`, `hi`).
template <UnaryOp kOp>
QuantizedUnaryParams WideParams(const OpNode* node, const UnaryState& state) {
  QuantizedUnaryParams q;
  q.unary = state.params;
  if (kOp == UnaryOp::kClip) {
    q.unary.lo = ReadInt8ClipBound(node->input(1), state.lo, q.unary.lo);
    q.unary.hi = ReadInt8ClipBound(node->input(2), state.hi, q.unary.hi);
  }
  q.in_scale = state.in_q.scale;
  q.in_zero_point = state.in_q.zero_point;
  q.out_scale = state.out_q.scale;
  q.out_zero_point = state.out_q.zero_point;
  return q;
}

// Every input code through the reference formula, once.
template <UnaryOp kOp>
void BuildWideTable(const OpNode* node, UnaryState* state) {
  const DataType in = node->inputs[0]->dtype, out = node->outputs[0]->dtype;
  const int32_t lo = in == DataType::kInt16 ? -32768 : -128, count = in == DataType::kInt16 ? 65536 : 256;
  std::vector<int16_t> codes16(static_cast<size_t>(count));
  std::vector<int8_t> codes8(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    codes16[static_cast<size_t>(i)] = static_cast<int16_t>(lo + i);
    codes8[static_cast<size_t>(i)] = static_cast<int8_t>(lo + i);
  }
  QuantizedUnaryParams q = WideParams<kOp>(node, *state);
  q.unary.count = count;
  state->wide_table.resize(static_cast<size_t>(count) * DataTypeSize(out));
  quantized_unary__ref(q, in, in == DataType::kInt16 ? static_cast<const void*>(codes16.data()) : codes8.data(), out,
                       state->wide_table.data());
}

template <typename In, typename Out>
void WideLookup(const Out* table, const In* x, Out* y, int64_t begin, int64_t end) {
  constexpr int32_t kMin = std::numeric_limits<In>::min();
  for (int64_t i = begin; i < end; ++i) y[i] = table[static_cast<int32_t>(x[i]) - kMin];
}

template <UnaryOp kOp>
Status UnaryPrepare(OpNode* node) {
  node->layout_agnostic = true;  // elementwise; Clip's bounds are single values
  auto state = std::make_unique<UnaryState>();
  NPURT_RETURN_IF_ERROR(ReadParams(kOp, node->attrs, &state->params));
  state->params.count = node->inputs[0]->num_elements();
  if (IsQuantizedActivationType(node->inputs[0]->dtype)) {
    NPURT_RETURN_IF_ERROR(PrepareInt8<kOp>(node, state.get()));
    if (state->wide && !state->runtime_bounds && ActiveCpuTarget() != CpuTarget::kRef) {
      BuildWideTable<kOp>(node, state.get());
      node->kernel = "quantized_unary__table";
    }
  }
  node->state = std::move(state);
  return Status::Ok();
}

template <UnaryOp kOp>
Status UnaryEval(OpNode* node) {
  UnaryState* state = node->state_as<UnaryState>();
  if (state->wide && !state->wide_table.empty()) {
    const Tensor& x = *node->inputs[0];
    Tensor& y = *node->outputs[0];
    const bool in16 = x.dtype == DataType::kInt16, out16 = y.dtype == DataType::kInt16;
    ParallelFor(x.num_elements(), ThreadsFor(*node, x.num_elements()), [&](int64_t begin, int64_t end) {
      const uint8_t* table = state->wide_table.data();
      if (in16 && out16) {
        WideLookup(reinterpret_cast<const int16_t*>(table), x.as<int16_t>(), y.as<int16_t>(), begin, end);
      } else if (in16) {
        WideLookup(reinterpret_cast<const int8_t*>(table), x.as<int16_t>(), y.as<int8_t>(), begin, end);
      } else {
        WideLookup(reinterpret_cast<const int16_t*>(table), x.as<int8_t>(), y.as<int16_t>(), begin, end);
      }
    });
    return Status::Ok();
  }
  if (state->wide) {
    const QuantizedUnaryParams q = WideParams<kOp>(node, *state);
    quantized_unary__ref(q, node->inputs[0]->dtype, node->inputs[0]->data, node->outputs[0]->dtype,
                         node->outputs[0]->data);
    return Status::Ok();
  }
  if (node->outputs[0]->dtype == DataType::kInt8) {
    if (state->runtime_bounds) BuildInt8Table(node, state);  // 256 entries, no allocation
    s8_lookup__ref(state->s8, node->inputs[0]->as<int8_t>(), node->outputs[0]->as<int8_t>());
    return Status::Ok();
  }
  UnaryParams params = state->params;
  if (kOp == UnaryOp::kClip) {
    if (const Tensor* lo = node->input(1)) params.lo = *lo->as<float>();
    if (const Tensor* hi = node->input(2)) params.hi = *hi->as<float>();
  }
  f32_unary__ref(params, node->inputs[0]->as<float>(), node->outputs[0]->as<float>());
  return Status::Ok();
}

}  // namespace

#define NPURT_UNARY_OPDEF(name)                                                                          \
  extern const OpDef kOp##name = {#name, 1, UnaryOp::k##name == UnaryOp::kClip ? 3 : 1, 1, 1,           \
                                  UnaryInfer<UnaryOp::k##name>, UnaryPrepare<UnaryOp::k##name>,          \
                                  UnaryEval<UnaryOp::k##name>, /*view=*/false,                           \
                                  UnaryOp::k##name == UnaryOp::kRelu || UnaryOp::k##name == UnaryOp::kAbs};
NPURT_UNARY_OPS(NPURT_UNARY_OPDEF)
#undef NPURT_UNARY_OPDEF

}  // namespace npurt
