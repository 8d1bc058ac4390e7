#include "runtime/core/attributes.h"

#include <utility>

namespace npurt {
namespace {

const char* TypeName(AttrType type) {
  switch (type) {
    case AttrType::kInt: return "int";
    case AttrType::kFloat: return "float";
    case AttrType::kInts: return "ints";
    case AttrType::kFloats: return "floats";
    case AttrType::kString: return "string";
  }
  return "?";
}

template <typename T>
Status Get(const Attributes& attrs, const std::string& name, AttrType type, T default_value, T* out,
           T Attribute::*field) {
  const Attribute* a = attrs.Find(name);
  if (a == nullptr) {
    *out = std::move(default_value);
    return Status::Ok();
  }
  if (a->type != type) {
    return NPURT_ERROR(kModelInvalid, "attribute '%s' is %s, expected %s", name.c_str(), TypeName(a->type),
                       TypeName(type));
  }
  *out = a->*field;
  return Status::Ok();
}

}  // namespace

void Attributes::Add(Attribute attribute) {
  if (Attribute* existing = FindMutable(attribute.name)) {
    *existing = std::move(attribute);
  } else {
    list_.push_back(std::move(attribute));
  }
}

void Attributes::SetInt(const std::string& name, int64_t value) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInt;
  a.i = value;
  Add(std::move(a));
}

void Attributes::SetFloat(const std::string& name, float value) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloat;
  a.f = value;
  Add(std::move(a));
}

void Attributes::SetInts(const std::string& name, std::vector<int64_t> value) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInts;
  a.ints = std::move(value);
  Add(std::move(a));
}

void Attributes::SetFloats(const std::string& name, std::vector<float> value) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloats;
  a.floats = std::move(value);
  Add(std::move(a));
}

void Attributes::SetString(const std::string& name, std::string value) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kString;
  a.s = std::move(value);
  Add(std::move(a));
}

const Attribute* Attributes::Find(const std::string& name) const {
  for (const Attribute& a : list_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Attribute* Attributes::FindMutable(const std::string& name) {
  for (Attribute& a : list_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Status Attributes::GetInt(const std::string& name, int64_t default_value, int64_t* out) const {
  return Get(*this, name, AttrType::kInt, default_value, out, &Attribute::i);
}
Status Attributes::GetFloat(const std::string& name, float default_value, float* out) const {
  return Get(*this, name, AttrType::kFloat, default_value, out, &Attribute::f);
}
Status Attributes::GetInts(const std::string& name, std::vector<int64_t> default_value,
                           std::vector<int64_t>* out) const {
  return Get(*this, name, AttrType::kInts, std::move(default_value), out, &Attribute::ints);
}
Status Attributes::GetFloats(const std::string& name, std::vector<float> default_value,
                             std::vector<float>* out) const {
  return Get(*this, name, AttrType::kFloats, std::move(default_value), out, &Attribute::floats);
}
Status Attributes::GetString(const std::string& name, std::string default_value, std::string* out) const {
  return Get(*this, name, AttrType::kString, std::move(default_value), out, &Attribute::s);
}

}  // namespace npurt
