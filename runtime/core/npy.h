// Minimal .npy (NumPy format 1.0/2.0) reading and writing (CLI inputs/outputs,
// per-layer dumps at RKNN_LOG_LEVEL=5):
// little-endian numeric dtypes, C order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {
namespace npy {

struct NpyArray {
  DataType dtype = DataType::kFloat32;
  Shape shape;
  std::vector<uint8_t> data;
};

Status ReadNpy(const std::string& path, NpyArray* out);
Status WriteNpy(const std::string& path, const NpyArray& array);

}  // namespace npy
}  // namespace npurt
