// Operator attributes, ONNX style: a small list of named typed values.
// The compiler builds them, the model file stores them, and op prepare reads
// them through the typed getters, which report a missing or mistyped attribute.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/status.h"

namespace npurt {

enum class AttrType : int { kInt = 0, kFloat = 1, kInts = 2, kFloats = 3, kString = 4 };

struct Attribute {
  std::string name;
  AttrType type = AttrType::kInt;
  int64_t i = 0;
  float f = 0.0f;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::string s;
};

class Attributes {
 public:
  void SetInt(const std::string& name, int64_t value);
  void SetFloat(const std::string& name, float value);
  void SetInts(const std::string& name, std::vector<int64_t> value);
  void SetFloats(const std::string& name, std::vector<float> value);
  void SetString(const std::string& name, std::string value);
  void Add(Attribute attribute);

  bool Has(const std::string& name) const { return Find(name) != nullptr; }
  const Attribute* Find(const std::string& name) const;
  const std::vector<Attribute>& list() const { return list_; }

  // Getters return the default when absent and an error when present with another type.
  Status GetInt(const std::string& name, int64_t default_value, int64_t* out) const;
  Status GetFloat(const std::string& name, float default_value, float* out) const;
  Status GetInts(const std::string& name, std::vector<int64_t> default_value, std::vector<int64_t>* out) const;
  Status GetFloats(const std::string& name, std::vector<float> default_value, std::vector<float>* out) const;
  Status GetString(const std::string& name, std::string default_value, std::string* out) const;

 private:
  Attribute* FindMutable(const std::string& name);
  std::vector<Attribute> list_;
};

}  // namespace npurt
