// Builds small ONNX ModelProtos in C++ for the importer and convert tests
// (no Python, no files from outside the repository), and runs converted
// models through the runtime.
#pragma once

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "tests/common/run_model.h"

namespace npurt {
namespace onnx_test {

using Floats = std::vector<float>;
using Ints = std::vector<int64_t>;

class OnnxBuilder {
 public:
  explicit OnnxBuilder(int opset = 13, int64_t ir_version = 7) {
    model_.set_ir_version(ir_version);
    model_.set_producer_name("npurt-test");
    onnx::OperatorSetIdProto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  onnx::ModelProto& model() { return model_; }
  onnx::GraphProto& graph() { return *model_.mutable_graph(); }

  void AddOpset(const std::string& domain, int version) {
    onnx::OperatorSetIdProto* o = model_.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
  }

  // A graph input; a dim < 0 is dynamic: named `dim_names[i]` when given, else unknown.
  void Input(const std::string& name, const Ints& dims, int elem_type = onnx::TensorProto::FLOAT,
             const std::vector<std::string>& dim_names = {}) {
    SetValueInfo(graph().add_input(), name, dims, elem_type, dim_names);
  }
  void Output(const std::string& name, int elem_type = onnx::TensorProto::FLOAT) {
    onnx::ValueInfoProto* v = graph().add_output();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  }

  static onnx::TensorProto FloatTensor(const std::string& name, const Ints& dims, const Floats& values,
                                       bool raw = true) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t.add_dims(d);
    if (raw) {
      t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
    } else {
      for (float v : values) t.add_float_data(v);
    }
    return t;
  }
  static onnx::TensorProto Int64Tensor(const std::string& name, const Ints& dims, const Ints& values,
                                       bool raw = false) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t.add_dims(d);
    if (raw) {
      t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)));
    } else {
      for (int64_t v : values) t.add_int64_data(v);
    }
    return t;
  }

  void Initializer(const onnx::TensorProto& t) { *graph().add_initializer() = t; }
  void FloatInitializer(const std::string& name, const Ints& dims, const Floats& values) {
    Initializer(FloatTensor(name, dims, values));
  }
  void Int64Initializer(const std::string& name, const Ints& dims, const Ints& values) {
    Initializer(Int64Tensor(name, dims, values));
  }

  onnx::NodeProto* Node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    onnx::NodeProto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(graph().node_size()) : name);
    for (const std::string& i : inputs) n->add_input(i);
    for (const std::string& o : outputs) n->add_output(o);
    return n;
  }

  // A Constant node (Paddle style) holding `t` under attribute `value`.
  void ConstantNode(const std::string& output, const onnx::TensorProto& t) {
    onnx::NodeProto* n = Node("Constant", {}, {output});
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = t;
  }
  void FloatConstant(const std::string& output, const Ints& dims, const Floats& values, bool raw = true) {
    ConstantNode(output, FloatTensor(output, dims, values, raw));
  }
  void Int64Constant(const std::string& output, const Ints& dims, const Ints& values) {
    ConstantNode(output, Int64Tensor(output, dims, values));
  }

  static void AttrInt(onnx::NodeProto* n, const std::string& name, int64_t v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void AttrFloat(onnx::NodeProto* n, const std::string& name, float v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void AttrInts(onnx::NodeProto* n, const std::string& name, const Ints& v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void AttrFloats(onnx::NodeProto* n, const std::string& name, const Floats& v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float x : v) a->add_floats(x);
  }
  static void AttrString(onnx::NodeProto* n, const std::string& name, const std::string& v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }

  // A GRAPH attribute (an If branch): `body` fills the subgraph's nodes, initializers and outputs.
  static onnx::GraphProto* AttrGraph(onnx::NodeProto* n, const std::string& name) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    a->mutable_g()->set_name(name);
    return a->mutable_g();
  }
  static onnx::NodeProto* SubgraphNode(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& inputs,
                                       const std::vector<std::string>& outputs) {
    onnx::NodeProto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(g->name() + "_" + op + "_" + std::to_string(g->node_size()));
    for (const std::string& i : inputs) n->add_input(i);
    for (const std::string& o : outputs) n->add_output(o);
    return n;
  }
  // Declares a tensor's type and shape in graph.value_info (what onnx.shape_inference writes).
  void ValueInfo(const std::string& name, const Ints& dims, int elem_type = onnx::TensorProto::FLOAT) {
    SetValueInfo(graph().add_value_info(), name, dims, elem_type, {});
  }
  static void SubgraphOutput(onnx::GraphProto* g, const std::string& name, int elem_type = onnx::TensorProto::FLOAT) {
    onnx::ValueInfoProto* v = g->add_output();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  }

  std::string Serialize() const { return model_.SerializeAsString(); }
  // Writes the model to `path`; false on failure.
  bool Write(const std::string& path) const {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    const std::string bytes = Serialize();
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(f);
  }

 private:
  static void SetValueInfo(onnx::ValueInfoProto* v, const std::string& name, const Ints& dims, int elem_type,
                           const std::vector<std::string>& dim_names) {
    v->set_name(name);
    onnx::TypeProto_Tensor* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem_type);
    onnx::TensorShapeProto* shape = tt->mutable_shape();
    for (size_t i = 0; i < dims.size(); ++i) {
      onnx::TensorShapeProto_Dimension* d = shape->add_dim();
      if (dims[i] >= 0) {
        d->set_dim_value(dims[i]);
      } else if (i < dim_names.size() && !dim_names[i].empty()) {
        d->set_dim_param(dim_names[i]);
      }
    }
  }

  onnx::ModelProto model_;
};

// A scratch file path for this test process.
inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/npurt_onnx_test_" + std::to_string(::getpid()) + "_" + name;
}

inline bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

// Writes `b` to a temporary file and converts it; the file is removed afterwards.
inline Status Convert(const OnnxBuilder& b, const compiler::CompileOptions& options, std::vector<uint8_t>* model,
                      const std::string& name = "model.onnx") {
  const std::string path = TempPath(name);
  if (!b.Write(path)) return NPURT_ERROR(kFail, "cannot write %s", path.c_str());
  Status s = compiler::CompileOnnxFile(path, options, model);
  std::remove(path.c_str());
  return s;
}

inline Status Import(const OnnxBuilder& b, const compiler::CompileOptions& options, compiler::Graph* graph) {
  const std::string path = TempPath("import.onnx");
  if (!b.Write(path)) return NPURT_ERROR(kFail, "cannot write %s", path.c_str());
  Status s = compiler::ImportAndOptimize(path, options, graph);
  std::remove(path.c_str());
  return s;
}

// Runs a model file through the runtime on float NCHW inputs (tests/common/run_model.h).
// `shape_set` >= 0: that shape set of a dynamic-shape model.
inline std::vector<Floats> RunModel(const std::vector<uint8_t>& file, const std::vector<Floats>& inputs,
                                    int shape_set = -1) {
  return testing::RunModelFile(file, inputs, shape_set);
}

// Converts and runs in one go.
inline std::vector<Floats> ConvertAndRun(const OnnxBuilder& b, const compiler::CompileOptions& options,
                                         const std::vector<Floats>& inputs) {
  std::vector<uint8_t> file;
  Status s = Convert(b, options, &file);
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return {};
  return RunModel(file, inputs);
}

inline void ExpectNear(const Floats& got, const Floats& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace onnx_test
}  // namespace npurt
