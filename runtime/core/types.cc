#include "runtime/core/types.h"

#include <cstring>

namespace npurt {

size_t DataTypeSize(DataType type) {
  switch (type) {
    case DataType::kFloat32: return 4;
    case DataType::kFloat16: return 2;
    case DataType::kInt8: return 1;
    case DataType::kUint8: return 1;
    case DataType::kInt16: return 2;
    case DataType::kUint16: return 2;
    case DataType::kInt32: return 4;
    case DataType::kUint32: return 4;
    case DataType::kInt64: return 8;
    case DataType::kBool: return 1;
  }
  return 0;
}

bool IsValidDataType(int value) { return value >= 0 && value < kNumDataTypes; }

const char* DataTypeName(DataType type) {
  // Same spelling as rknn_api.h's get_type_string.
  switch (type) {
    case DataType::kFloat32: return "FP32";
    case DataType::kFloat16: return "FP16";
    case DataType::kInt8: return "INT8";
    case DataType::kUint8: return "UINT8";
    case DataType::kInt16: return "INT16";
    case DataType::kUint16: return "UINT16";
    case DataType::kInt32: return "INT32";
    case DataType::kUint32: return "UINT32";
    case DataType::kInt64: return "INT64";
    case DataType::kBool: return "BOOL";
  }
  return "UNKNOW";
}

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kNCHW: return "NCHW";
    case Layout::kNHWC: return "NHWC";
    case Layout::kNC1HWC2: return "NC1HWC2";
    case Layout::kUndefined: return "UNDEFINED";
  }
  return "UNKNOW";
}

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

std::string ShapeToString(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

uint16_t FloatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {  // subnormal half or zero
    if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = 126 - static_cast<int>(abs >> 23);  // 14..24
    uint32_t half = mant >> (shift);
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = (static_cast<uint32_t>(h) & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else {
      exp = 113;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ffu;
      f = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    f = sign | 0x7f800000u | (mant << 13);
  } else {
    f = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float out;
  std::memcpy(&out, &f, 4);
  return out;
}

bool QuantizedRange(DataType type, QuantRange* range) {
  switch (type) {
    case DataType::kInt8: *range = {INT8_MIN, INT8_MAX}; return true;
    case DataType::kUint8: *range = {0, UINT8_MAX}; return true;
    case DataType::kInt16: *range = {INT16_MIN, INT16_MAX}; return true;
    case DataType::kUint16: *range = {0, UINT16_MAX}; return true;
    case DataType::kInt32: *range = {INT32_MIN, INT32_MAX}; return true;
    default: return false;
  }
}

}  // namespace npurt
