// Host-side tensors for the ONNX conformance runner: serialized
// onnx.TensorProto files (input_N.pb / output_N.pb) decoded into packed
// little-endian element buffers of the tensor's own ONNX element type.
// This is the oracle side: it never calls into npurt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace conformance {

struct HostTensor {
  std::string name;          // TensorProto.name (may be empty)
  int32_t onnx_type = 0;     // onnx::TensorProto::DataType
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;  // NumElements() packed elements of onnx_type

  int64_t NumElements() const;
};

// "FLOAT", "INT64", ... ("type N" for unknown values).
std::string OnnxTypeName(int32_t onnx_type);
// Bytes per element; 0 for STRING, complex and unknown types (which the runner cannot handle).
size_t OnnxTypeSize(int32_t onnx_type);
// FLOAT, FLOAT16, DOUBLE, BFLOAT16: compared as float32 with tolerances. Everything else exactly.
bool IsFloatType(int32_t onnx_type);

bool ReadTensorFile(const std::string& path, HostTensor* out, std::string* error);
bool ToHostTensor(const onnx::TensorProto& proto, HostTensor* out, std::string* error);

double ElementAsDouble(const HostTensor& t, int64_t i);
int64_t ElementAsInt64(const HostTensor& t, int64_t i);  // UINT64 as its bit pattern

float HalfBitsToFloat(uint16_t bits);
float Bfloat16BitsToFloat(uint16_t bits);

std::string DimsToString(const std::vector<int64_t>& dims);
// The multi-index of flat element `flat` of a row-major tensor, e.g. "[1,0,3]".
std::string IndexToString(const std::vector<int64_t>& dims, int64_t flat);

}  // namespace conformance
