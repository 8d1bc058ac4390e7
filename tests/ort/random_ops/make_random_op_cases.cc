// npurt_make_random_op_cases [--seed N] [--known-issues] DIR
//
// Writes the ort_random_ops suite into DIR (emptied first): randomized
// Conv, ConvTranspose, pooling, Resize/Upsample, activation and fused-chain
// cases in the ONNX backend-test layout. Same seed, same cases. Only
// operators and attribute combinations npurt claims to support
// (docs/supported_ops.md) are generated. --known-issues also writes the
// variants on which npurt and ONNX Runtime are known to disagree (npurt bugs
// and ONNX Runtime departures from the ONNX text; see where known_issues() is
// read) to reproduce them; the suite runs without it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {

int Rng::Int(int lo, int hi) {
  const uint32_t span = static_cast<uint32_t>(hi - lo) + 1u;
  return lo + static_cast<int>(engine_() % span);
}

float Rng::Uniform(float lo, float hi) {
  const float unit = static_cast<float>(engine_() >> 8) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
  return lo + (hi - lo) * unit;
}

Floats Rng::Fill(int64_t count, float lo, float hi) {
  Floats v(static_cast<size_t>(count));
  for (float& x : v) x = Uniform(lo, hi);
  return v;
}

onnx::AttributeProto AttrInt(const std::string& name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}

onnx::AttributeProto AttrInts(const std::string& name, const Ints& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a.add_ints(x);
  return a;
}

onnx::AttributeProto AttrFloat(const std::string& name, float v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
  return a;
}

onnx::AttributeProto AttrFloats(const std::string& name, const Floats& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOATS);
  for (float x : v) a.add_floats(x);
  return a;
}

onnx::AttributeProto AttrString(const std::string& name, const std::string& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(v);
  return a;
}

namespace {

int64_t Count(const Ints& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

onnx::TensorProto FloatTensor(const std::string& name, const Ints& dims, const Floats& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

}  // namespace

Case::Case(std::string name, int opset, Rng* rng) : name_(std::move(name)), rng_(rng) {
  model_.set_ir_version(8);
  model_.set_producer_name("npurt_make_random_op_cases");
  onnx::OperatorSetIdProto* o = model_.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  model_.mutable_graph()->set_name(name_);
}

std::string Case::Input(const Ints& dims, float lo, float hi) {
  const std::string name = Fresh("x");
  onnx::ValueInfoProto* v = model_.mutable_graph()->add_input();
  v->set_name(name);
  onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
  inputs_.push_back(FloatTensor(name, dims, rng_->Fill(Count(dims), lo, hi)));
  return name;
}

std::string Case::Weight(const Ints& dims, float scale) {
  return Constant(dims, rng_->Fill(Count(dims), -scale, scale));
}

std::string Case::Constant(const Ints& dims, const Floats& values) {
  const std::string name = Fresh("w");
  *model_.mutable_graph()->add_initializer() = FloatTensor(name, dims, values);
  return name;
}

std::string Case::Int64Constant(const Ints& dims, const Ints& values) {
  const std::string name = Fresh("w");
  onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);
  return name;
}

std::string Case::Node(const std::string& op, const std::vector<std::string>& inputs, const Attrs& attrs) {
  return NodeN(op, inputs, attrs, 1)[0];
}

std::vector<std::string> Case::NodeN(const std::string& op, const std::vector<std::string>& inputs,
                                     const Attrs& attrs, int outputs) {
  onnx::NodeProto* n = model_.mutable_graph()->add_node();
  n->set_op_type(op);
  n->set_name(Fresh("n"));
  for (const std::string& in : inputs) n->add_input(in);
  std::vector<std::string> names;
  for (int i = 0; i < outputs; ++i) {
    names.push_back(Fresh("t"));
    n->add_output(names.back());
  }
  for (const onnx::AttributeProto& a : attrs) *n->add_attribute() = a;
  return names;
}

void Case::Output(const std::string& tensor, int elem_type) {
  onnx::ValueInfoProto* v = model_.mutable_graph()->add_output();
  v->set_name(tensor);
  v->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
}

void Suite::Add(const std::string& family, const Case& c) {
  namespace fs = std::filesystem;
  std::string name = c.name();
  const int seen = ++names_[name];
  if (seen > 1) name += "_" + std::to_string(seen);
  const fs::path dir = fs::path(dir_) / name;
  fs::create_directories(dir / "test_data_set_0");
  auto write = [](const fs::path& path, const google::protobuf::MessageLite& m) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !m.SerializeToOstream(&out)) {
      std::fprintf(stderr, "npurt_make_random_op_cases: cannot write %s\n", path.c_str());
      std::exit(1);
    }
  };
  write(dir / "model.onnx", c.model());
  for (size_t k = 0; k < c.inputs().size(); ++k) {
    write(dir / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"), c.inputs()[k]);
  }
  ++counts_[family];
}

std::string Join(const Ints& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  std::string s;
  for (const char* p = buf; *p; ++p)
    s += *p == '.' ? std::string("p") : *p == '-' ? std::string("m") : std::string(1, *p);
  return s;
}

std::string Lower(const std::string& s) {
  std::string out;
  for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::string ShapeTag(const Ints& dims) {
  static const char* const kSpatial[3][3] = {{"w"}, {"h", "w"}, {"d", "h", "w"}};
  if (dims.size() < 3 || dims.size() > 5) return "s" + Join(dims);
  std::string s = "n" + std::to_string(dims[0]) + "c" + std::to_string(dims[1]);
  for (size_t i = 2; i < dims.size(); ++i) s += kSpatial[dims.size() - 3][i - 2] + std::to_string(dims[i]);
  return s;
}

}  // namespace random_ops

int main(int argc, char** argv) {
  uint64_t seed = 20261129;
  const char* dir = nullptr;
  bool known_issues = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--known-issues") == 0) {
      known_issues = true;
    } else if (argv[i][0] != '-' && dir == nullptr) {
      dir = argv[i];
    } else {
      dir = nullptr;
      break;
    }
  }
  if (dir == nullptr) {
    std::fprintf(stderr, "usage: npurt_make_random_op_cases [--seed N] [--known-issues] DIR\n");
    return 2;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // no stale cases from another seed or an older generator
  random_ops::Suite suite(dir, known_issues);
  using Family = void (*)(random_ops::Rng*, random_ops::Suite*);
  const Family families[] = {random_ops::AddConvCases,       random_ops::AddConvTransposeCases,
                             random_ops::AddPoolCases,       random_ops::AddResizeCases,
                             random_ops::AddActivationCases, random_ops::AddFusedChainCases,
                             random_ops::AddReduceCases,     random_ops::AddLogicCases,
                             random_ops::AddMovementCases,   random_ops::AddNormCases,
                             random_ops::AddRecurrentCases,  random_ops::AddRoiCases};
  uint64_t k = 0;
  for (Family f : families) {
    random_ops::Rng rng(seed * 1000003u + ++k);
    f(&rng, &suite);
  }
  int total = 0;
  for (const auto& kv : suite.counts()) {
    std::printf("%-18s %3d cases\n", kv.first.c_str(), kv.second);
    total += kv.second;
  }
  std::printf("random_ops: %d cases (seed %llu) in %s\n", total, static_cast<unsigned long long>(seed), dir);
  return 0;
}
