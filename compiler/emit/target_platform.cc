#include "compiler/emit/target_platform.h"

namespace npurt {
namespace compiler {
namespace {

const TargetPlatform kPlatforms[] = {
    {"rk3588", 16, 8, 16, true}, {"rk3576", 16, 8, 16, true}, {"rk3568", 8, 4, 8, true},
    {"rk3566", 8, 4, 8, true},   {"rk3562", 16, 8, 16, true}, {"rv1106", 16, 8, 16, false},
    {"rv1103", 16, 8, 16, false},
};

}  // namespace

const TargetPlatform* FindTargetPlatform(const std::string& name) {
  for (const TargetPlatform& p : kPlatforms) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> TargetPlatformNames() {
  std::vector<std::string> names;
  for (const TargetPlatform& p : kPlatforms) names.push_back(p.name);
  return names;
}

int NativeC2(const TargetPlatform& platform, DataType native_type) {
  switch (native_type) {
    case DataType::kInt8:
    case DataType::kUint8: return platform.c2_int8;
    case DataType::kFloat16:
    case DataType::kInt16:
    case DataType::kUint16: return platform.c2_fp16;
    default: return 1;
  }
}

}  // namespace compiler
}  // namespace npurt
