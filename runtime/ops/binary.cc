// Elementwise binary ops with numpy (multidirectional) broadcasting: Add, Sub,
// Mul, Div, Max, Min, Pow, PRelu. Max and Min are variadic (1..N inputs, all
// broadcast together); PRelu's slope broadcasts to X only. Add may carry an
// activation fused by the compiler: string attribute `activation`, "" or "Relu".
//
// INT8 (quantized models): every op takes INT8 inputs with per-tensor
// quantization and gives an INT8 output quantized with the output tensor's
// parameters; the result is computed on the real values (binary.h). PRelu's
// slope and Pow's exponent may instead be float32 (used as real values). Max
// and Min also take plain INT8 integers (no quantization parameters on any
// tensor of the node): they only compare values.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/binary.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/binary_avx2.h"
#include "runtime/kernels/x86/binary_avx512.h"
#endif
#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct BinaryState : OpState {
  // Step 0 combines inputs 0 and 1 (input 0 with itself for a one-input Max or
  // Min); step k >= 1 combines the output so far with input k + 1. So with 3+
  // inputs the output must not share memory with inputs 2 onward.
  std::vector<BinaryParams> steps;
  // INT8 path: the same steps (intermediate results carry the output's
  // quantization, which is exact for Max and Min, the only variadic ops).
  std::vector<S8BinaryParams> s8_steps;
  bool s8_avx512 = false;   // one step of int8 / int16 codes that quantized_binary__avx512 takes
  bool f32_avx512 = false;  // one float step that f32_binary__avx512 takes
  // Without AVX-512 (or with a float second operand): one step that the AVX2 kernels take.
  bool quantized_avx2 = false;
  bool f32_avx2 = false;
  // The same steps over the channels-last order, when the node may run channels-last with
  // broadcasting operands (see ChannelsLastOperands); empty otherwise.
  std::vector<BinaryParams> nhwc_steps;
  std::vector<S8BinaryParams> nhwc_s8_steps;
};

// (N, C, H, W) -> (N, H, W, C): the order in which a channels-last tensor's bytes lie.
Shape ChannelsLastOrder(const Shape& s) { return {s[0], s[2], s[3], s[1]}; }

// A broadcasting operand right-aligned to rank 4, when its bytes read the same in both layouts
// (one channel or one spatial position: a per-channel scale, an SE gate, a spatial mask); else empty.
Shape LayoutInvariantOperand(const Shape& s) {
  if (s.size() > 4) return {};
  Shape padded(4 - s.size(), 1);
  padded.insert(padded.end(), s.begin(), s.end());
  return padded[1] == 1 || padded[2] * padded[3] == 1 ? padded : Shape{};
}

// The node may keep its activations channels-last when every input has the output's shape, is a
// single value, or broadcasts layout-invariantly into a rank-4 output. `*needs_plans` says whether
// some operand broadcasts (then eval walks plans over the channels-last order).
bool ChannelsLastOperands(const OpNode& node, bool* needs_plans) {
  const Shape& out = node.outputs[0]->shape;
  *needs_plans = false;
  for (const Tensor* t : node.inputs) {
    if (t->shape == out || t->num_elements() == 1) continue;
    if (out.size() != 4 || LayoutInvariantOperand(t->shape).empty()) return false;
    *needs_plans = true;
  }
  return true;
}

const char* OpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "Add";
    case BinaryOp::kSub: return "Sub";
    case BinaryOp::kMul: return "Mul";
    case BinaryOp::kDiv: return "Div";
    case BinaryOp::kMax: return "Max";
    case BinaryOp::kMin: return "Min";
    case BinaryOp::kPow: return "Pow";
    case BinaryOp::kPRelu: return "PRelu";
  }
  return "?";
}

bool IsVariadic(BinaryOp op) { return op == BinaryOp::kMax || op == BinaryOp::kMin; }

// Quantized inputs: all INT8 or INT16 (mixed freely, the hybrid scheme),
// except that PRelu's slope and Pow's exponent may be float32.
Status CheckInt8Types(BinaryOp op, const std::vector<const Tensor*>& inputs) {
  const char* name = OpName(op);
  for (size_t i = 1; i < inputs.size(); ++i) {
    const DataType t = inputs[i]->dtype;
    // A float32 operand is used as is (real values): PRelu's slope, Pow's exponent, and the constant
    // operand of an arithmetic op, which then loses nothing to quantization.
    if (t == DataType::kFloat32 && inputs.size() == 2 && op != BinaryOp::kMax && op != BinaryOp::kMin) continue;
    NPURT_CHECK_OR_RETURN(IsQuantizedActivationType(t), kModelInvalid,
                          "%s: input %zu has type %s; with a quantized input 0 it must be INT8 or INT16%s", name, i,
                          DataTypeName(t), IsVariadic(op) ? "" : " or FP32");
  }
  return Status::Ok();
}

Status CheckTypes(BinaryOp op, const std::vector<const Tensor*>& inputs) {
  const char* name = OpName(op);
  const DataType t0 = inputs[0]->dtype;
  if (IsQuantizedActivationType(t0)) return CheckInt8Types(op, inputs);
  if (op == BinaryOp::kPow) {
    NPURT_RETURN_IF_ERROR(ExpectInputType(name, inputs[0], DataType::kFloat32, 0));
    NPURT_CHECK_OR_RETURN(IsArithmeticType(inputs[1]->dtype), kModelInvalid,
                          "Pow: exponent has type %s, expected FP32, INT32 or INT64",
                          DataTypeName(inputs[1]->dtype));
    return Status::Ok();
  }
  if (op == BinaryOp::kPRelu) {
    NPURT_RETURN_IF_ERROR(ExpectInputType(name, inputs[0], DataType::kFloat32, 0));
    return ExpectInputType(name, inputs[1], DataType::kFloat32, 1);
  }
  NPURT_CHECK_OR_RETURN(IsArithmeticType(t0), kModelInvalid, "%s: input type %s is not supported", name,
                        DataTypeName(t0));
  for (size_t i = 1; i < inputs.size(); ++i) {
    NPURT_RETURN_IF_ERROR(ExpectInputType(name, inputs[i], t0, static_cast<int>(i)));
  }
  return Status::Ok();
}

Status ReadActivation(BinaryOp op, const Attributes& attrs, bool* relu) {
  std::string activation;
  NPURT_RETURN_IF_ERROR(attrs.GetString("activation", "", &activation));
  if (activation.empty()) {
    *relu = false;
    return Status::Ok();
  }
  NPURT_CHECK_OR_RETURN(op == BinaryOp::kAdd, kModelInvalid, "%s: fused activation is supported on Add only",
                        OpName(op));
  NPURT_CHECK_OR_RETURN(activation == "Relu", kModelInvalid, "Add: unsupported fused activation '%s'",
                        activation.c_str());
  *relu = true;
  return Status::Ok();
}

template <BinaryOp kOp>
Status BinaryInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  const char* name = OpName(kOp);
  if (IsVariadic(kOp)) {
    NPURT_CHECK_OR_RETURN(!inputs.empty(), kModelInvalid, "%s: needs at least one input", name);
  } else {
    NPURT_CHECK_OR_RETURN(inputs.size() == 2, kModelInvalid, "%s: expects 2 inputs, got %zu", name, inputs.size());
  }
  NPURT_CHECK_OR_RETURN(outputs->size() == 1, kModelInvalid, "%s: expects 1 output, got %zu", name,
                        outputs->size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    NPURT_CHECK_OR_RETURN(inputs[i] != nullptr, kModelInvalid, "%s: input %zu is missing", name, i);
    NPURT_CHECK_OR_RETURN(inputs[i]->num_elements() >= 0, kModelInvalid, "%s: input %zu has bad shape %s", name, i,
                          ShapeToString(inputs[i]->shape).c_str());
  }
  NPURT_RETURN_IF_ERROR(CheckTypes(kOp, inputs));
  bool relu = false;
  NPURT_RETURN_IF_ERROR(ReadActivation(kOp, attrs, &relu));

  Shape out = inputs[0]->shape;
  if (kOp == BinaryOp::kPRelu) {
    NPURT_CHECK_OR_RETURN(BroadcastsTo(inputs[1]->shape, out), kModelInvalid,
                          "PRelu: slope shape %s does not broadcast to X shape %s",
                          ShapeToString(inputs[1]->shape).c_str(), ShapeToString(out).c_str());
  } else {
    for (size_t i = 1; i < inputs.size(); ++i) {
      Shape next;
      NPURT_CHECK_OR_RETURN(BroadcastShapes(out, inputs[i]->shape, &next), kModelInvalid,
                            "%s: shapes %s and %s do not broadcast", name, ShapeToString(out).c_str(),
                            ShapeToString(inputs[i]->shape).c_str());
      out = std::move(next);
    }
  }
  NPURT_CHECK_OR_RETURN(NumElements(out) >= 0, kModelInvalid, "%s: output shape %s is too large", name,
                        ShapeToString(out).c_str());
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = inputs[0]->dtype;
  if (IsQuantizedActivationType(inputs[0]->dtype)) {
    NPURT_RETURN_IF_ERROR(QuantizedOutputType(OpName(kOp), attrs, inputs[0]->dtype, &(*outputs)[0].dtype));
  }
  return Status::Ok();
}

// Fills state->s8_steps from the plans in state->steps and the tensors' quantization.
template <BinaryOp kOp>
Status PrepareInt8(OpNode* node, bool relu, BinaryState* state) {
  const char* name = OpName(kOp);
  std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(CheckTypes(kOp, inputs));
  NPURT_CHECK_OR_RETURN(IsQuantizedActivationType(node->outputs[0]->dtype), kModelInvalid,
                        "%s: output '%s' is %s, expected INT8 or INT16 for quantized inputs", name,
                        node->outputs[0]->name.c_str(), DataTypeName(node->outputs[0]->dtype));
  // Max and Min only compare: plain integers (no parameters anywhere) run as scale 1, zero point 0.
  // (int8 or int16, one type throughout: ONNX integer Max/Min)
  const DataType out_type = node->outputs[0]->dtype;
  const bool one_type =
      std::all_of(inputs.begin(), inputs.end(), [out_type](const Tensor* t) { return t->dtype == out_type; });
  const bool plain = one_type && IsVariadic(kOp) && HasNoQuantization(*node);
  ActivationQuant out_q;
  std::vector<ActivationQuant> in_q(inputs.size());
  if (!plain) {
    NPURT_RETURN_IF_ERROR(GetActivationQuant(name, *node->outputs[0], "output", &out_q));
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]->dtype == DataType::kFloat32) continue;  // a float32 slope / exponent
      char role[32];
      snprintf(role, sizeof(role), "input %zu", i);
      NPURT_RETURN_IF_ERROR(GetActivationQuant(name, *inputs[i], role, &in_q[i]));
    }
  }
  const size_t n = inputs.size();
  state->s8_steps.resize(state->steps.size());
  for (size_t k = 0; k < state->steps.size(); ++k) {
    S8BinaryParams& p = state->s8_steps[k];
    p.op = kOp;
    p.plan = state->steps[k].plan;
    const ActivationQuant& a = k == 0 ? in_q[0] : out_q;
    const ActivationQuant& b = in_q[n == 1 ? 0 : k + 1];
    p.a_scale = a.scale;
    p.a_zero_point = a.zero_point;
    p.b_scale = b.scale;
    p.b_zero_point = b.zero_point;
    p.out_scale = out_q.scale;
    p.out_zero_point = out_q.zero_point;
    p.activation.kind = relu ? FusedActivation::kRelu : FusedActivation::kNone;
  }
  return Status::Ok();
}

// Whether the kernel prepare chose also takes the channels-last plans.
bool ChannelsLastPlansRun(const BinaryState& state) {
#if NPURT_HAVE_X86_KERNELS
  if (state.f32_avx512) return f32_binary__avx512_supports(state.nhwc_steps[0]);
  if (state.f32_avx2) return f32_binary__avx2_supports(state.nhwc_steps[0]);
  if (state.s8_avx512) return s8_binary__avx512_supports(state.nhwc_s8_steps[0]);
  if (state.quantized_avx2) return quantized_binary__avx2_supports(state.nhwc_s8_steps[0]);
#endif
  (void)state;
  return true;  // the reference kernels walk any plan
}

template <BinaryOp kOp>
Status BinaryPrepare(OpNode* node) {
  const char* name = OpName(kOp);
  auto state = std::make_unique<BinaryState>();
  const Shape& out = node->outputs[0]->shape;
  const size_t n = node->inputs.size();
  bool relu = false;
  NPURT_RETURN_IF_ERROR(ReadActivation(kOp, node->attrs, &relu));
  const size_t num_steps = std::max<size_t>(n, 2) - 1;
  // The steps' plans over the shapes as `order` lays them out.
  auto make_steps = [&](Shape (*order)(const Shape&), std::vector<BinaryParams>* steps) {
    const Shape out_order = order(out);
    steps->resize(num_steps);
    for (size_t k = 0; k < num_steps; ++k) {
      BinaryParams& p = (*steps)[k];
      p.op = kOp;
      p.relu = relu;
      const Shape a = k == 0 ? order(node->inputs[0]->shape) : out_order;
      const Shape b = order(node->inputs[n == 1 ? 0 : k + 1]->shape);
      const Shape* operands[2] = {&a, &b};
      NPURT_CHECK_OR_RETURN(MakeBroadcastPlan(out_order, operands, 2, &p.plan), kModelInvalid,
                            "%s: inputs do not broadcast to output shape %s", name, ShapeToString(out).c_str());
    }
    return Status::Ok();
  };
  NPURT_RETURN_IF_ERROR(make_steps([](const Shape& s) { return s; }, &state->steps));
  bool needs_plans = false;
  node->layout_agnostic = ChannelsLastOperands(*node, &needs_plans);
  if (node->layout_agnostic && needs_plans) {
    NPURT_RETURN_IF_ERROR(make_steps(
        [](const Shape& s) {
          const Shape padded = s.size() == 4 ? s : LayoutInvariantOperand(s);
          return padded.size() == 4 ? ChannelsLastOrder(padded) : s;  // a single value stays as it is
        },
        &state->nhwc_steps));
  }
#if NPURT_HAVE_X86_KERNELS
  state->f32_avx512 = ActiveCpuTarget() >= CpuTarget::kAvx512 && n == 2 &&
                      node->inputs[0]->dtype == DataType::kFloat32 && node->inputs[1]->dtype == DataType::kFloat32 &&
                      node->outputs[0]->dtype == DataType::kFloat32 && f32_binary__avx512_supports(state->steps[0]);
  if (state->f32_avx512) node->kernel = "f32_binary__avx512";
  state->f32_avx2 = !state->f32_avx512 && ActiveCpuTarget() >= CpuTarget::kAvx2 && n == 2 &&
                    node->inputs[0]->dtype == DataType::kFloat32 && node->inputs[1]->dtype == DataType::kFloat32 &&
                    node->outputs[0]->dtype == DataType::kFloat32 && f32_binary__avx2_supports(state->steps[0]);
  if (state->f32_avx2) node->kernel = "f32_binary__avx2";
#endif
  if (IsQuantizedActivationType(node->inputs[0]->dtype)) {
    NPURT_RETURN_IF_ERROR(PrepareInt8<kOp>(node, relu, state.get()));
#if NPURT_HAVE_X86_KERNELS
    const auto quantized = [](const Tensor* x) {
      return x->dtype == DataType::kInt8 || x->dtype == DataType::kInt16;
    };
    // Any int8 / int16 mix of the operands and the output.
    state->s8_avx512 = ActiveCpuTarget() >= CpuTarget::kAvx512 && n == 2 && state->s8_steps.size() == 1 &&
                       quantized(node->inputs[0]) && quantized(node->inputs[1]) && quantized(node->outputs[0]) &&
                       s8_binary__avx512_supports(state->s8_steps[0]);
    if (state->s8_avx512) node->kernel = "quantized_binary__avx512";
    state->quantized_avx2 = !state->s8_avx512 && ActiveCpuTarget() >= CpuTarget::kAvx2 && n == 2 &&
                            state->s8_steps.size() == 1 && quantized(node->inputs[0]) &&
                            (quantized(node->inputs[1]) || node->inputs[1]->dtype == DataType::kFloat32) &&
                            quantized(node->outputs[0]) &&
                            quantized_binary__avx2_supports(state->s8_steps[0]);
    if (state->quantized_avx2) node->kernel = "quantized_binary__avx2";
#endif
    state->nhwc_s8_steps = state->s8_steps;
    for (size_t k = 0; k < state->nhwc_steps.size(); ++k) state->nhwc_s8_steps[k].plan = state->nhwc_steps[k].plan;
  }
  if (!state->nhwc_steps.empty() && !ChannelsLastPlansRun(*state)) {
    node->layout_agnostic = false;  // the chosen kernel walks only the NCHW plan: keep the ONNX layout
    state->nhwc_steps.clear();
    state->nhwc_s8_steps.clear();
  }
  node->state = std::move(state);
  return Status::Ok();
}

template <BinaryOp kOp>
Status BinaryEval(OpNode* node) {
  const BinaryState* state = node->state_as<BinaryState>();
  Tensor* out = node->outputs[0];
  const bool nhwc = out->channels_last && !state->nhwc_steps.empty();
  const std::vector<BinaryParams>& steps = nhwc ? state->nhwc_steps : state->steps;
  const std::vector<S8BinaryParams>& s8_steps = nhwc ? state->nhwc_s8_steps : state->s8_steps;
  const size_t n = node->inputs.size();
  if (IsQuantizedActivationType(out->dtype)) {
#if NPURT_HAVE_X86_KERNELS
    if (state->s8_avx512) {
      const Tensor* a = node->inputs[0];
      const Tensor* b = node->inputs[1];
      ParallelFor(out->num_elements(), ThreadsFor(*node, out->num_elements() * 8), [&](int64_t begin, int64_t end) {
        quantized_binary__avx512(s8_steps[0], a->dtype, a->data, b->dtype, b->data, out->dtype, out->data,
                                 WorkRange{begin, end});
      });
      return Status::Ok();
    }
    if (state->quantized_avx2) {
      const Tensor* a = node->inputs[0];
      const Tensor* b = node->inputs[1];
      ParallelFor(out->num_elements(), ThreadsFor(*node, out->num_elements() * 8), [&](int64_t begin, int64_t end) {
        quantized_binary__avx2(s8_steps[0], a->dtype, a->data, b->dtype, b->data, out->dtype, out->data,
                               WorkRange{begin, end});
      });
      return Status::Ok();
    }
#endif
    for (size_t k = 0; k < steps.size(); ++k) {
      const Tensor* a = k == 0 ? node->inputs[0] : out;
      const Tensor* b = node->inputs[n == 1 ? 0 : k + 1];
      quantized_binary__ref(s8_steps[k], a->dtype, a->data, b->dtype, b->data, out->dtype, out->data);
    }
    return Status::Ok();
  }
#if NPURT_HAVE_X86_KERNELS
  if (state->f32_avx512) {
    ParallelFor(out->num_elements(), ThreadsFor(*node, out->num_elements() * 2), [&](int64_t begin, int64_t end) {
      f32_binary__avx512(steps[0], node->inputs[0]->as<float>(), node->inputs[1]->as<float>(), out->as<float>(),
                         WorkRange{begin, end});
    });
    return Status::Ok();
  }
  if (state->f32_avx2) {
    ParallelFor(out->num_elements(), ThreadsFor(*node, out->num_elements() * 2), [&](int64_t begin, int64_t end) {
      f32_binary__avx2(steps[0], node->inputs[0]->as<float>(), node->inputs[1]->as<float>(), out->as<float>(),
                       WorkRange{begin, end});
    });
    return Status::Ok();
  }
#endif
  for (size_t k = 0; k < steps.size(); ++k) {
    const Tensor* a = k == 0 ? node->inputs[0] : out;
    const Tensor* b = node->inputs[n == 1 ? 0 : k + 1];
    if (kOp == BinaryOp::kPow && b->dtype == DataType::kInt32) {
      f32_pow_i32__ref(steps[k], a->as<float>(), b->as<int32_t>(), out->as<float>());
    } else if (kOp == BinaryOp::kPow && b->dtype == DataType::kInt64) {
      f32_pow_i64__ref(steps[k], a->as<float>(), b->as<int64_t>(), out->as<float>());
    } else if (out->dtype == DataType::kInt32) {
      i32_binary__ref(steps[k], a->as<int32_t>(), b->as<int32_t>(), out->as<int32_t>());
    } else if (out->dtype == DataType::kInt64) {
      i64_binary__ref(steps[k], a->as<int64_t>(), b->as<int64_t>(), out->as<int64_t>());
    } else {
      f32_binary__ref(steps[k], a->as<float>(), b->as<float>(), out->as<float>());
    }
  }
  return Status::Ok();
}

constexpr int kVariadic = std::numeric_limits<int>::max();

}  // namespace

extern const OpDef kOpAdd = {"Add", 2, 2, 1, 1, BinaryInfer<BinaryOp::kAdd>, BinaryPrepare<BinaryOp::kAdd>,
    BinaryEval<BinaryOp::kAdd>};
extern const OpDef kOpSub = {"Sub", 2, 2, 1, 1, BinaryInfer<BinaryOp::kSub>, BinaryPrepare<BinaryOp::kSub>,
    BinaryEval<BinaryOp::kSub>};
extern const OpDef kOpMul = {"Mul", 2, 2, 1, 1, BinaryInfer<BinaryOp::kMul>, BinaryPrepare<BinaryOp::kMul>,
    BinaryEval<BinaryOp::kMul>};
extern const OpDef kOpDiv = {"Div", 2, 2, 1, 1, BinaryInfer<BinaryOp::kDiv>, BinaryPrepare<BinaryOp::kDiv>,
    BinaryEval<BinaryOp::kDiv>};
extern const OpDef kOpMax = {"Max", 1, kVariadic, 1, 1, BinaryInfer<BinaryOp::kMax>, BinaryPrepare<BinaryOp::kMax>,
    BinaryEval<BinaryOp::kMax>, /*view=*/false, /*keeps_half_values=*/true};
extern const OpDef kOpMin = {"Min", 1, kVariadic, 1, 1, BinaryInfer<BinaryOp::kMin>, BinaryPrepare<BinaryOp::kMin>,
    BinaryEval<BinaryOp::kMin>, /*view=*/false, /*keeps_half_values=*/true};
extern const OpDef kOpPow = {"Pow", 2, 2, 1, 1, BinaryInfer<BinaryOp::kPow>, BinaryPrepare<BinaryOp::kPow>,
    BinaryEval<BinaryOp::kPow>};
extern const OpDef kOpPRelu = {"PRelu", 2, 2, 1, 1, BinaryInfer<BinaryOp::kPRelu>, BinaryPrepare<BinaryOp::kPRelu>,
    BinaryEval<BinaryOp::kPRelu>};

}  // namespace npurt
