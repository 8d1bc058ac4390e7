#include "compiler/emit/emitter.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "compiler/emit/target_platform.h"
#include "format/model_file.h"
#include "format/model_generated.h"
#include "runtime/core/types.h"
#include "runtime/ops/op.h"
#include "runtime/planner/greedy_memory_planner.h"

namespace npurt {
namespace compiler {
namespace {

constexpr uint64_t kArenaAlignment = 64;

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// The types the board reports for a tensor: float models run in FP16 on the
// NPU, so float32 I/O is reported (and natively laid out) as FLOAT16.
DataType ReportedType(DataType internal) {
  return internal == DataType::kFloat32 ? DataType::kFloat16 : internal;
}

// A float32 constant as fp16 bytes when every value is an fp16 value (an fp16 model's rounded constants; a
// Resize's exact scales are not), else false.
bool HalfBytes(const IrTensor& t, std::vector<uint8_t>* out) {
  if (t.dtype != DataType::kFloat32 || t.data.empty() || t.data.size() % sizeof(float) != 0) return false;
  const size_t n = t.data.size() / sizeof(float);
  std::vector<uint16_t> half(n);
  for (size_t i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, t.data.data() + i * sizeof(float), sizeof(float));
    half[i] = FloatToHalf(v);
    const float back = HalfToFloat(half[i]);
    if (std::memcmp(&back, &v, sizeof(float)) != 0) return false;  // NaN payloads and -0 included
  }
  out->resize(n * sizeof(uint16_t));
  std::memcpy(out->data(), half.data(), out->size());
  return true;
}

struct EmitTensor {
  int ir = -1;
  Storage storage = Storage::kArena;
  uint64_t offset = 0;
  uint64_t size = 0;  // as stored
  bool half = false;  // stored as fp16 (fb::Tensor::stored_as)
  uint64_t content_hash = 0;  // constants of kShareableConstantBytes or more
  int first_use = -1;
  int last_use = -1;
};

flatbuffers::Offset<fb::Attribute> EmitAttribute(flatbuffers::FlatBufferBuilder& b, const Attribute& a) {
  auto name = b.CreateString(a.name);
  flatbuffers::Offset<flatbuffers::Vector<int64_t>> ints;
  flatbuffers::Offset<flatbuffers::Vector<float>> floats;
  flatbuffers::Offset<flatbuffers::String> s;
  if (a.type == AttrType::kInts) ints = b.CreateVector(a.ints);
  if (a.type == AttrType::kFloats) floats = b.CreateVector(a.floats);
  if (a.type == AttrType::kString) s = b.CreateString(a.s);
  fb::AttributeBuilder ab(b);
  ab.add_name(name);
  ab.add_type(static_cast<fb::AttrType>(a.type));
  ab.add_i(a.i);
  ab.add_f(a.f);
  if (a.type == AttrType::kInts) ab.add_ints(ints);
  if (a.type == AttrType::kFloats) ab.add_floats(floats);
  if (a.type == AttrType::kString) ab.add_s(s);
  return ab.Finish();
}


// The weight section, shared by every graph of a model: a constant emitted
// again with the same name and bytes (the same weight in another shape set)
// is stored once.
class WeightSection {
 public:
  uint64_t Add(const std::string& name, const std::vector<uint8_t>& data) {
    auto range = by_name_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it) {
      const uint64_t offset = it->second;
      if (offset + data.size() <= bytes_.size() &&
          std::equal(data.begin(), data.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(offset))) {
        return offset;
      }
    }
    const uint64_t offset = AlignUp(bytes_.size(), kWeightAlignment);
    bytes_.resize(offset + data.size());
    std::copy(data.begin(), data.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(offset));
    by_name_.emplace(name, offset);
    return offset;
  }
  std::vector<uint8_t>& Finish() {
    bytes_.resize(AlignUp(bytes_.size(), kWeightAlignment));
    return bytes_;
  }

 private:
  std::vector<uint8_t> bytes_;
  std::multimap<std::string, uint64_t> by_name_;
};

// One graph's tables in the FlatBuffers payload.
struct GraphTables {
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>> tensors;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Op>>> ops;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::IoTensor>>> inputs, outputs;
  flatbuffers::Offset<fb::MemoryPlan> plan;
};

Status EmitGraph(const Graph& graph_in, const TargetPlatform* platform, flatbuffers::FlatBufferBuilder& b,
                 bool half_weights, bool remove_weight, WeightSection* weights, GraphTables* tables) {
  Graph graph = graph_in;
  if (graph.inputs().empty() || graph.outputs().empty()) return NPURT_ERROR(kModelInvalid, "graph has no inputs or no outputs");
  // An output that is an input or a constant needs a node that writes it.
  std::vector<int> outputs = graph.outputs();
  for (int& o : outputs) {
    const IrTensor t = graph.tensors()[o];  // a copy: AddNode below grows the tensor list
    bool is_input = false;
    for (const IrInput& in : graph.inputs()) is_input |= in.tensor == o;
    bool repeated = std::count(outputs.begin(), outputs.end(), o) > 1;
    if (t.is_constant || is_input || repeated) {
      const std::string name = t.name;
      const int copy = graph.AddNode("Identity", {o}, {}, 1, name + ":copy");
      graph.tensors()[copy].name = name + (repeated ? ":" + std::to_string(&o - outputs.data()) : ":copy");
      graph.tensors()[copy].shape = t.shape;
      graph.tensors()[copy].dtype = t.dtype;
      graph.tensors()[copy].quant = t.quant;
      graph.tensors()[copy].has_shape = true;
      o = copy;
    }
  }
  for (const IrTensor& t : graph.tensors()) {
    if (!t.has_shape) return NPURT_ERROR(kModelInvalid, "tensor '%s' has no shape (run shape inference)", t.name.c_str());
  }
  // Lifetimes, and which IR tensors the model keeps.
  const int num_ir = static_cast<int>(graph.tensors().size());
  std::vector<EmitTensor> et(num_ir);
  std::vector<bool> used(num_ir, false);
  for (int i = 0; i < num_ir; ++i) et[i].ir = i;
  for (size_t k = 0; k < graph.nodes().size(); ++k) {
    const IrNode& n = graph.nodes()[k];
    if (FindOp(n.op_type) == nullptr) return NPURT_ERROR(kModelInvalid, "node '%s': unsupported op '%s'", n.name.c_str(), n.op_type.c_str());
    for (int i : n.inputs) {
      if (i < 0) continue;
      used[i] = true;
      et[i].last_use = static_cast<int>(k);
    }
    for (int o : n.outputs) {
      used[o] = true;
      et[o].first_use = static_cast<int>(k);
      et[o].last_use = std::max(et[o].last_use, static_cast<int>(k));
    }
  }
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    const int t = graph.inputs()[i].tensor;
    used[t] = true;
    et[t].storage = Storage::kInput;
    et[t].offset = i;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    used[outputs[i]] = true;
    et[outputs[i]].storage = Storage::kOutput;
    et[outputs[i]].offset = i;
  }
  // Constants go to the weight section; the rest of the intermediates to the arena.
  for (int i = 0; i < num_ir; ++i) {
    if (!used[i]) continue;
    const IrTensor& t = graph.tensors()[i];
    const int64_t n = NumElements(t.shape);
    if (n < 0) return NPURT_ERROR(kModelInvalid, "tensor '%s' has invalid shape", t.name.c_str());
    et[i].size = static_cast<uint64_t>(n) * DataTypeSize(t.dtype);
    if (t.is_constant) {
      if (t.data.size() != et[i].size) {
        return NPURT_ERROR(kModelInvalid, "constant '%s' holds %zu bytes, its shape needs %llu", t.name.c_str(),
                           t.data.size(), static_cast<unsigned long long>(et[i].size));
      }
      et[i].storage = Storage::kConstant;
      std::vector<uint8_t> half;
      et[i].half = half_weights && HalfBytes(t, &half);
      if (et[i].half) et[i].size = half.size();
      const std::vector<uint8_t>& stored = et[i].half ? half : t.data;
      if (stored.size() >= kShareableConstantBytes) et[i].content_hash = ConstantContentHash(stored.data(), stored.size());
      if (remove_weight && et[i].content_hash != 0) {
        et[i].storage = Storage::kShared;
      } else {
        et[i].offset = weights->Add(t.name, stored);
      }
    } else if (et[i].storage == Storage::kArena && et[i].first_use < 0) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s' is read but never written", t.name.c_str());
    }
  }
  // Views: the output of a Reshape-like node (OpDef::view) between arena tensors is planned on its input's
  // bytes -- one buffer for the whole chain, live from the first write to the last read -- so the node
  // copies nothing and the arena holds the value once.
  std::vector<int> root(num_ir);
  for (int i = 0; i < num_ir; ++i) root[i] = i;
  auto find = [&root](int i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  for (const IrNode& n : graph.nodes()) {
    if (!FindOp(n.op_type)->view || n.inputs.empty() || n.inputs[0] < 0 || n.outputs.empty()) continue;
    const int x = n.inputs[0], y = n.outputs[0];
    const bool arena = et[x].storage == Storage::kArena && et[y].storage == Storage::kArena &&
                       !graph.tensors()[x].is_constant && et[x].size == et[y].size;
    if (arena) root[find(y)] = find(x);
  }
  GreedyMemoryPlanner planner(kArenaAlignment);
  std::vector<int> buffer_of(num_ir, -1);  // per alias root: its planner id
  for (int i = 0; i < num_ir; ++i) {
    if (!used[i] || graph.tensors()[i].is_constant || et[i].storage != Storage::kArena) continue;
    const int r = find(i);
    if (r != i) {
      et[r].first_use = std::min(et[r].first_use, et[i].first_use);
      et[r].last_use = std::max(et[r].last_use, et[i].last_use);
    }
  }
  for (int i = 0; i < num_ir; ++i) {
    if (!used[i] || graph.tensors()[i].is_constant || et[i].storage != Storage::kArena || find(i) != i) continue;
    buffer_of[i] = planner.AddBuffer(et[i].size, et[i].first_use, et[i].last_use);
  }
  for (int i = 0; i < num_ir; ++i) {
    if (!used[i] || graph.tensors()[i].is_constant || et[i].storage != Storage::kArena) continue;
    et[i].offset = planner.GetOffset(buffer_of[find(i)]);
  }

  // Compact tensor indices.
  std::vector<int> index_of(num_ir, -1);
  std::vector<int> kept;
  for (int i = 0; i < num_ir; ++i) {
    if (used[i]) {
      index_of[i] = static_cast<int>(kept.size());
      kept.push_back(i);
    }
  }

  std::vector<flatbuffers::Offset<fb::Tensor>> fb_tensors;
  for (int i : kept) {
    const IrTensor& t = graph.tensors()[i];
    auto name = b.CreateString(t.name);
    auto shape = b.CreateVector(t.shape);
    flatbuffers::Offset<fb::QuantParams> quant;
    if (!t.quant.scale.empty()) {
      quant = fb::CreateQuantParams(b, b.CreateVector(t.quant.scale), b.CreateVector(t.quant.zero_point), t.quant.axis);
    }
    fb::TensorBuilder tb(b);
    tb.add_name(name);
    tb.add_shape(shape);
    tb.add_dtype(static_cast<fb::DataType>(t.dtype));
    tb.add_storage(static_cast<fb::Storage>(et[i].storage));
    tb.add_offset(et[i].offset);
    tb.add_size(et[i].size);
    if (!t.quant.scale.empty()) tb.add_quant(quant);
    tb.add_stored_as(et[i].half ? fb::DataType::FLOAT16 : fb::DataType::FLOAT32);
    tb.add_content_hash(et[i].content_hash);
    fb_tensors.push_back(tb.Finish());
  }
  std::vector<flatbuffers::Offset<fb::Op>> fb_ops;
  for (const IrNode& n : graph.nodes()) {
    std::vector<int> ins, outs;
    for (int i : n.inputs) ins.push_back(i < 0 ? -1 : index_of[i]);
    for (int o : n.outputs) outs.push_back(index_of[o]);
    std::vector<flatbuffers::Offset<fb::Attribute>> attrs;
    for (const Attribute& a : n.attrs.list()) attrs.push_back(EmitAttribute(b, a));
    fb_ops.push_back(fb::CreateOp(b, b.CreateString(n.op_type), b.CreateString(n.name), b.CreateVector(ins),
                                  b.CreateVector(outs), b.CreateVector(attrs)));
  }
  auto emit_io = [&](int ir, bool is_input, const IrInput* pre) {
    const IrTensor& t = graph.tensors()[ir];
    const bool four_d = t.shape.size() == 4;
    const int64_t channels = four_d ? t.shape[1] : 0;
    const bool image_like = four_d && (channels == 1 || channels == 3 || channels == 4);
    const Layout fmt = !four_d ? Layout::kUndefined : (is_input && image_like ? Layout::kNHWC : Layout::kNCHW);
    const DataType reported = ReportedType(t.dtype);
    const Layout native_fmt = !four_d ? Layout::kUndefined : (is_input && image_like ? Layout::kNHWC : Layout::kNC1HWC2);
    flatbuffers::Offset<flatbuffers::Vector<float>> mean, stdv;
    flatbuffers::Offset<flatbuffers::Vector<int>> order;
    if (pre && !pre->mean.empty()) mean = b.CreateVector(pre->mean);
    if (pre && !pre->std.empty()) stdv = b.CreateVector(pre->std);
    if (pre && !pre->channel_order.empty()) order = b.CreateVector(pre->channel_order);
    fb::IoTensorBuilder ib(b);
    ib.add_tensor(index_of[ir]);
    ib.add_fmt(static_cast<fb::Layout>(fmt));
    ib.add_dtype(static_cast<fb::DataType>(reported));
    ib.add_native_fmt(static_cast<fb::Layout>(native_fmt));
    ib.add_native_dtype(static_cast<fb::DataType>(reported));
    ib.add_native_c2(std::max(1, NativeC2(*platform, reported)));
    ib.add_native_w_align(platform->width_align);
    if (!mean.IsNull()) ib.add_mean(mean);
    if (!stdv.IsNull()) ib.add_std(stdv);
    if (!order.IsNull()) ib.add_channel_order(order);
    return ib.Finish();
  };
  std::vector<flatbuffers::Offset<fb::IoTensor>> fb_inputs, fb_outputs;
  for (const IrInput& in : graph.inputs()) fb_inputs.push_back(emit_io(in.tensor, true, &in));
  for (int o : outputs) fb_outputs.push_back(emit_io(o, false, nullptr));

  tables->plan = fb::CreateMemoryPlan(b, planner.GetArenaSize(), static_cast<uint32_t>(kArenaAlignment));
  tables->tensors = b.CreateVector(fb_tensors);
  tables->ops = b.CreateVector(fb_ops);
  tables->inputs = b.CreateVector(fb_inputs);
  tables->outputs = b.CreateVector(fb_outputs);
  return Status::Ok();
}

// The model: `graphs[root]` in the root fields; with more than one graph, every graph as a shape set.
Status EmitGraphs(const std::vector<const Graph*>& graphs, size_t root, const EmitOptions& options,
                  std::vector<uint8_t>* file) {
  const TargetPlatform* platform = FindTargetPlatform(options.target_platform);
  if (platform == nullptr) {
    return NPURT_ERROR(kParamInvalid, "unknown target platform '%s'", options.target_platform.c_str());
  }
  for (const IrNode& n : graphs[root]->nodes()) {
    if (n.op_type == "Custom" && !platform->custom_ops) {
      return NPURT_ERROR(kParamInvalid,
                         "node '%s' is a custom op, and %s's runtime (librknnmrt) has no custom op API; target a "
                         "platform with librknnrt (rk3588, rk3576, rk356x, rk3562)",
                         n.name.c_str(), platform->name.c_str());
    }
  }
  flatbuffers::FlatBufferBuilder b(1 << 16);
  b.ForceDefaults(true);  // every field present: tools and tests can patch a model in place
  WeightSection weights;
  GraphTables main;
  const bool half_weights = options.float_dtype == DataType::kFloat16;
  NPURT_RETURN_IF_ERROR(EmitGraph(*graphs[root], platform, b, half_weights, options.remove_weight, &weights, &main));
  std::vector<flatbuffers::Offset<fb::ShapeSet>> sets;
  for (size_t k = 0; graphs.size() > 1 && k < graphs.size(); ++k) {
    GraphTables t;
    NPURT_RETURN_IF_ERROR(EmitGraph(*graphs[k], platform, b, half_weights, options.remove_weight, &weights, &t));
    sets.push_back(fb::CreateShapeSet(b, t.tensors, t.ops, t.inputs, t.outputs, t.plan));
  }
  std::vector<uint8_t>& bytes = weights.Finish();
  auto model = fb::CreateModel(b, b.CreateString(ToolkitVersion()), b.CreateString(options.target_platform),
                               b.CreateString(options.framework), b.CreateString(options.custom_string),
                               main.tensors, main.ops, main.inputs, main.outputs, main.plan, bytes.size(),
                               b.CreateVector(sets), static_cast<fb::DataType>(options.float_dtype));
  fb::FinishModelBuffer(b, model);
  *file = AssembleModelFile(b.GetBufferPointer(), b.GetSize(), bytes.data(), bytes.size());
  return Status::Ok();
}

}  // namespace

const char* ToolkitVersion() { return "npurt 0.1.0"; }

Status EmitModel(const Graph& graph, const EmitOptions& options, std::vector<uint8_t>* file) {
  return EmitGraphs({&graph}, 0, options, file);
}

Status EmitDynamicModel(const std::vector<Graph>& shape_sets, size_t root, const EmitOptions& options,
                        std::vector<uint8_t>* file) {
  if (shape_sets.empty() || root >= shape_sets.size()) {
    return NPURT_ERROR(kParamInvalid, "a dynamic-shape model needs shape sets and a root among them");
  }
  std::vector<const Graph*> graphs;
  for (const Graph& g : shape_sets) graphs.push_back(&g);
  return EmitGraphs(graphs, root, options, file);
}

}  // namespace compiler
}  // namespace npurt
