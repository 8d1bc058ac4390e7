// Per-platform facts that decide the native I/O layouts recorded in a model
// (RKNN user guide: NC1HWC2 channel block C2 and row width alignment).
#pragma once

#include <string>
#include <vector>

#include "runtime/core/types.h"

namespace npurt {
namespace compiler {

struct TargetPlatform {
  std::string name;
  int c2_int8;
  int c2_fp16;    // also int16
  int width_align;
  // The platform's runtime has rknn_custom_op.h (librknnrt); RV1106 / RV1103's librknnmrt does not.
  bool custom_ops;
};

// nullptr for an unknown name.
const TargetPlatform* FindTargetPlatform(const std::string& name);
std::vector<std::string> TargetPlatformNames();
int NativeC2(const TargetPlatform& platform, DataType native_type);

}  // namespace compiler
}  // namespace npurt
