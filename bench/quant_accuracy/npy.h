// Float32 .npy files (NumPy format 1.0; version 2.0 is also read), the
// tensor format of rknn-toolkit2 calibration datasets and of `npurt run`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quant_accuracy {

// Writes little-endian float32 values, C order. False and a message in
// *error if the file cannot be written or `values` does not match `shape`.
bool WriteNpyF32(const std::string& path, const std::vector<int64_t>& shape, const std::vector<float>& values,
                 std::string* error);

// Reads a C-order little-endian float32 array ('<f4'); anything else is an
// error.
bool ReadNpyF32(const std::string& path, std::vector<int64_t>* shape, std::vector<float>* values, std::string* error);

}  // namespace quant_accuracy
