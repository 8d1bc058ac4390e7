#include "compiler/quant/quantize_graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/passes/graph_utils.h"
#include "runtime/core/op_macs.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace {

// What each input of an int8 candidate becomes.
enum class Role {
  kActivation,  // int8, per tensor
  kWeight,      // int8 constant, symmetric, per channel along `weight_axis` (or per tensor)
  kBias,        // int32 constant at scale_x * scale_w[c]
  kKeep,        // unchanged (shapes, indices, Resize scales, Pad value, Clip bounds)
};

struct Plan {
  std::vector<Role> roles;  // one per input slot
  int weight_axis = -1;     // per-channel axis of the kWeight input; -1 per tensor
  bool same_params = false; // the output keeps the input's parameters (data movement, max)
};

bool IsConstant(const Graph& g, int t) { return t >= 0 && g.tensors()[t].is_constant; }
bool IsFloat(const Graph& g, int t) { return t >= 0 && g.tensors()[t].dtype == DataType::kFloat32; }
// Integer arithmetic (int64 shape and index computations) is neither int8 nor float work.
bool TouchesFloat(const Graph& g, const IrNode& n) {
  return std::any_of(n.inputs.begin(), n.inputs.end(), [&](int t) { return IsFloat(g, t); }) ||
         std::any_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return IsFloat(g, t); });
}

const char* const kUnary[] = {"Relu",  "Clip",  "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
                              "Exp",   "Log",   "Sqrt",      "Erf",     "Sin",         "Cos",       "Tan",
                              "Asin",  "Acos",  "Atan",      "Sinh",    "Cosh",        "Asinh",     "Acosh",
                              "Atanh", "Elu",   "Selu",      "Celu",    "ThresholdedRelu", "Softplus", "Softsign",
                              "Mish",  "Abs",   "Floor",     "Ceil",    "Round",       "Sign",      "Softmax",     "LogSoftmax",
                              "AveragePool",    "GlobalAveragePool",    "Resize"};
const char* const kDataMovement[] = {"Reshape", "Flatten",      "Squeeze",      "Unsqueeze", "Identity",
                                     "Transpose", "DepthToSpace", "SpaceToDepth", "Tile",      "Slice",
                                     "Split",   "Gather",       "GatherElements", "Pad",     "MaxPool",
                                     "GlobalMaxPool"};
const char* const kElementwise[] = {"Add", "Sub", "Mul", "Max", "Min", "Concat"};
const char* const kArithmetic[] = {"Add", "Sub", "Mul"};

bool In(const std::string& s, const char* const* list, size_t n) {
  return std::find_if(list, list + n, [&](const char* x) { return s == x; }) != list + n;
}
template <size_t N>
bool In(const std::string& s, const char* const (&list)[N]) {
  return In(s, list, N);
}

bool IsModelBoundary(const IrNode& n) { return n.op_type == "QuantizeLinear" || n.op_type == "DequantizeLinear"; }

bool HasIntegerForm(const std::string& op) {
  return op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "MatMul" || In(op, kElementwise) ||
         In(op, kUnary) || In(op, kDataMovement);
}

// The int8 plan for a node, or false when the op has no int8 form in npurt.
bool PlanFor(const Graph& g, const IrNode& n, Plan* plan) {
  const size_t k = n.inputs.size();
  plan->roles.assign(k, Role::kKeep);
  auto weight_or_activation = [&](size_t slot, int axis) {
    if (IsConstant(g, n.inputs[slot])) {
      plan->roles[slot] = Role::kWeight;
      plan->weight_axis = axis;
    } else {
      plan->roles[slot] = Role::kActivation;
    }
  };
  if (n.op_type == "Conv" || n.op_type == "ConvTranspose") {
    if (k < 2 || !IsConstant(g, n.inputs[1])) return false;
    int64_t group = 1;
    if (!n.attrs.GetInt("group", 1, &group).ok()) return false;
    plan->roles[0] = Role::kActivation;
    plan->roles[1] = Role::kWeight;
    // ConvTranspose weights are [C, M/group, k...]: per output channel only without groups.
    plan->weight_axis = n.op_type == "Conv" ? 0 : (group == 1 ? 1 : -1);
    if (k > 2 && n.inputs[2] >= 0) {
      if (!IsConstant(g, n.inputs[2])) return false;
      plan->roles[2] = Role::kBias;
    }
    return true;
  }
  if (n.op_type == "Gemm") {
    if (k < 2) return false;
    int64_t trans_b = 0;
    float beta = 1.0f;
    float alpha = 1.0f;
    if (!n.attrs.GetInt("transB", 0, &trans_b).ok() || !n.attrs.GetFloat("beta", 1.0f, &beta).ok() ||
        !n.attrs.GetFloat("alpha", 1.0f, &alpha).ok() || !(alpha > 0.0f)) {
      return false;  // a negative alpha would give the bias a negative scale
    }
    plan->roles[0] = Role::kActivation;
    weight_or_activation(1, trans_b ? 0 : 1);
    if (k > 2 && n.inputs[2] >= 0) {
      const IrTensor& b = g.tensors()[n.inputs[1]];
      const int64_t cols = b.shape.size() == 2 ? b.shape[trans_b ? 0 : 1] : -1;
      const IrTensor& c = g.tensors()[n.inputs[2]];
      // An int32 bias needs constant weights (its scale is scale_x * scale_w).
      if (plan->roles[1] != Role::kWeight || !c.is_constant || beta != 1.0f || c.shape != Shape{cols}) return false;
      plan->roles[2] = Role::kBias;
    }
    return true;
  }
  if (n.op_type == "MatMul") {
    if (k != 2) return false;
    plan->roles[0] = Role::kActivation;
    // Per column of a matrix B; a vector B has a single column: per tensor.
    const int rank = static_cast<int>(g.tensors()[n.inputs[1]].shape.size());
    weight_or_activation(1, rank >= 2 ? rank - 1 : -1);
    return true;
  }
  if (In(n.op_type, kElementwise)) {
    std::fill(plan->roles.begin(), plan->roles.end(), Role::kActivation);
    // The constant second operand of an arithmetic op stays float: a per-channel scale or bias quantized to
    // int8 would lose the small channels (the runtime takes a float32 operand as real values).
    if (k == 2 && In(n.op_type, kArithmetic) && IsConstant(g, n.inputs[1]) && !IsConstant(g, n.inputs[0])) {
      plan->roles[1] = Role::kKeep;
    }
    return true;
  }
  if (In(n.op_type, kUnary) || In(n.op_type, kDataMovement)) {
    if (k == 0) return false;
    // MaxPool's Indices: the quantized outputs would be the values only; kept float instead.
    if (n.op_type == "MaxPool" && n.outputs.size() > 1) return false;
    plan->roles[0] = Role::kActivation;
    plan->same_params = In(n.op_type, kDataMovement);
    return true;
  }
  return false;
}

// Asks the runtime op's own shape function whether it takes this node with
// these storage types: `slot_types` gives the type of each kActivation slot
// (int8 or int16), `out_type` the wanted output type (set through the
// output_type attribute when it differs from the first input's, see
// runtime/ops/activation_quant.h).
Status RuntimeAccepts(const Graph& g, const IrNode& n, const Plan& plan, const std::vector<DataType>& slot_types,
                      DataType out_type) {
  const OpDef* def = FindOp(n.op_type);
  if (def == nullptr) return NPURT_ERROR(kModelInvalid, "no runtime op");
  std::vector<Tensor> views(n.inputs.size());
  std::vector<const Tensor*> inputs(n.inputs.size(), nullptr);
  DataType first = DataType::kInt8;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (n.inputs[i] < 0) continue;
    const IrTensor& t = g.tensors()[n.inputs[i]];
    Tensor& v = views[i];
    v.name = t.name;
    v.shape = t.shape;
    v.dtype = t.dtype;
    v.constant = t.is_constant;
    switch (plan.roles[i]) {
      case Role::kActivation: v.dtype = slot_types[i]; break;
      case Role::kWeight: v.dtype = DataType::kInt8; break;
      case Role::kBias: v.dtype = DataType::kInt32; break;
      case Role::kKeep:
        if (t.is_constant) v.data = const_cast<uint8_t*>(t.data.data());
        break;
    }
    if (i == 0) first = v.dtype;
    if (plan.roles[i] != Role::kKeep) v.constant = false;  // values not needed to infer shapes
    v.bytes = t.is_constant && plan.roles[i] == Role::kKeep ? t.data.size() : 0;
    inputs[i] = &v;
  }
  Attributes attrs = n.attrs;
  if (!plan.same_params && out_type != first) attrs.SetString("output_type", DataTypeName(out_type));
  std::vector<Tensor> outs(n.outputs.size());
  NPURT_RETURN_IF_ERROR(def->infer(attrs, inputs, &outs));
  for (const Tensor& o : outs) {
    if (o.dtype != out_type) {
      return NPURT_ERROR(kModelInvalid, "the %s form gives %s", DataTypeName(out_type), DataTypeName(o.dtype));
    }
  }
  return Status::Ok();
}

const TensorStats* FindStats(const std::map<std::string, TensorStats>& stats, const std::string& name) {
  auto it = stats.find(name);
  return it == stats.end() || it->second.count == 0 ? nullptr : &it->second;
}

// The per-tensor int8 parameters a QDQ model gives an activation (IrTensor::model_quant), or nullptr.
const QuantInfo* ModelActivationParams(const IrTensor& t) {
  return t.model_quant.per_tensor() && t.model_quant.zero_point.size() == 1 ? &t.model_quant : nullptr;
}

// Whether an activation has int8 parameters to take: the model's own, or calibration statistics.
bool HasActivationParams(const std::map<std::string, TensorStats>& stats, const IrTensor& t) {
  return ModelActivationParams(t) != nullptr || FindStats(stats, t.name) != nullptr;
}

// The model's own int8 weight parameters for a node whose weights are per channel along `axis` (-1: per
// tensor), or nullptr: a QDQ model's symmetric weights (zero points 0) along that axis, or per tensor.
const QuantInfo* ModelWeightParams(const IrTensor& w, int axis) {
  const QuantInfo& q = w.model_quant;
  if (q.empty() || q.zero_point.size() != q.scale.size()) return nullptr;
  for (int32_t z : q.zero_point) {
    if (z != 0) return nullptr;
  }
  for (float sc : q.scale) {
    if (!(sc > 0.0f) || !std::isfinite(sc)) return nullptr;
  }
  if (q.per_tensor()) return &q;
  if (axis < 0 || q.axis != axis || static_cast<size_t>(axis) >= w.shape.size() ||
      static_cast<int64_t>(q.scale.size()) != w.shape[static_cast<size_t>(axis)]) {
    return nullptr;
  }
  return &q;
}

class Quantizer {
 public:
  Quantizer(const std::map<std::string, TensorStats>& stats, const QuantizeOptions& options, Graph* graph)
      : stats_(stats), options_(options), g_(*graph) {}

  Status Run(QuantizeReport* report);

 private:
  Status ActivationParams(int tensor, QuantInfo* q);
  Status Int8Params(int tensor, QuantInfo* q);  // int8 parameters whatever the stored type
  Status ChooseInt16Tensors(const std::vector<int>& producer);
  std::vector<DataType> SlotTypes(size_t node) const;
  int QuantizedConstant(int tensor);  // a float constant used as an activation
  // The int8 or int16 form of a float-stored tensor (QuantizeLinear, cached per type).
  Status QuantizeNodeInput(int tensor, DataType type, int* out);
  int DequantizeNodeInput(int tensor);
  int RoundToModelParams(int tensor);  // the model's QDQ pair on a float tensor a float node reads (cached)
  int AddBoundary(const char* op, int input, int source, const std::string& role, const QuantInfo& q,
                  DataType zp_type, DataType out_type, const char* suffix,
                  const std::vector<int>& extra_inputs = {});
  Status RequantizeToInt8(int tensor, int* out);  // the int8 form of an int16-stored tensor (cached)
  bool RoundWithSystem(const IrNode& n, int channel_axis, const std::vector<float>& w, const QuantInfo& wq, const std::vector<float>& b,
                       const QuantInfo& x, DataType x_type, std::vector<int8_t>* codes) const;
  Status QuantizeWeightsAndBias(IrNode* n, const Plan& plan, size_t weight_slot, int bias_slot, int x_tensor,
                                const QuantInfo& x, DataType x_type);
  void AddZeroBiases();  // for bias correction
  void CorrectBias(const IrNode& n, int x_tensor, const std::vector<float>& w, const std::vector<int8_t>& codes,
                   const QuantInfo& wq, double acc_scale, double max_input, std::vector<float>* b) const;
  int ScaleConstant(const std::string& base, const QuantInfo& q, DataType type, int* zero_point);

  const std::map<std::string, TensorStats>& stats_;
  const QuantizeOptions& options_;
  Graph& g_;
  std::vector<bool> int8_node_;    // runs quantized (int8, or with some int16 tensors)
  std::vector<Plan> plans_;
  std::vector<bool> stored_int8_;  // per tensor: stored quantized (int8 or int16), as decided before the rewrite
  std::vector<bool> int16_;        // per tensor: stored in int16 (the hybrid scheme)
  std::vector<std::vector<bool>> requant_;  // per node and slot: an int16 input this node reads as int8
  std::vector<bool> int16_layer_;  // per node: listed in int16_layers or chosen by the int16 MAC budget
  std::vector<QuantInfo> params_;  // per tensor: the parameters of its stored type (or int8 at a boundary)
  std::map<int, QuantInfo> params8_;  // int8 parameters of int16 tensors read as int8 somewhere
  std::map<int, int> quantized_of_;  // constants and float-stored tensors read as int8
  std::map<int, int> quantized16_of_;  // float-stored tensors read as int16
  std::map<int, int> dequantized_of_;
  std::map<int, int> requantized_of_;
  std::map<int, int> rounded_of_;
  int boundaries_ = 0;
  int weight_nodes_ = 0, gptq_nodes_ = 0;
};

Status Quantizer::ActivationParams(int tensor, QuantInfo* q) {
  if (!params_[tensor].empty()) {
    *q = params_[tensor];
    return Status::Ok();
  }
  const IrTensor& t = g_.tensors()[tensor];
  if (!int16_[tensor] && ModelActivationParams(t) != nullptr) {
    params_[tensor] = t.model_quant;
    *q = params_[tensor];
    return Status::Ok();
  }
  const TensorStats* s = FindStats(stats_, t.name);
  if (s == nullptr) return NPURT_ERROR(kFail, "no calibration statistics for tensor '%s'", t.name.c_str());
  if (int16_[tensor]) {
    params_[tensor] = Int16ActivationQuantInfo(s->min, s->max, options_.int16_headroom);
  } else {
    float lo = 0.0f, hi = 0.0f;
    NPURT_RETURN_IF_ERROR(ChooseRange(*s, options_.algorithm, &lo, &hi));
    params_[tensor] = ActivationQuantInfo(lo, hi);
  }
  *q = params_[tensor];
  return Status::Ok();
}

Status Quantizer::Int8Params(int tensor, QuantInfo* q) {
  if (!int16_[tensor]) return ActivationParams(tensor, q);
  auto it = params8_.find(tensor);
  if (it == params8_.end()) {
    const TensorStats* s = FindStats(stats_, g_.tensors()[tensor].name);
    float lo = 0.0f, hi = 0.0f;
    if (s != nullptr) {
      NPURT_RETURN_IF_ERROR(ChooseRange(*s, options_.algorithm, &lo, &hi));
    } else {
      // A data-movement output: its input's range (the values are the same).
      const float scale = params_[tensor].scale[0];
      lo = -32768.0f * scale;
      hi = 32767.0f * scale;
    }
    it = params8_.emplace(tensor, ActivationQuantInfo(lo, hi)).first;
  }
  *q = it->second;
  return Status::Ok();
}

// The storage type of each slot of quantized node `k` as it will read it.
std::vector<DataType> Quantizer::SlotTypes(size_t k) const {
  const IrNode& n = g_.nodes()[k];
  std::vector<DataType> types(n.inputs.size(), DataType::kInt8);
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const int t = n.inputs[i];
    if (t >= 0 && plans_[k].roles[i] == Role::kActivation && int16_[t] && !requant_[k][i]) types[i] = DataType::kInt16;
  }
  return types;
}

// The hybrid scheme's int16 tensors: the activation inputs and the outputs of
// every int16 layer, then made consistent with what the runtime ops can do,
// to a fixed point:
//   - a tensor stays int8 when it is a graph input or output or a constant; one
//     written by a float node may be int16 (its QuantizeLinear boundary writes
//     int16: a float layer inside an int16 region keeps the region's precision);
//   - a data-movement op keeps its input's type: input and outputs are int16
//     together, or int8 together;
//   - a computing op that cannot write int16 makes its output int8; one that
//     cannot read an int16 input reads it through an int8 requantization.
Status Quantizer::ChooseInt16Tensors(const std::vector<int>& producer) {
  const size_t num_nodes = g_.nodes().size();
  const size_t num_tensors = g_.tensors().size();
  int16_.assign(num_tensors, false);
  requant_.assign(num_nodes, {});
  for (size_t k = 0; k < num_nodes; ++k) requant_[k].assign(g_.nodes()[k].inputs.size(), false);
  int16_layer_.assign(num_nodes, false);
  for (size_t k = 0; k < num_nodes; ++k) int16_layer_[k] = int8_node_[k] && options_.int16_layers.count(g_.nodes()[k].name);
  if (options_.int16_mac_budget > 0.0) {
    // Every quantized node computes in int16 except the multiply-heavy ones: MAC-free nodes always, then
    // nodes with MACs, cheapest first, while their MACs stay within the budget's share of the model's.
    std::vector<std::pair<int64_t, size_t>> by_macs;
    int64_t total = 0;
    for (size_t k = 0; k < num_nodes; ++k) {
      const int64_t macs = NodeMacs(g_, g_.nodes()[k]);
      total += macs;
      if (!int8_node_[k]) continue;
      if (macs == 0) {
        int16_layer_[k] = true;
      } else {
        by_macs.emplace_back(macs, k);
      }
    }
    std::sort(by_macs.begin(), by_macs.end());
    int64_t used = 0;
    for (const auto& [macs, k] : by_macs) {
      if (static_cast<double>(used + macs) > options_.int16_mac_budget * static_cast<double>(total)) break;
      used += macs;
      int16_layer_[k] = true;
    }
  }
  // Quantized nodes with MACs that are not int16 layers read int8: an int16 input goes through an int8
  // requantization, and a tensor that only they read is written in int8 directly.
  std::vector<bool> int8_reader(num_nodes, false);
  for (size_t k = 0; k < num_nodes; ++k) {
    int8_reader[k] = int8_node_[k] && !int16_layer_[k] && NodeMacs(g_, g_.nodes()[k]) > 0;
  }
  if (std::none_of(int16_layer_.begin(), int16_layer_.end(), [](bool b) { return b; })) return Status::Ok();
  std::vector<bool> forced8(num_tensors, false);
  for (const IrInput& in : g_.inputs()) forced8[in.tensor] = true;
  for (int out : g_.outputs()) forced8[out] = true;
  std::vector<int> readers(num_tensors, 0), int8_readers(num_tensors, 0);
  for (size_t k = 0; k < num_nodes; ++k) {
    for (int t : g_.nodes()[k].inputs) {
      if (t < 0) continue;
      readers[t]++;
      if (int8_reader[k]) int8_readers[t]++;
    }
  }
  for (size_t t = 0; t < num_tensors; ++t) {
    if (readers[t] > 0 && readers[t] == int8_readers[t]) forced8[t] = true;
  }
  for (size_t k = 0; k < num_nodes; ++k) {
    const IrNode& n = g_.nodes()[k];
    if (!int16_layer_[k]) continue;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (n.inputs[i] >= 0 && plans_[k].roles[i] == Role::kActivation && !IsConstant(g_, n.inputs[i])) {
        int16_[n.inputs[i]] = true;
      }
    }
    for (int o : n.outputs) int16_[o] = true;
  }
  for (bool changed = true; changed;) {
    changed = false;
    auto force = [&](int t) {
      if (!forced8[t] || int16_[t]) changed = true;
      forced8[t] = true;
      int16_[t] = false;
    };
    for (size_t t = 0; t < num_tensors; ++t) {
      if (!int16_[t] || forced8[t]) {
        if (forced8[t] && int16_[t]) force(static_cast<int>(t));
        continue;
      }
      if (g_.tensors()[t].is_constant || producer[t] < 0) force(static_cast<int>(t));
    }
    for (size_t k = 0; k < num_nodes; ++k) {
      if (!int8_node_[k]) continue;
      const IrNode& n = g_.nodes()[k];
      if (plans_[k].same_params) {
        const int in = n.inputs[0];
        bool any16 = int16_[in], any8 = forced8[in];
        for (int o : n.outputs) any16 = any16 || int16_[o], any8 = any8 || forced8[o];
        if (!any16) continue;
        const bool accepted = !any8 && !IsConstant(g_, in) &&
                              RuntimeAccepts(g_, n, plans_[k], std::vector<DataType>(n.inputs.size(), DataType::kInt16),
                                             DataType::kInt16).ok();
        if (!accepted) {
          if (!IsConstant(g_, in)) force(in);
          for (int o : n.outputs) force(o);
          continue;
        }
        if (!int16_[in]) int16_[in] = true, changed = true;
        for (int o : n.outputs) {
          if (!int16_[o]) int16_[o] = true, changed = true;
        }
        continue;
      }
      const DataType out_type = int16_[n.outputs[0]] ? DataType::kInt16 : DataType::kInt8;
      bool requantized = false;
      if (int8_reader[k]) {
        for (size_t i = 0; i < n.inputs.size(); ++i) {
          if (n.inputs[i] >= 0 && int16_[n.inputs[i]] && !requant_[k][i]) requant_[k][i] = requantized = true;
        }
        if (requantized) {
          changed = true;
          continue;
        }
      }
      if (RuntimeAccepts(g_, n, plans_[k], SlotTypes(k), out_type).ok()) continue;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (n.inputs[i] >= 0 && int16_[n.inputs[i]] && !requant_[k][i]) requant_[k][i] = requantized = true;
      }
      if (requantized) {
        changed = true;
      } else if (out_type == DataType::kInt16) {
        for (int o : n.outputs) force(o);
      } else {
        return NPURT_ERROR(kFail, "node '%s' (%s): no int8 form after the int16 choice", n.name.c_str(),
                           n.op_type.c_str());
      }
    }
  }
  return Status::Ok();
}

// A scale scalar and a zero-point scalar (of the quantized `type`) for QuantizeLinear / DequantizeLinear.
int Quantizer::ScaleConstant(const std::string& base, const QuantInfo& q, DataType type, int* zero_point) {
  const int scale = AddUniqueFloatConstant(&g_, base + ":scale", {}, {q.scale[0]});
  const int32_t zp = q.zero_point.empty() ? 0 : q.zero_point[0];
  const std::string name = UniqueTensorName(g_, base + ":zero_point");
  if (type == DataType::kInt16) {
    *zero_point = g_.AddConstant(name, {}, DataType::kInt16, std::vector<int16_t>{static_cast<int16_t>(zp)});
  } else {
    *zero_point = g_.AddConstant(name, {}, DataType::kInt8, std::vector<int8_t>{static_cast<int8_t>(zp)});
  }
  return scale;
}

int Quantizer::QuantizedConstant(int tensor) {
  auto it = quantized_of_.find(tensor);
  if (it != quantized_of_.end()) return it->second;
  std::vector<float> values;
  ReadConstantFloats(g_, tensor, &values);
  float lo = 0.0f, hi = 0.0f;
  for (float v : values) lo = std::min(lo, v), hi = std::max(hi, v);
  const QuantInfo* model = ModelActivationParams(g_.tensors()[tensor]);
  const QuantInfo q = model != nullptr ? *model : ActivationQuantInfo(lo, hi);
  std::vector<int8_t> codes(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    codes[i] = static_cast<int8_t>(QuantizeValue(values[i], q.scale[0], q.zero_point[0], -128, 127));
  }
  const IrTensor& t = g_.tensors()[tensor];
  const int c = g_.AddConstant(UniqueTensorName(g_, t.name + ":int8"), t.shape, DataType::kInt8, codes);
  g_.tensors()[c].quant = q;
  quantized_of_[tensor] = c;
  return c;
}

// A QuantizeLinear / DequantizeLinear node reading `input` with parameters `q`; its output
// (`out_type`, named after `name` + `suffix`, shaped like `name`'s tensor) is returned.
int Quantizer::AddBoundary(const char* op, int input, int source, const std::string& role, const QuantInfo& q,
                           DataType zp_type, DataType out_type, const char* suffix,
                           const std::vector<int>& extra_inputs) {
  const IrTensor t = g_.tensors()[source];
  int zp = -1;
  const int scale = ScaleConstant(t.name + ":" + role, q, zp_type, &zp);
  std::vector<int> inputs = {input, scale, zp};
  inputs.insert(inputs.end(), extra_inputs.begin(), extra_inputs.end());
  const int b = g_.AddNode(op, inputs, {}, 1, t.name + ":" + role);
  IrTensor& out = g_.tensors()[b];
  out.name = UniqueTensorName(g_, t.name + suffix);
  out.shape = t.shape;
  out.has_shape = true;
  out.dtype = out_type;
  if (out_type != DataType::kFloat32) out.quant = q;
  ++boundaries_;
  return b;
}

Status Quantizer::QuantizeNodeInput(int tensor, DataType type, int* out) {
  std::map<int, int>& cache = type == DataType::kInt16 ? quantized16_of_ : quantized_of_;
  auto it = cache.find(tensor);
  if (it == cache.end()) {
    QuantInfo q = params_[tensor];  // the stored type's parameters: int16 ones for an int16 tensor
    if (type == DataType::kInt8 && int16_[tensor]) NPURT_RETURN_IF_ERROR(Int8Params(tensor, &q));
    const int b = AddBoundary("QuantizeLinear", tensor, tensor, "quantize", q, type, type,
                              type == DataType::kInt16 ? ":int16" : ":int8");
    it = cache.emplace(tensor, b).first;
  }
  *out = it->second;
  return Status::Ok();
}

// A float tensor the model quantizes (a QDQ pair the import took out) that a float node reads: the pair back,
// so that the float node sees the model's rounding.
int Quantizer::RoundToModelParams(int tensor) {
  auto it = rounded_of_.find(tensor);
  if (it != rounded_of_.end()) return it->second;
  const QuantInfo q = g_.tensors()[tensor].model_quant;
  const int codes = AddBoundary("QuantizeLinear", tensor, tensor, "quantize", q, DataType::kInt8, DataType::kInt8, ":int8");
  const int r = AddBoundary("DequantizeLinear", codes, tensor, "dequantize", q, DataType::kInt8, DataType::kFloat32,
                            ":rounded");
  rounded_of_[tensor] = r;
  return r;
}

int Quantizer::DequantizeNodeInput(int tensor) {
  auto it = dequantized_of_.find(tensor);
  if (it != dequantized_of_.end()) return it->second;
  const DataType type = int16_[tensor] ? DataType::kInt16 : DataType::kInt8;
  const int d = AddBoundary("DequantizeLinear", tensor, tensor, "dequantize", params_[tensor], type,
                            DataType::kFloat32, ":float");
  dequantized_of_[tensor] = d;
  return d;
}

// int16 -> int8 in one boundary op, the runtime's requantization form of QuantizeLinear (the int16 codes
// with their scale and zero point as inputs 3 and 4): QuantizeLinear(DequantizeLinear(x)) without the float
// tensor between them; exact up to the int8 rounding.
Status Quantizer::RequantizeToInt8(int tensor, int* out_tensor) {
  auto it = requantized_of_.find(tensor);
  if (it == requantized_of_.end()) {
    QuantInfo q8;
    NPURT_RETURN_IF_ERROR(Int8Params(tensor, &q8));
    int from_zp = -1;
    const int from_scale = ScaleConstant(g_.tensors()[tensor].name + ":requantize:from", params_[tensor],
                                         DataType::kInt16, &from_zp);
    const int q = AddBoundary("QuantizeLinear", tensor, tensor, "requantize", q8, DataType::kInt8, DataType::kInt8,
                              ":int8", {from_scale, from_zp});
    it = requantized_of_.emplace(tensor, q).first;
  }
  *out_tensor = it->second;
  return Status::Ok();
}

// Weights symmetric int8 (per channel along the plan's axis, or per tensor)
// and the bias int32 at scale_x * scale_w[c]. The int32 accumulator must not
// overflow even for extreme inputs: |bias code| + 255 * sum|weight codes| of a
// channel stays within int32 (the runtime checks exactly this). A channel whose
// tiny weights and large bias would break it gets a larger weight scale -- its
// bias dominates, so the coarser weights cost nothing measurable. An int16
// input accumulates in int64, so only the bias code itself must fit int32.
// Gives every Conv / ConvTranspose with constant float weights and no bias a zero bias (exact), so that a bias
// correction has a slot to write to; only where its input has per-channel statistics.
void Quantizer::AddZeroBiases() {
  for (size_t k = 0; k < g_.nodes().size(); ++k) {
    const IrNode& n = g_.nodes()[k];
    if ((n.op_type != "Conv" && n.op_type != "ConvTranspose") || n.inputs.size() < 2 ||
        (n.inputs.size() > 2 && n.inputs[2] >= 0) || !IsConstant(g_, n.inputs[1]) || !IsFloat(g_, n.inputs[1]) ||
        options_.float_layers.count(n.name)) {
      continue;
    }
    const TensorStats* s = FindStats(stats_, g_.tensors()[n.inputs[0]].name);
    const Shape& ws = g_.tensors()[n.inputs[1]].shape;
    int64_t group = 1;
    if (s == nullptr || s->channel_sum.empty() || ws.size() < 2 || !n.attrs.GetInt("group", 1, &group).ok()) continue;
    const int64_t maps = n.op_type == "Conv" ? ws[0] : ws[1] * group;
    const int b = AddUniqueFloatConstant(&g_, n.name + ":bias", {maps}, std::vector<float>(static_cast<size_t>(maps), 0.0f));
    IrNode& m = g_.nodes()[k];
    m.inputs.resize(3, -1);
    m.inputs[2] = b;
  }
}

// Bias correction (QuantizeOptions::bias_correction): b[m] -= sum over output channel m's taps of
// (codes * scale - w) * E[x_c]. A ConvTranspose output pixel receives, on average, its kernel's taps divided
// by the stride product. A channel whose corrected bias could overflow the int32 accumulator keeps its bias.
void Quantizer::CorrectBias(const IrNode& n, int x_tensor, const std::vector<float>& w, const std::vector<int8_t>& codes,
                            const QuantInfo& wq, double acc_scale, double max_input, std::vector<float>* b) const {
  const TensorStats* s = FindStats(stats_, g_.tensors()[x_tensor].name);
  const Shape& ws = g_.tensors()[n.inputs[1]].shape;
  int64_t group = 1;
  if (s == nullptr || !n.attrs.GetInt("group", 1, &group).ok()) return;
  const bool transposed = n.op_type == "ConvTranspose";
  double coverage = 1.0;  // taps landing on one output pixel, as a share of the kernel
  if (transposed) {
    std::vector<int64_t> strides;
    if (n.attrs.GetInts("strides", {}, &strides).ok()) {
      for (int64_t v : strides) coverage /= static_cast<double>(std::max<int64_t>(v, 1));
    }
  }
  const size_t maps = b->size();
  std::vector<double> shift(maps, 0.0), abs_codes(maps, 0.0);
  bool fits = true;
  const bool ok = ForEachConvWeight(transposed, ws, group, [&](int64_t m, int64_t c, size_t at) {
    if (static_cast<size_t>(m) >= maps || static_cast<size_t>(c) >= s->channel_sum.size()) {
      fits = false;
      return;
    }
    const float scale = wq.scale[wq.scale.size() == 1 ? 0 : static_cast<size_t>(transposed ? m % ws[1] : m)];
    shift[static_cast<size_t>(m)] += (static_cast<double>(codes[at]) * scale - w[at]) * s->ChannelMean(static_cast<size_t>(c));
    abs_codes[static_cast<size_t>(m)] += std::abs(codes[at]);
  });
  if (!ok || !fits) return;
  for (size_t m = 0; m < maps; ++m) {
    const float scale = wq.scale[wq.scale.size() == 1 ? 0 : (transposed ? m % static_cast<size_t>(ws[1]) : m)];
    const double corrected = (*b)[m] - shift[m] * coverage;
    if (FitsAccumulator(corrected / (acc_scale * scale), max_input, abs_codes[m])) {
      (*b)[m] = static_cast<float>(corrected);
    }
  }
}

// QuantizeOptions::rounding: GPTQ codes for each output channel (along `channel_axis` of the weight) with the
// quantizer's scales. A channel whose GPTQ codes would break the int32 accumulator bound keeps its nearest codes.
// False when the node has no usable system (all its codes stay nearest).
bool Quantizer::RoundWithSystem(const IrNode& n, int channel_axis, const std::vector<float>& w, const QuantInfo& wq,
                                const std::vector<float>& b, const QuantInfo& x, DataType x_type,
                                std::vector<int8_t>* codes) const {
  const auto found = options_.rounding->find(n.name);
  const Shape& ws = g_.tensors()[n.inputs[1]].shape;
  if (found == options_.rounding->end() || channel_axis < 0 || channel_axis >= static_cast<int>(ws.size())) return false;
  const RoundingSystem& system = found->second;
  // [outer, channels, inner] view: output channel c's weights are its taps o * inner + i.
  int64_t outer = 1, maps = 1, inner = 1;
  for (int d = 0; d < static_cast<int>(ws.size()); ++d) {
    (d < channel_axis ? outer : d == channel_axis ? maps : inner) *= ws[static_cast<size_t>(d)];
  }
  const int64_t taps = outer * inner;
  if (maps <= 0 || system.groups <= 0 || maps % system.groups != 0 || system.taps != taps ||
      static_cast<int64_t>(w.size()) != maps * taps ||
      (wq.scale.size() != 1 && static_cast<int64_t>(wq.scale.size()) != maps)) {
    return false;
  }
  const double max_input = x_type == DataType::kInt8 ? 255.0 : 0.0;
  float alpha = 1.0f;  // Gemm's alpha scales the accumulator (as in QuantizeWeightsAndBias)
  if (n.op_type == "Gemm" && !n.attrs.GetFloat("alpha", 1.0f, &alpha).ok()) return false;
  const double acc_scale = static_cast<double>(x.scale[0]) * alpha;
  std::vector<float> weights(static_cast<size_t>(taps));
  std::vector<int8_t> channel(static_cast<size_t>(taps));
  auto at = [&](int64_t c, int64_t t) { return static_cast<size_t>(((t / inner) * maps + c) * inner + t % inner); };
  for (int64_t c = 0; c < maps; ++c) {
    for (int64_t t = 0; t < taps; ++t) weights[static_cast<size_t>(t)] = w[at(c, t)];
    const float scale = wq.scale[wq.scale.size() == 1 ? 0 : static_cast<size_t>(c)];
    RoundChannel(system, c / (maps / system.groups), weights.data(), scale, channel.data());
    double abs_codes = 0.0;
    for (int8_t code : channel) abs_codes += std::abs(code);
    const double bias_code = static_cast<int64_t>(b.size()) != maps ? 0.0 : b[static_cast<size_t>(c)] / (acc_scale * scale);
    if (!FitsAccumulator(bias_code, max_input, abs_codes)) continue;
    for (int64_t t = 0; t < taps; ++t) (*codes)[at(c, t)] = channel[static_cast<size_t>(t)];
  }
  return true;
}

Status Quantizer::QuantizeWeightsAndBias(IrNode* n, const Plan& plan, size_t weight_slot, int bias_slot, int x_tensor,
                                         const QuantInfo& x, DataType x_type) {
  const int w_tensor = n->inputs[weight_slot];
  std::vector<float> w, b;
  if (!IsFloat(g_, w_tensor) || !ReadConstantFloats(g_, w_tensor, &w)) {
    return NPURT_ERROR(kModelInvalid, "node '%s': weight '%s' is not a float constant", n->name.c_str(),
                       g_.tensors()[w_tensor].name.c_str());
  }
  if (bias_slot >= 0 && (!IsFloat(g_, n->inputs[bias_slot]) || !ReadConstantFloats(g_, n->inputs[bias_slot], &b))) {
    return NPURT_ERROR(kModelInvalid, "node '%s': bias '%s' is not a float constant", n->name.c_str(),
                       g_.tensors()[n->inputs[bias_slot]].name.c_str());
  }
  const IrTensor wt = g_.tensors()[w_tensor];
  const int axis = options_.per_channel ? plan.weight_axis : -1;
  std::vector<int8_t> codes;
  QuantInfo wq;
  if (const QuantInfo* model = ModelWeightParams(wt, plan.weight_axis)) {
    // A QDQ model's weights: its codes at its scales (the float values are code x scale, so they come back).
    wq = *model;
    wq.zero_point.assign(wq.scale.size(), 0);
    codes.resize(w.size());
    int64_t inner = 1, channels = 1;
    for (size_t d = static_cast<size_t>(std::max(wq.axis, 0)) + 1; d < wt.shape.size(); ++d) inner *= wt.shape[d];
    if (!wq.per_tensor()) channels = wt.shape[static_cast<size_t>(wq.axis)];
    for (size_t i = 0; i < w.size(); ++i) {
      const size_t c = wq.per_tensor() ? 0 : static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
      codes[i] = static_cast<int8_t>(QuantizeValue(w[i], wq.scale[c], 0, -128, 127));
    }
  } else {
    wq = QuantizeWeights(w.data(), wt.shape, axis, &codes);
  }

  // [outer, channels, inner] view of the weights along the output-channel axis.
  const int channel_axis = plan.weight_axis >= 0 ? plan.weight_axis : 0;
  int64_t outer = 1, channels = 1, inner = 1;
  for (int d = 0; d < static_cast<int>(wt.shape.size()); ++d) {
    (d < channel_axis ? outer : d == channel_axis ? channels : inner) *= wt.shape[static_cast<size_t>(d)];
  }
  if (!b.empty() && static_cast<int64_t>(b.size()) == channels) {
    const double max_input = x_type == DataType::kInt8 ? 255.0 : 0.0;  // |x - zero_point| of an int8 input
    float alpha = 1.0f;
    if (n->op_type == "Gemm") NPURT_RETURN_IF_ERROR(n->attrs.GetFloat("alpha", 1.0f, &alpha));
    const double sx = static_cast<double>(x.scale[0]) * alpha;
    std::vector<double> min_scale(static_cast<size_t>(channels), 0.0);
    for (int64_t c = 0; c < channels; ++c) {
      double abs_sum = 0.0;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) abs_sum += std::fabs(w[static_cast<size_t>((o * channels + c) * inner + i)]);
      }
      min_scale[static_cast<size_t>(c)] = (std::fabs(b[static_cast<size_t>(c)]) / sx + max_input * abs_sum) / kAccumulatorLimit;
    }
    bool changed = false;
    for (size_t k = 0; k < wq.scale.size(); ++k) {
      const double need = wq.scale.size() == 1 ? *std::max_element(min_scale.begin(), min_scale.end()) : min_scale[k];
      if (wq.scale[k] < need) {
        wq.scale[k] = static_cast<float>(need * 1.0001);
        changed = true;
      }
    }
    if (changed) {
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const float scale = wq.scale[wq.scale.size() == 1 ? 0 : static_cast<size_t>(c)];
          for (int64_t i = 0; i < inner; ++i) {
            const size_t at = static_cast<size_t>((o * channels + c) * inner + i);
            codes[at] = static_cast<int8_t>(QuantizeValue(w[at], scale, 0, -127, 127));
          }
        }
      }
    }
  }
  ++weight_nodes_;
  if (options_.rounding != nullptr && RoundWithSystem(*n, plan.weight_axis, w, wq, b, x, x_type, &codes)) ++gptq_nodes_;
  const int wc = g_.AddConstant(UniqueTensorName(g_, wt.name + ":int8"), wt.shape, DataType::kInt8, codes);
  g_.tensors()[wc].quant = wq;
  if (bias_slot < 0) {
    n->inputs[weight_slot] = wc;
    return Status::Ok();
  }
  if (options_.bias_correction && (n->op_type == "Conv" || n->op_type == "ConvTranspose")) {
    CorrectBias(*n, x_tensor, w, codes, wq, x.scale[0], x_type == DataType::kInt8 ? 255.0 : 0.0, &b);
  }
  n->inputs[weight_slot] = wc;

  const IrTensor bt = g_.tensors()[n->inputs[bias_slot]];
  std::vector<int32_t> bias_codes(b.size());
  QuantInfo bq;
  bq.axis = 0;
  // Gemm's alpha scales the accumulator, so it scales the bias's real value too (the runtime's convention,
  // as ONNX Runtime's QGemm).
  float alpha = 1.0f;
  if (n->op_type == "Gemm") NPURT_RETURN_IF_ERROR(n->attrs.GetFloat("alpha", 1.0f, &alpha));
  for (size_t c = 0; c < b.size(); ++c) {
    const float scale =
        static_cast<float>(static_cast<double>(alpha) * x.scale[0] * wq.scale[wq.scale.size() == 1 ? 0 : c]);
    bq.scale.push_back(scale);
    bq.zero_point.push_back(0);
    bias_codes[c] = QuantizeValue(b[c], scale, 0, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  }
  const int bc = g_.AddConstant(UniqueTensorName(g_, bt.name + ":int32"), bt.shape, DataType::kInt32, bias_codes);
  g_.tensors()[bc].quant = std::move(bq);
  n->inputs[bias_slot] = bc;
  return Status::Ok();
}

Status Quantizer::Run(QuantizeReport* report) {
  // Unknown hybrid layer names are a user error, not a silent no-op.
  for (const auto* list : {&options_.float_layers, &options_.int16_layers}) {
    for (const std::string& name : *list) {
      const bool found =
          std::any_of(g_.nodes().begin(), g_.nodes().end(), [&](const IrNode& n) { return n.name == name; });
      if (!found) {
        return NPURT_ERROR(kParamInvalid, "%s layer '%s' is not a node of the model",
                           list == &options_.float_layers ? "float" : "int16", name.c_str());
      }
    }
  }
  if (options_.bias_correction || options_.zero_biases) AddZeroBiases();  // adds tensors: before anything is sized

  const size_t num_nodes = g_.nodes().size();
  const size_t num_tensors = g_.tensors().size();
  int8_node_.assign(num_nodes, false);
  plans_.assign(num_nodes, Plan());
  stored_int8_.assign(num_tensors, false);
  int16_.assign(num_tensors, false);
  params_.assign(num_tensors, QuantInfo());
  std::vector<int> producer(num_tensors, -1);
  for (size_t k = 0; k < num_nodes; ++k) {
    for (int o : g_.nodes()[k].outputs) producer[o] = static_cast<int>(k);
  }

  // Add(c, x) and Mul(c, x) with a constant c read as Add(x, c): the constant operand can then stay float.
  for (IrNode& n : g_.nodes()) {
    if ((n.op_type == "Add" || n.op_type == "Mul") && n.inputs.size() == 2 && IsConstant(g_, n.inputs[0]) &&
        !IsConstant(g_, n.inputs[1])) {
      std::swap(n.inputs[0], n.inputs[1]);
    }
  }
  // 1. Which nodes run in int8, in order, so that same-parameter ops see their input's decision.
  for (size_t k = 0; k < num_nodes; ++k) {
    const IrNode& n = g_.nodes()[k];
    std::string why;
    Plan& plan = plans_[k];
    if (options_.float_layers.count(n.name)) {
      why = "kept in float (float layer)";
    } else if (!PlanFor(g_, n, &plan)) {
      why = n.op_type == "MaxPool" ? "no int8 form with the Indices output" : "no int8 form";
    } else {
      for (size_t i = 0; i < n.inputs.size() && why.empty(); ++i) {
        const int t = n.inputs[i];
        if (t < 0 || plan.roles[i] == Role::kKeep) continue;
        if (!IsFloat(g_, t)) why = "input '" + g_.tensors()[t].name + "' is not float";
        if (plan.roles[i] == Role::kActivation && !IsConstant(g_, t) && !HasActivationParams(stats_, g_.tensors()[t]) &&
            !(producer[t] >= 0 && int8_node_[producer[t]])) {
          why = "no calibration statistics for '" + g_.tensors()[t].name + "'";
        }
      }
      for (int o : n.outputs) {
        if (why.empty() && !plan.same_params && !HasActivationParams(stats_, g_.tensors()[o])) {
          why = "no calibration statistics for '" + g_.tensors()[o].name + "'";
        }
      }
      if (why.empty()) {
        const Status s = RuntimeAccepts(g_, n, plan, std::vector<DataType>(n.inputs.size(), DataType::kInt8),
                                        DataType::kInt8);
        if (!s.ok()) why = "no int8 kernel (" + s.message() + ")";
      }
    }
    if (why.empty()) {
      int8_node_[k] = true;
      for (int o : n.outputs) stored_int8_[o] = true;
    } else if (IsModelBoundary(n)) {
      // The model's own QuantizeLinear / DequantizeLinear (a uint8 graph input or output): boundaries.
    } else if (NodeMacs(g_, n) > 0 || (FindOp(n.op_type) != nullptr &&
                                       (!In(n.op_type, kDataMovement) || n.outputs.size() > 1) && TouchesFloat(g_, n))) {
      report->float_reasons.push_back("node '" + n.name + "' (" + n.op_type + "): " + why);
    }
  }
  // Graph inputs read by an int8 node as an activation are fed in int8.
  for (const IrInput& in : g_.inputs()) {
    for (size_t k = 0; k < num_nodes; ++k) {
      const IrNode& n = g_.nodes()[k];
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (int8_node_[k] && n.inputs[i] == in.tensor && plans_[k].roles[i] == Role::kActivation &&
            IsFloat(g_, in.tensor)) {
          stored_int8_[in.tensor] = true;
        }
      }
    }
  }
  // 1b. Which quantized tensors are int16 (--int16-layers).
  NPURT_RETURN_IF_ERROR(ChooseInt16Tensors(producer));

  // 2. Parameters of quantized tensors, in order (same-parameter ops inherit).
  for (const IrInput& in : g_.inputs()) {
    if (stored_int8_[in.tensor]) {
      QuantInfo q;
      NPURT_RETURN_IF_ERROR(ActivationParams(in.tensor, &q));
    }
  }
  for (size_t k = 0; k < num_nodes; ++k) {
    if (!int8_node_[k]) continue;
    const IrNode& n = g_.nodes()[k];
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const int t = n.inputs[i];
      if (t >= 0 && plans_[k].roles[i] == Role::kActivation && !IsConstant(g_, t)) {
        QuantInfo q;
        NPURT_RETURN_IF_ERROR(ActivationParams(t, &q));
        if (requant_[k][i]) NPURT_RETURN_IF_ERROR(Int8Params(t, &q));
      }
    }
    for (int o : n.outputs) {
      if (plans_[k].same_params) {
        const int in = n.inputs[0];
        params_[o] = IsConstant(g_, in) ? g_.tensors()[QuantizedConstant(in)].quant : params_[in];
      } else {
        QuantInfo q;
        NPURT_RETURN_IF_ERROR(ActivationParams(o, &q));
      }
    }
  }
  // Float readers of an int16 tensor dequantize it; nothing else to prepare.

  // 3. Rewrite: nodes in order, boundaries inserted just before their first reader.
  std::vector<IrNode> old = std::move(g_.nodes());
  g_.nodes().clear();
  for (size_t k = 0; k < num_nodes; ++k) {
    IrNode n = std::move(old[k]);
    if (int8_node_[k]) {
      const Plan& plan = plans_[k];
      QuantInfo x_quant;
      DataType x_type = DataType::kInt8;
      int x_tensor = -1;
      bool reads_int16 = false;
      int weight_slot = -1, bias_slot = -1;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const int t = n.inputs[i];
        if (t < 0) continue;
        if (plan.roles[i] == Role::kActivation) {
          DataType type = DataType::kInt8;
          if (IsConstant(g_, t)) {
            n.inputs[i] = QuantizedConstant(t);
          } else if (!stored_int8_[t]) {
            if (int16_[t] && !requant_[k][i]) type = DataType::kInt16;
            NPURT_RETURN_IF_ERROR(QuantizeNodeInput(t, type, &n.inputs[i]));
          } else if (int16_[t] && requant_[k][i]) {
            NPURT_RETURN_IF_ERROR(RequantizeToInt8(t, &n.inputs[i]));
          } else if (int16_[t]) {
            type = DataType::kInt16;
          }
          reads_int16 = reads_int16 || type == DataType::kInt16;
          if (i == 0) {
            x_quant = n.inputs[i] == t ? params_[t] : g_.tensors()[n.inputs[i]].quant;
            x_type = type;
            x_tensor = t;
          }
        } else if (plan.roles[i] == Role::kWeight) {
          weight_slot = static_cast<int>(i);
        } else if (plan.roles[i] == Role::kBias) {
          bias_slot = static_cast<int>(i);
        }
      }
      if (weight_slot >= 0) {
        NPURT_RETURN_IF_ERROR(
            QuantizeWeightsAndBias(&n, plan, static_cast<size_t>(weight_slot), bias_slot, x_tensor, x_quant, x_type));
      } else if (bias_slot >= 0) {
        // A bias needs the weight scale: an int8 Gemm/MatMul whose B is an activation has no bias role.
        return NPURT_ERROR(kModelInvalid, "node '%s': bias without constant weights", n.name.c_str());
      }
      const DataType out_type = int16_[n.outputs[0]] ? DataType::kInt16 : DataType::kInt8;
      if (!plan.same_params && out_type != x_type) n.attrs.SetString("output_type", DataTypeName(out_type));
      if (reads_int16 || (plan.same_params && out_type == DataType::kInt16)) {
        report->int16_nodes++;
        report->int16_macs += NodeMacs(g_, n);
      } else {
        report->int8_nodes++;
        report->int8_macs += NodeMacs(g_, n);
      }
    } else {
      for (int& t : n.inputs) {
        if (t >= 0 && stored_int8_[t]) {
          t = DequantizeNodeInput(t);
        } else if (t >= 0 && !IsModelBoundary(n) && ModelActivationParams(g_.tensors()[t]) != nullptr) {
          t = RoundToModelParams(t);
        }
      }
      if (IsModelBoundary(n)) {
        ++boundaries_;
      } else if (FindOp(n.op_type) != nullptr && (!In(n.op_type, kDataMovement) || n.outputs.size() > 1) &&
                 TouchesFloat(g_, n)) {
        report->float_nodes++;
      }
      report->float_macs += NodeMacs(g_, n);
    }
    g_.nodes().push_back(std::move(n));
  }
  for (size_t t = 0; t < num_tensors; ++t) {
    if (!stored_int8_[t]) continue;
    g_.tensors()[t].dtype = int16_[t] ? DataType::kInt16 : DataType::kInt8;
    g_.tensors()[t].quant = params_[t];
  }
  report->boundary_nodes = boundaries_;
  report->weight_nodes = weight_nodes_;
  report->gptq_nodes = gptq_nodes_;
  return g_.InferShapes();
}

}  // namespace

int64_t NodeMacs(const Graph& graph, const IrNode& n) {
  if (n.outputs.empty()) return 0;
  std::vector<const Shape*> inputs;
  for (int i : n.inputs) inputs.push_back(i < 0 ? nullptr : &graph.tensors()[i].shape);
  return OpMacs(n.op_type, n.attrs, inputs, graph.tensors()[n.outputs[0]].shape);
}

const char* QuantizedStorage(const std::string& op_type) {
  if (op_type == "QuantizeLinear" || op_type == "DequantizeLinear") return "the boundaries themselves";
  return HasIntegerForm(op_type) ? "int8, int16" : "float";
}

Status QuantizeGraph(const std::map<std::string, TensorStats>& stats, const QuantizeOptions& options, Graph* graph,
                     QuantizeReport* report) {
  *report = QuantizeReport();
  return Quantizer(stats, options, graph).Run(report);
}

}  // namespace compiler
}  // namespace npurt
