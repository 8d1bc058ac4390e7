// Minimal .npy (NumPy format 1.0/2.0) reading and writing for the CLI:
// little-endian numeric dtypes, C order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {
namespace cli {

struct NpyArray {
  DataType dtype = DataType::kFloat32;
  Shape shape;
  std::vector<uint8_t> data;
};

Status ReadNpy(const std::string& path, NpyArray* out);
Status WriteNpy(const std::string& path, const NpyArray& array);

}  // namespace cli
}  // namespace npurt
