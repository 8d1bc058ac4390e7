// ONNX ModelProto -> Graph: opset check, topological order, the nodes the
// outputs need (subgraph cut), graph inputs with fixed shapes, weights from
// initializers and Constant nodes, then one converter call per node (which
// infers shapes and folds constants as it goes).
#include "compiler/onnx/onnx_importer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {

namespace {

using onnx_import::NodeContext;
using onnx_import::OnnxConverter;

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string SupportedOpList() {
  std::vector<std::string> names;
  for (const OnnxConverter& c : onnx_import::OnnxConverters()) names.push_back(c.op_type);
  return JoinNames(names);
}

// "[?,3,?,?]" for a model's declared input shape.
std::string DeclaredShape(const onnx::TensorShapeProto& shape) {
  std::string s = "[";
  for (int d = 0; d < shape.dim_size(); ++d) {
    const auto& dim = shape.dim(d);
    s += (d ? "," : "") + (dim.has_dim_value() && dim.dim_value() >= 0 ? std::to_string(dim.dim_value()) : "?");
  }
  return s + "]";
}

// Every tensor name a node's subgraphs (If branches) read or return, nested ones included: the
// node depends on those of the outer graph as if they were inputs.
void CollectSubgraphNames(const onnx::NodeProto& node, std::vector<std::string>* names) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    std::vector<const onnx::GraphProto*> graphs;
    if (a.has_g()) graphs.push_back(&a.g());
    for (const onnx::GraphProto& g : a.graphs()) graphs.push_back(&g);
    for (const onnx::GraphProto* g : graphs) {
      for (const onnx::NodeProto& n : g->node()) {
        names->insert(names->end(), n.input().begin(), n.input().end());
        CollectSubgraphNames(n, names);
      }
      for (const onnx::ValueInfoProto& v : g->output()) names->push_back(v.name());
    }
  }
}

// The names a node reads: its inputs, then those its subgraphs read.
std::vector<std::string> NodeDependencies(const onnx::NodeProto& node) {
  std::vector<std::string> names(node.input().begin(), node.input().end());
  CollectSubgraphNames(node, &names);
  return names;
}

class Importer {
 public:
  Importer(const onnx::ModelProto& model, const std::string& label, const ImportOptions& options, Graph* graph)
      : model_(model), graph_proto_(model.graph()), label_(label), options_(options), graph_(graph) {
    subgraph_importer_ = [this](const onnx::GraphProto& g, const std::string& scope, std::vector<int>* outputs) {
      return ImportSubgraph(g, scope, outputs);
    };
  }

  Status Run() {
    NPURT_RETURN_IF_ERROR(ReadOpset());
    if (graph_proto_.sparse_initializer_size() > 0) {
      return NPURT_ERROR(kModelInvalid, "'%s' has sparse initializers, which are not supported", label_.c_str());
    }
    for (const onnx::TensorProto& t : graph_proto_.initializer()) initializers_[t.name()] = &t;
    for (const onnx::ValueInfoProto& v : graph_proto_.input()) {
      declared_[v.name()] = &v;
      if (!initializers_.count(v.name())) model_inputs_.push_back(v.name());
    }
    for (const onnx::ValueInfoProto& v : graph_proto_.value_info()) declared_.emplace(v.name(), &v);
    for (const onnx::ValueInfoProto& v : graph_proto_.output()) declared_.emplace(v.name(), &v);
    NPURT_RETURN_IF_ERROR(OrderNodes());
    NPURT_RETURN_IF_ERROR(SelectNodes());
    NPURT_RETURN_IF_ERROR(AddInputs());
    if (graph_->inputs().empty()) {
      return NPURT_ERROR(kModelInvalid, "'%s': unsupported model: it has no inputs (every output is a constant)",
                         label_.c_str());
    }
    for (size_t k : order_) {
      if (needed_nodes_.count(k)) NPURT_RETURN_IF_ERROR(ConvertNode(k));
    }
    for (const std::string& name : targets_) {
      int id = -1;
      NPURT_RETURN_IF_ERROR(Lookup(name, &id));
      // A folded (constant) output keeps its ONNX name on a copy made at run time.
      if (graph_->tensors()[id].is_constant && graph_->tensors()[id].name == name) {
        graph_->tensors()[id].name = name + ":value";
        graph_->AddNode("Identity", {id}, {}, 1, name + ":identity");
        NPURT_RETURN_IF_ERROR(graph_->InferNodeShapes(graph_->nodes().size() - 1));
        id = graph_->nodes().back().outputs[0];
        graph_->tensors()[id].name = name;
        ids_[name] = id;
      }
      graph_->AddOutput(id);
    }
    return Status::Ok();
  }

 private:
  Status ReadOpset() {
    bool found = false;
    for (const onnx::OperatorSetIdProto& o : model_.opset_import()) {
      if (IsDefaultDomain(o.domain())) {
        opset_ = static_cast<int>(o.version());
        found = true;
      }
    }
    if (!found && model_.ir_version() < 3) {
      opset_ = 1;  // IR versions before 3 had no opset_import: opset 1
      found = true;
    }
    if (!found) return NPURT_ERROR(kModelInvalid, "'%s' declares no ai.onnx opset", label_.c_str());
    if (opset_ < kMinOnnxOpset || opset_ > kMaxOnnxOpset) {
      return NPURT_ERROR(kModelInvalid, "'%s' uses ai.onnx opset %d; npurt imports opsets %d to %d", label_.c_str(),
                         opset_, kMinOnnxOpset, kMaxOnnxOpset);
    }
    return Status::Ok();
  }

  // A topological order (depth first, keeping the file's order where it is one).
  Status OrderNodes() {
    const int n = graph_proto_.node_size();
    for (int k = 0; k < n; ++k) {
      for (const std::string& out : graph_proto_.node(k).output()) {
        if (!out.empty()) producer_.emplace(out, static_cast<size_t>(k));
      }
    }
    std::vector<std::vector<std::string>> deps(n);
    for (int k = 0; k < n; ++k) deps[k] = NodeDependencies(graph_proto_.node(k));
    std::vector<int> state(n, 0);  // 0 new, 1 on the stack, 2 done
    for (int root = 0; root < n; ++root) {
      if (state[root]) continue;
      std::vector<std::pair<int, int>> stack{{root, 0}};
      state[root] = 1;
      while (!stack.empty()) {
        auto& [k, next] = stack.back();
        if (next < static_cast<int>(deps[k].size())) {
          const std::string& in = deps[k][next++];
          auto it = producer_.find(in);
          if (in.empty() || it == producer_.end() || initializers_.count(in)) continue;
          const int p = static_cast<int>(it->second);
          if (state[p] == 1) {
            return NPURT_ERROR(kModelInvalid, "'%s': the graph has a cycle through tensor '%s'", label_.c_str(),
                               in.c_str());
          }
          if (state[p] == 0) {
            state[p] = 1;
            stack.push_back({p, 0});
          }
          continue;
        }
        state[k] = 2;
        order_.push_back(static_cast<size_t>(k));
        stack.pop_back();
      }
    }
    return Status::Ok();
  }

  bool IsModelInput(const std::string& name) const {
    for (const std::string& n : model_inputs_) {
      if (n == name) return true;
    }
    return false;
  }

  bool Exists(const std::string& name) const {
    return producer_.count(name) || initializers_.count(name) || IsModelInput(name);
  }

  // Which nodes the outputs need, stopping at the cut inputs.
  Status SelectNodes() {
    if (options_.outputs.empty()) {
      for (const onnx::ValueInfoProto& v : graph_proto_.output()) targets_.push_back(v.name());
    } else {
      targets_ = options_.outputs;
    }
    if (targets_.empty()) return NPURT_ERROR(kModelInvalid, "'%s' has no outputs", label_.c_str());
    for (const std::string& name : targets_) {
      if (!Exists(name)) return NPURT_ERROR(kParamInvalid, "output '%s': the model has no tensor of that name", name.c_str());
    }
    for (const std::string& name : options_.inputs) {
      if (!producer_.count(name) && !IsModelInput(name)) {
        return NPURT_ERROR(kParamInvalid, "input '%s': the model has no tensor of that name that could be an input",
                           name.c_str());
      }
      if (!cut_inputs_.insert(name).second) return NPURT_ERROR(kParamInvalid, "input '%s' is listed twice", name.c_str());
    }
    std::vector<std::string> stack(targets_.begin(), targets_.end());
    std::unordered_set<std::string> seen;
    while (!stack.empty()) {
      const std::string name = stack.back();
      stack.pop_back();
      if (name.empty() || !seen.insert(name).second) continue;
      used_names_.insert(name);
      if (cut_inputs_.count(name)) {
        reached_cut_.insert(name);
        continue;
      }
      if (initializers_.count(name)) continue;
      if (IsModelInput(name)) {
        if (!cut_inputs_.empty()) {
          return NPURT_ERROR(kParamInvalid,
                             "the outputs still depend on model input '%s', which is not among the given inputs",
                             name.c_str());
        }
        continue;
      }
      auto it = producer_.find(name);
      if (it == producer_.end()) continue;  // reported when a node uses it
      needed_nodes_.insert(it->second);
      for (const std::string& in : NodeDependencies(graph_proto_.node(static_cast<int>(it->second)))) {
        stack.push_back(in);
      }
    }
    for (const std::string& name : options_.inputs) {
      if (!reached_cut_.count(name)) {
        return NPURT_ERROR(kParamInvalid, "input '%s' is not used by the outputs", name.c_str());
      }
    }
    return Status::Ok();
  }

  // Element type and static shape of `name` as the model declares it (false when unknown or dynamic).
  bool DeclaredStatic(const std::string& name, Shape* shape, DataType* dtype) const {
    auto it = declared_.find(name);
    if (it == declared_.end() || !it->second->type().has_tensor_type()) return false;
    const auto& tt = it->second->type().tensor_type();
    if (!tt.has_shape() || !onnx_import::OnnxTypeToDataType(tt.elem_type(), dtype).ok()) return false;
    shape->clear();
    for (const auto& dim : tt.shape().dim()) {
      if (!dim.has_dim_value() || dim.dim_value() < 0) return false;
      shape->push_back(dim.dim_value());
    }
    return true;
  }

  Status AddInputs() {
    input_shapes_ = options_.input_shapes;
    if (!options_.input_shape_list.empty()) {
      const std::vector<std::string>& names = cut_inputs_.empty() ? model_inputs_ : options_.inputs;
      if (options_.input_shape_list.size() != names.size()) {
        return NPURT_ERROR(kParamInvalid, "%zu input shapes for a model with %zu inputs (%s)",
                           options_.input_shape_list.size(), names.size(), JoinNames(names).c_str());
      }
      for (size_t i = 0; i < names.size(); ++i) input_shapes_[names[i]] = options_.input_shape_list[i];
    }
    for (const auto& kv : input_shapes_) {
      const bool is_input = cut_inputs_.empty() ? IsModelInput(kv.first) : cut_inputs_.count(kv.first) > 0;
      if (!is_input) {
        return NPURT_ERROR(kParamInvalid, "input shape given for '%s', which is not an input (inputs: %s)",
                           kv.first.c_str(),
                           JoinNames(cut_inputs_.empty() ? model_inputs_ : options_.inputs).c_str());
      }
      for (int64_t d : kv.second) {
        if (d < 0) {
          return NPURT_ERROR(kParamInvalid, "input shape for '%s' has dim %lld; dims must not be negative",
                             kv.first.c_str(), static_cast<long long>(d));
        }
      }
    }
    if (!cut_inputs_.empty()) {
      for (const std::string& name : options_.inputs) NPURT_RETURN_IF_ERROR(AddCutInput(name));
      return Status::Ok();
    }
    for (const std::string& name : model_inputs_) NPURT_RETURN_IF_ERROR(AddModelInput(*declared_.at(name)));
    return Status::Ok();
  }

  Status AddModelInput(const onnx::ValueInfoProto& v) {
    const std::string& name = v.name();
    if (!v.type().has_tensor_type()) {
      return NPURT_ERROR(kModelInvalid, "input '%s' is not a tensor (sequences and maps are not supported)", name.c_str());
    }
    const auto& tt = v.type().tensor_type();
    DataType dtype;
    Status s = onnx_import::OnnxTypeToDataType(tt.elem_type(), &dtype);
    if (!s.ok()) return Status(s.code(), "input '" + name + "': " + s.message());
    Shape shape;
    auto given = input_shapes_.find(name);
    if (given != input_shapes_.end()) {
      shape = given->second;
      if (tt.has_shape() && tt.shape().dim_size() != static_cast<int>(shape.size())) {
        return NPURT_ERROR(kParamInvalid, "input '%s' has %d dims %s, the given shape %s has %zu", name.c_str(),
                           tt.shape().dim_size(), DeclaredShape(tt.shape()).c_str(), ShapeToString(shape).c_str(),
                           shape.size());
      }
    } else {
      if (!tt.has_shape()) {
        return NPURT_ERROR(kParamInvalid, "input '%s' has no shape in the model; give it with --input-shapes %s:d0,d1,...",
                           name.c_str(), name.c_str());
      }
      for (int d = 0; d < tt.shape().dim_size(); ++d) {
        const auto& dim = tt.shape().dim(d);
        if (!dim.has_dim_value() || dim.dim_value() < 0) {
          const std::string what = dim.has_dim_param() && !dim.dim_param().empty() ? "'" + dim.dim_param() + "'" : "?";
          return NPURT_ERROR(kParamInvalid,
                             "input '%s' has dynamic dim %d (%s) in shape %s; give its full shape with "
                             "--input-shapes %s:<%d comma-separated dims>",
                             name.c_str(), d, what.c_str(), DeclaredShape(tt.shape()).c_str(), name.c_str(),
                             tt.shape().dim_size());
        }
        shape.push_back(dim.dim_value());
      }
    }
    NPURT_RETURN_IF_ERROR(ApplyBatchSize(name, &shape));
    const int id = graph_->AddTensor(name, shape, dtype);
    graph_->AddInput(id);
    ids_[name] = id;
    return Status::Ok();
  }

  Status ApplyBatchSize(const std::string& name, Shape* shape) const {
    if (options_.batch_size <= 1) return Status::Ok();
    if (shape->empty() || (*shape)[0] != 1) {
      return NPURT_ERROR(kParamInvalid, "--batch-size %lld: input '%s' has shape %s; the batch size applies to "
                         "inputs whose first dim is 1",
                         static_cast<long long>(options_.batch_size), name.c_str(), ShapeToString(*shape).c_str());
    }
    (*shape)[0] = options_.batch_size;
    return Status::Ok();
  }

  Status AddCutInput(const std::string& name) {
    if (IsModelInput(name)) return AddModelInput(*declared_.at(name));
    Shape shape;
    DataType dtype = DataType::kFloat32;
    Shape declared_shape;
    DataType declared_type = DataType::kFloat32;
    const bool declared = DeclaredStatic(name, &declared_shape, &declared_type);
    auto given = input_shapes_.find(name);
    if (given != input_shapes_.end()) {
      shape = given->second;
      if (declared) dtype = declared_type;
    } else if (declared) {
      shape = declared_shape;
      dtype = declared_type;
    } else {
      // Import the model up to this tensor to learn its shape and type.
      ImportOptions sub;
      sub.input_shapes = input_shapes_;
      for (auto it = sub.input_shapes.begin(); it != sub.input_shapes.end();) {
        it = IsModelInput(it->first) ? std::next(it) : sub.input_shapes.erase(it);
      }
      sub.outputs = {name};
      Graph g;
      Status s = Importer(model_, label_, sub, &g).Run();
      if (!s.ok()) {
        return NPURT_ERROR(kParamInvalid, "input '%s': cannot infer its shape (%s); give it with --input-shapes %s:d0,d1,...",
                           name.c_str(), s.message().c_str(), name.c_str());
      }
      const IrTensor& t = g.tensors()[g.outputs()[0]];
      shape = t.shape;
      dtype = t.dtype;
    }
    NPURT_RETURN_IF_ERROR(ApplyBatchSize(name, &shape));
    const int id = graph_->AddTensor(name, shape, dtype);
    graph_->AddInput(id);
    ids_[name] = id;
    return Status::Ok();
  }

  // IR tensor of an ONNX name; initializers become constants on first use.
  Status Lookup(const std::string& name, int* id) {
    auto it = ids_.find(name);
    if (it != ids_.end()) {
      *id = it->second;
      return Status::Ok();
    }
    auto init = initializers_.find(name);
    if (init == initializers_.end()) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s' is not produced by any node, initializer or graph input",
                         name.c_str());
    }
    DataType dtype;
    Shape shape;
    std::vector<uint8_t> bytes;
    NPURT_RETURN_IF_ERROR(
        onnx_import::TensorProtoToBytes(*init->second, "initializer '" + name + "'", &dtype, &shape, &bytes));
    *id = graph_->AddConstantBytes(name, shape, dtype, bytes.data(), bytes.size());
    ids_[name] = *id;
    return Status::Ok();
  }

  Status ConvertNode(size_t k) {
    const onnx::NodeProto& node = graph_proto_.node(static_cast<int>(k));
    return ConvertNodeProto(node, node.name().empty() ? node.op_type() + "_" + std::to_string(k) : node.name());
  }

  // Imports an If branch where the If node stands: its initializers and node outputs are visible to
  // its own nodes only (the outer names it reads resolve as usual); returns its outputs' tensors.
  Status ImportSubgraph(const onnx::GraphProto& g, const std::string& scope, std::vector<int>* outputs) {
    if (g.sparse_initializer_size() > 0) {
      return NPURT_ERROR(kModelInvalid, "subgraph '%s' has sparse initializers, which are not supported", scope.c_str());
    }
    const auto saved_ids = ids_;
    const auto saved_initializers = initializers_;
    for (const onnx::TensorProto& t : g.initializer()) {
      initializers_[t.name()] = &t;
      ids_.erase(t.name());
    }
    Status status = Status::Ok();
    for (int k = 0; k < g.node_size() && status.ok(); ++k) {
      const onnx::NodeProto& node = g.node(k);
      status = ConvertNodeProto(node, scope + "/" + (node.name().empty() ? node.op_type() + "_" + std::to_string(k)
                                                                          : node.name()));
    }
    for (int i = 0; i < g.output_size() && status.ok(); ++i) {
      int id = -1;
      status = Lookup(g.output(i).name(), &id);
      if (status.ok()) outputs->push_back(id);
    }
    ids_ = saved_ids;
    initializers_ = saved_initializers;
    if (!status.ok()) return Status(status.code(), "in subgraph '" + scope + "': " + status.message());
    return Status::Ok();
  }

  Status ConvertNodeProto(const onnx::NodeProto& node, const std::string& name) {
    const bool custom = !onnx_import::IsOnnxDomain(node.domain()) ||
                        std::find(options_.custom_op_types.begin(), options_.custom_op_types.end(), node.op_type()) !=
                            options_.custom_op_types.end();
    const OnnxConverter* conv = IsDefaultDomain(node.domain()) ? onnx_import::FindOnnxConverter(node.op_type()) : nullptr;
    if (conv == nullptr && !custom) {
      return NPURT_ERROR(kModelInvalid,
                         "node '%s': unsupported operator '%s' (domain '%s', opset %d); supported ONNX operators: %s",
                         name.c_str(), node.op_type().c_str(), node.domain().empty() ? "ai.onnx" : node.domain().c_str(),
                         opset_, SupportedOpList().c_str());
    }
    std::vector<int> inputs;
    for (const std::string& in : node.input()) {
      int id = -1;
      if (!in.empty()) {
        Status s = Lookup(in, &id);
        if (!s.ok()) {
          return NPURT_ERROR(kModelInvalid, "node '%s' (%s): input %s", name.c_str(), node.op_type().c_str(),
                             s.message().c_str());
        }
      }
      inputs.push_back(id);
    }
    NodeContext ctx(graph_, node, name, opset_, inputs);
    ctx.set_used_names(&used_names_);
    ctx.set_subgraph_importer(&subgraph_importer_);
    const size_t first_new = graph_->tensors().size();
    std::vector<int> produced;
    if (custom) {
      NPURT_RETURN_IF_ERROR(onnx_import::ConvertCustomNode(
          ctx, [this](const std::string& n, Shape* shape, DataType* dtype) { return DeclaredStatic(n, shape, dtype); },
          &produced));
    } else {
      NPURT_RETURN_IF_ERROR(conv->convert(ctx, &produced));
    }
    for (int i = 0; i < node.output_size(); ++i) {
      const std::string& out = node.output(i);
      if (out.empty() || cut_inputs_.count(out)) continue;
      const int id = i < static_cast<int>(produced.size()) ? produced[i] : -1;
      if (id < 0) {
        if (used_names_.count(out)) {
          return NPURT_ERROR(kModelInvalid,
                             "node '%s' (%s): unsupported operator output %d ('%s'): the model uses it, npurt does "
                             "not compute it",
                             name.c_str(), node.op_type().c_str(), i, out.c_str());
        }
        continue;
      }
      if (static_cast<size_t>(id) >= first_new) graph_->tensors()[id].name = out;
      ids_[out] = id;
    }
    return Status::Ok();
  }

  const onnx::ModelProto& model_;
  const onnx::GraphProto& graph_proto_;
  const std::string label_;
  const ImportOptions& options_;
  std::map<std::string, Shape> input_shapes_;  // options_.input_shapes, plus input_shape_list by name
  Graph* graph_;
  int opset_ = 0;
  std::unordered_map<std::string, const onnx::TensorProto*> initializers_;
  std::unordered_map<std::string, const onnx::ValueInfoProto*> declared_;
  std::vector<std::string> model_inputs_;
  std::unordered_map<std::string, size_t> producer_;
  std::vector<size_t> order_;
  std::vector<std::string> targets_;
  std::set<std::string> cut_inputs_, reached_cut_;
  std::unordered_set<size_t> needed_nodes_;
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, int> ids_;
  NodeContext::SubgraphImporter subgraph_importer_;
};

}  // namespace

Status ImportOnnxBytes(const void* data, size_t size, const std::string& label, const ImportOptions& options,
                       Graph* graph) {
  onnx::ModelProto model;
  google::protobuf::io::ArrayInputStream stream(data, static_cast<int>(std::min<size_t>(size, INT_MAX)));
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(INT_MAX);
  if (size > static_cast<size_t>(INT_MAX)) {
    return NPURT_ERROR(kModelInvalid, "'%s' is %zu bytes; ONNX files must be smaller than 2 GB", label.c_str(), size);
  }
  if (size == 0) return NPURT_ERROR(kModelInvalid, "'%s' is empty, not an ONNX model", label.c_str());
  if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return NPURT_ERROR(kModelInvalid, "'%s' is not a valid ONNX model (protobuf parsing failed: corrupt or truncated file)",
                       label.c_str());
  }
  if (!model.has_graph() || model.ir_version() <= 0) {
    return NPURT_ERROR(kModelInvalid, "'%s' is not an ONNX model (no %s)", label.c_str(),
                       model.has_graph() ? "ir_version" : "graph");
  }
  *graph = Graph();
  return Importer(model, label, options, graph).Run();
}

Status ImportOnnxFile(const std::string& path, const ImportOptions& options, Graph* graph) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return NPURT_ERROR(kParamInvalid, "cannot open '%s': %s", path.c_str(), std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return NPURT_ERROR(kParamInvalid, "cannot read '%s': it is a directory", path.c_str());
  std::ifstream file(path, std::ios::binary);
  if (!file) return NPURT_ERROR(kParamInvalid, "cannot open '%s': %s", path.c_str(), std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return NPURT_ERROR(kParamInvalid, "cannot read '%s': %s", path.c_str(), std::strerror(errno));
  return ImportOnnxBytes(bytes.data(), bytes.size(), path, options, graph);
}

std::vector<OnnxOpSupport> SupportedOnnxOps() {
  std::vector<OnnxOpSupport> list;
  for (const OnnxConverter& c : onnx_import::OnnxConverters()) {
    OnnxOpSupport s;
    s.op_type = c.op_type;
    switch (c.kind) {
      case onnx_import::OnnxOpKind::kRuntime: s.kind = "runtime"; break;
      case onnx_import::OnnxOpKind::kLowered: s.kind = "lowered"; break;
      case onnx_import::OnnxOpKind::kImportOnly: s.kind = "import-only"; break;
    }
    s.note = c.note;
    list.push_back(std::move(s));
  }
  return list;
}

}  // namespace compiler
}  // namespace npurt
