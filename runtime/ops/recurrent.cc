// RNN, GRU and LSTM (opsets 7 and 14): inputs X, W, R, optional B, sequence_lens (int32), initial_h
// (LSTM also initial_c and the peepholes P); outputs Y, Y_h (LSTM also Y_c), each optional. Attributes
// hidden_size, direction (forward, reverse, bidirectional), activations (one comma-separated string:
// the converter joins ONNX's list), activation_alpha / activation_beta (taken in order by the
// activations that have them), clip, layout (14: batch-major), input_forget (LSTM),
// linear_before_reset (GRU). Float32 (runtime/kernels/ref/recurrent.h).
#include <cinttypes>
#include <string>

#include "runtime/kernels/ref/recurrent.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct RecurrentState : OpState {
  RecurrentParams params;
};

const char* Name(RecurrentCell cell) {
  return cell == RecurrentCell::kLstm ? "LSTM" : cell == RecurrentCell::kGru ? "GRU" : "RNN";
}

Status ParseActivation(const char* op, const std::string& name, const std::vector<float>& alphas,
                       const std::vector<float>& betas, size_t* next_alpha, size_t* next_beta, RecurrentFunction* f) {
  struct Known {
    const char* name;
    RecurrentActivation kind;
    int params;  // 0, 1 (alpha) or 2 (alpha, beta)
    float alpha, beta;
  };
  static const Known kKnown[] = {
      {"Sigmoid", RecurrentActivation::kSigmoid, 0, 0, 0},          {"Tanh", RecurrentActivation::kTanh, 0, 0, 0},
      {"Relu", RecurrentActivation::kRelu, 0, 0, 0},                {"HardSigmoid", RecurrentActivation::kHardSigmoid, 2, 0.2f, 0.5f},
      {"LeakyRelu", RecurrentActivation::kLeakyRelu, 1, 0.01f, 0},  {"ThresholdedRelu", RecurrentActivation::kThresholdedRelu, 1, 1.0f, 0},
      {"ScaledTanh", RecurrentActivation::kScaledTanh, 2, 1, 1},    {"Affine", RecurrentActivation::kAffine, 2, 1, 0},
      {"Elu", RecurrentActivation::kElu, 1, 1.0f, 0},               {"Softsign", RecurrentActivation::kSoftsign, 0, 0, 0},
      {"Softplus", RecurrentActivation::kSoftplus, 0, 0, 0},
  };
  for (const Known& k : kKnown) {
    if (name != k.name) continue;
    f->kind = k.kind;
    f->alpha = k.params >= 1 && *next_alpha < alphas.size() ? alphas[(*next_alpha)++] : k.alpha;
    f->beta = k.params >= 2 && *next_beta < betas.size() ? betas[(*next_beta)++] : k.beta;
    return Status::Ok();
  }
  return NPURT_ERROR(kModelInvalid, "%s: activation '%s' is not supported", op, name.c_str());
}

Status MakeParams(RecurrentCell cell, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                  RecurrentParams* p) {
  const char* op = Name(cell);
  NPURT_CHECK_OR_RETURN(inputs.size() >= 3 && inputs[0] != nullptr && inputs[1] != nullptr && inputs[2] != nullptr,
                        kModelInvalid, "%s: needs X, W and R", op);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || i == 4) continue;
    NPURT_RETURN_IF_ERROR(ExpectInputType(op, inputs[i], DataType::kFloat32, static_cast<int>(i)));
  }
  const int gates = RecurrentGates(cell);
  p->cell = cell;
  std::string direction;
  NPURT_RETURN_IF_ERROR(attrs.GetString("direction", "forward", &direction));
  NPURT_CHECK_OR_RETURN(direction == "forward" || direction == "reverse" || direction == "bidirectional",
                        kModelInvalid, "%s: direction '%s' is not forward, reverse or bidirectional", op,
                        direction.c_str());
  p->directions = direction == "bidirectional" ? 2 : 1;
  p->reverse = direction == "reverse";
  int64_t layout = 0, hidden = 0, flag = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("layout", 0, &layout));
  NPURT_CHECK_OR_RETURN(layout == 0 || layout == 1, kModelInvalid, "%s: layout must be 0 or 1", op);
  p->batch_major = layout == 1;
  NPURT_RETURN_IF_ERROR(attrs.GetFloat("clip", 0.0f, &p->clip));
  NPURT_RETURN_IF_ERROR(attrs.GetInt("input_forget", 0, &flag));
  p->input_forget = cell == RecurrentCell::kLstm && flag != 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("linear_before_reset", 0, &flag));
  p->linear_before_reset = cell == RecurrentCell::kGru && flag != 0;
  const Tensor& x = *inputs[0];
  const Tensor& w = *inputs[1];
  const Tensor& r = *inputs[2];
  NPURT_CHECK_OR_RETURN(x.rank() == 3 && w.rank() == 3 && r.rank() == 3, kModelInvalid,
                        "%s: X, W and R must be 3-D", op);
  p->seq = x.shape[p->batch_major ? 1 : 0];
  p->batch = x.shape[p->batch_major ? 0 : 1];
  p->input = x.shape[2];
  NPURT_RETURN_IF_ERROR(attrs.GetInt("hidden_size", w.shape[1] / gates, &hidden));
  p->hidden = hidden;
  const int64_t dirs = p->directions, gh = gates * hidden;
  NPURT_CHECK_OR_RETURN(hidden >= 1 && w.shape == (Shape{dirs, gh, p->input}) && r.shape == (Shape{dirs, gh, hidden}),
                        kModelInvalid, "%s: W %s and R %s do not match %" PRId64 " direction(s), hidden size %" PRId64
                        " and input size %" PRId64, op, ShapeToString(w.shape).c_str(), ShapeToString(r.shape).c_str(),
                        dirs, hidden, p->input);
  auto optional = [&](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  if (const Tensor* b = optional(3)) {
    NPURT_CHECK_OR_RETURN(b->shape == (Shape{dirs, 2 * gh}), kModelInvalid, "%s: B has shape %s", op,
                          ShapeToString(b->shape).c_str());
  }
  if (const Tensor* lengths = optional(4)) {
    NPURT_CHECK_OR_RETURN(lengths->dtype == DataType::kInt32 && lengths->shape == Shape{p->batch}, kModelInvalid,
                          "%s: sequence_lens must be INT32 [%" PRId64 "]", op, p->batch);
  }
  const Shape state = p->batch_major ? Shape{p->batch, dirs, hidden} : Shape{dirs, p->batch, hidden};
  for (size_t i : {size_t{5}, size_t{6}}) {
    if (i == 6 && cell != RecurrentCell::kLstm) continue;
    if (const Tensor* s = optional(i)) {
      NPURT_CHECK_OR_RETURN(s->shape == state, kModelInvalid, "%s: input %zu has shape %s, expected %s", op, i,
                            ShapeToString(s->shape).c_str(), ShapeToString(state).c_str());
    }
  }
  if (const Tensor* peep = cell == RecurrentCell::kLstm ? optional(7) : nullptr) {
    NPURT_CHECK_OR_RETURN(peep->shape == (Shape{dirs, 3 * hidden}), kModelInvalid, "LSTM: P has shape %s",
                          ShapeToString(peep->shape).c_str());
  }
  // Activations: per direction f, g (GRU), f, g, h (LSTM), or f (RNN); one direction's list serves both.
  const int per_direction = cell == RecurrentCell::kLstm ? 3 : cell == RecurrentCell::kGru ? 2 : 1;
  std::string names = cell == RecurrentCell::kLstm ? "Sigmoid,Tanh,Tanh" : cell == RecurrentCell::kGru ? "Sigmoid,Tanh" : "Tanh";
  NPURT_RETURN_IF_ERROR(attrs.GetString("activations", names, &names));
  std::vector<std::string> list;
  for (size_t start = 0;;) {
    const size_t comma = names.find(',', start);
    list.push_back(names.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  NPURT_CHECK_OR_RETURN(list.size() == static_cast<size_t>(per_direction) ||
                            list.size() == static_cast<size_t>(per_direction * dirs),
                        kModelInvalid, "%s: %zu activations for %" PRId64 " direction(s)", op, list.size(), dirs);
  std::vector<float> alphas, betas;
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_alpha", {}, &alphas));
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_beta", {}, &betas));
  size_t next_alpha = 0, next_beta = 0;
  for (int k = 0; k < per_direction * dirs; ++k) {
    NPURT_RETURN_IF_ERROR(ParseActivation(op, list[static_cast<size_t>(k) % list.size()], alphas, betas, &next_alpha,
                                          &next_beta, &p->f[k]));
  }
  return Status::Ok();
}

template <RecurrentCell kCell>
Status RecurrentInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  RecurrentParams p;
  NPURT_RETURN_IF_ERROR(MakeParams(kCell, attrs, inputs, &p));
  const int64_t dirs = p.directions;
  const Shape y = p.batch_major ? Shape{p.batch, p.seq, dirs, p.hidden} : Shape{p.seq, dirs, p.batch, p.hidden};
  const Shape state = p.batch_major ? Shape{p.batch, dirs, p.hidden} : Shape{dirs, p.batch, p.hidden};
  for (size_t i = 0; i < outputs->size(); ++i) {
    (*outputs)[i].shape = i == 0 ? y : state;
    (*outputs)[i].dtype = DataType::kFloat32;
  }
  return Status::Ok();
}

template <RecurrentCell kCell>
Status RecurrentPrepare(OpNode* node) {
  auto state = std::make_unique<RecurrentState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(MakeParams(kCell, node->attrs, inputs, &state->params));
  node->scratch_bytes = static_cast<size_t>(RecurrentScratchFloats(state->params)) * sizeof(float);
  node->state = std::move(state);
  return Status::Ok();
}

Status RecurrentEval(OpNode* node) {
  const RecurrentParams& p = node->state_as<RecurrentState>()->params;
  auto in = [&](size_t i) -> const Tensor* { return node->input(i); };
  auto floats = [&](size_t i) -> const float* { return in(i) != nullptr ? in(i)->as<float>() : nullptr; };
  auto out = [&](size_t i) -> float* {
    return i < node->outputs.size() && node->outputs[i] != nullptr ? node->outputs[i]->as<float>() : nullptr;
  };
  const bool lstm = p.cell == RecurrentCell::kLstm;
  const int32_t* lengths = in(4) != nullptr ? in(4)->as<int32_t>() : nullptr;
  if (p.batch == 0 || p.seq == 0) return Status::Ok();
  if (!recurrent__ref(p, floats(0), floats(1), floats(2), floats(3), lengths, floats(5), lstm ? floats(6) : nullptr,
                      lstm ? floats(7) : nullptr, out(0), out(1), lstm ? out(2) : nullptr,
                      reinterpret_cast<float*>(node->scratch))) {
    return NPURT_ERROR(kFail, "%s: a sequence length is outside [0, %" PRId64 "]", Name(p.cell), p.seq);
  }
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpRNN = {"RNN", 3, 6, 1, 2, RecurrentInfer<RecurrentCell::kRnn>, RecurrentPrepare<RecurrentCell::kRnn>,
                             RecurrentEval};
extern const OpDef kOpGRU = {"GRU", 3, 6, 1, 2, RecurrentInfer<RecurrentCell::kGru>, RecurrentPrepare<RecurrentCell::kGru>,
                             RecurrentEval};
extern const OpDef kOpLSTM = {"LSTM", 3, 8, 1, 3, RecurrentInfer<RecurrentCell::kLstm>,
                              RecurrentPrepare<RecurrentCell::kLstm>, RecurrentEval};

}  // namespace npurt
