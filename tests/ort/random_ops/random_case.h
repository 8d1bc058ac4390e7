// Randomized operator cases for the ort_random_ops suite: a small ONNX model
// builder, a portable seeded random source, and the writer for the ONNX
// backend-test layout (CASE/model.onnx + CASE/test_data_set_0/input_K.pb).
// Expected outputs come from ONNX Runtime (tests/ort/ort_expected.js).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace random_ops {

using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;
using Attrs = std::vector<onnx::AttributeProto>;

// Mersenne Twister with hand-written distributions: the same cases on every
// platform and standard library (std:: distributions are implementation-defined).
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(static_cast<std::mt19937::result_type>(seed)) {}
  int Int(int lo, int hi);  // uniform in [lo, hi]
  float Uniform(float lo, float hi);
  bool Chance(double p) { return Uniform(0.0f, 1.0f) < p; }
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))];
  }
  Floats Fill(int64_t count, float lo, float hi);

 private:
  std::mt19937 engine_;
};

onnx::AttributeProto AttrInt(const std::string& name, int64_t v);
onnx::AttributeProto AttrInts(const std::string& name, const Ints& v);
onnx::AttributeProto AttrFloat(const std::string& name, float v);
onnx::AttributeProto AttrFloats(const std::string& name, const Floats& v);
onnx::AttributeProto AttrString(const std::string& name, const std::string& v);

// One test case: a single-graph model plus one data set of random inputs.
class Case {
 public:
  Case(std::string name, int opset, Rng* rng);

  // A graph input filled uniformly from [lo, hi]; returns its name.
  std::string Input(const Ints& dims, float lo = -1.0f, float hi = 1.0f);
  // An initializer filled uniformly from [-scale, scale].
  std::string Weight(const Ints& dims, float scale);
  std::string Constant(const Ints& dims, const Floats& values);
  std::string Int64Constant(const Ints& dims, const Ints& values);
  // Adds a node with one output and returns the output's name. "" skips an optional input.
  std::string Node(const std::string& op, const std::vector<std::string>& inputs, const Attrs& attrs = {});
  // A node with `outputs` outputs; returns their names.
  std::vector<std::string> NodeN(const std::string& op, const std::vector<std::string>& inputs, const Attrs& attrs,
                                 int outputs);
  // A graph output of ONNX element type `elem_type` (onnx::TensorProto::DataType).
  void Output(const std::string& tensor, int elem_type = onnx::TensorProto::FLOAT);

  const std::string& name() const { return name_; }
  const onnx::ModelProto& model() const { return model_; }
  const std::vector<onnx::TensorProto>& inputs() const { return inputs_; }

 private:
  std::string Fresh(const char* prefix) { return prefix + std::to_string(counter_++); }

  std::string name_;
  Rng* rng_;
  onnx::ModelProto model_;
  std::vector<onnx::TensorProto> inputs_;
  int counter_ = 0;
};

// Writes cases under one suite directory and counts them per family.
class Suite {
 public:
  // `known_issues`: generate the variants on which npurt and ONNX Runtime are known to
  // disagree instead of avoiding them (see where known_issues() is read).
  Suite(std::string dir, bool known_issues) : dir_(std::move(dir)), known_issues_(known_issues) {}
  bool known_issues() const { return known_issues_; }
  // Writes the case (a repeated name gets a _2, _3, ... suffix).
  void Add(const std::string& family, const Case& c);
  const std::map<std::string, int>& counts() const { return counts_; }

 private:
  std::string dir_;
  bool known_issues_;
  std::map<std::string, int> counts_;
  std::map<std::string, int> names_;
};

// "softmax" from "Softmax": case names from op types.
std::string Lower(const std::string& s);
// "3x1" from {3, 1}; `sep` between values.
std::string Join(const Ints& v, const char* sep = "x");
// A float for case names: 0.25 -> "0p25", -1.5 -> "m1p5".
std::string Num(double v);
// Input shape in a case name: n2c6h13w9 (1-D: n2c6w9, 3-D: n1c4d5h6w7; other ranks: s2x3x4).
std::string ShapeTag(const Ints& dims);

// The op families (each takes its own seeded Rng, so adding cases to one
// family leaves the others unchanged).
void AddConvCases(Rng* rng, Suite* suite);
void AddConvTransposeCases(Rng* rng, Suite* suite);
void AddPoolCases(Rng* rng, Suite* suite);
void AddResizeCases(Rng* rng, Suite* suite);
void AddActivationCases(Rng* rng, Suite* suite);
void AddFusedChainCases(Rng* rng, Suite* suite);
void AddReduceCases(Rng* rng, Suite* suite);
void AddLogicCases(Rng* rng, Suite* suite);
void AddMovementCases(Rng* rng, Suite* suite);
void AddNormCases(Rng* rng, Suite* suite);
void AddRecurrentCases(Rng* rng, Suite* suite);
void AddRoiCases(Rng* rng, Suite* suite);

}  // namespace random_ops
