// Element types and shapes shared by the runtime, the compiler and the kernels.
// DataType values equal rknn_tensor_type and the model schema's DataType.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurt {

enum class DataType : int {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt8 = 2,
  kUint8 = 3,
  kInt16 = 4,
  kUint16 = 5,
  kInt32 = 6,
  kUint32 = 7,
  kInt64 = 8,
  kBool = 9,
};
constexpr int kNumDataTypes = 10;

enum class Layout : int { kNCHW = 0, kNHWC = 1, kNC1HWC2 = 2, kUndefined = 3 };

using Shape = std::vector<int64_t>;

// Affine quantization parameters of an integer tensor (real = scale * (q - zero_point);
// arithmetic in runtime/kernels/ref/quantize.h). One value per tensor (axis -1), or
// one per index along `axis` (per-channel weights). Empty for float tensors.
struct QuantInfo {
  std::vector<float> scale;
  std::vector<int32_t> zero_point;
  int axis = -1;

  bool empty() const { return scale.empty(); }
  bool per_tensor() const { return scale.size() == 1 && axis < 0; }
};

// Integer range of the types that can hold quantized values (int8, uint8,
// int16, uint16, int32); false for the others.
struct QuantRange {
  int64_t min;
  int64_t max;
};
bool QuantizedRange(DataType type, QuantRange* range);

// Bytes per element; 0 for an unknown type.
size_t DataTypeSize(DataType type);
bool IsValidDataType(int value);
const char* DataTypeName(DataType type);
const char* LayoutName(Layout layout);

// Product of dims; 1 for a scalar. Returns -1 when a dim is negative or the
// product overflows int64 (callers treat that as an invalid shape).
int64_t NumElements(const Shape& shape);
std::string ShapeToString(const Shape& shape);

// IEEE half <-> float, round to nearest even.
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t value);

}  // namespace npurt
