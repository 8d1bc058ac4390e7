#include "runtime/kernels/ref/cast.h"

#include <cstdint>
#include <limits>

namespace npurt {
namespace {

// Every value goes through double (exact for all types but int64 beyond 2^53,
// which integer-to-integer casts avoid below).
double LoadAsDouble(DataType type, const void* base, size_t i) {
  switch (type) {
    case DataType::kFloat32: return static_cast<const float*>(base)[i];
    case DataType::kFloat16: return HalfToFloat(static_cast<const uint16_t*>(base)[i]);
    case DataType::kInt8: return static_cast<const int8_t*>(base)[i];
    case DataType::kUint8: return static_cast<const uint8_t*>(base)[i];
    case DataType::kInt16: return static_cast<const int16_t*>(base)[i];
    case DataType::kUint16: return static_cast<const uint16_t*>(base)[i];
    case DataType::kInt32: return static_cast<const int32_t*>(base)[i];
    case DataType::kUint32: return static_cast<const uint32_t*>(base)[i];
    case DataType::kInt64: return static_cast<double>(static_cast<const int64_t*>(base)[i]);
    case DataType::kBool: return static_cast<const uint8_t*>(base)[i] != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

bool IsInteger(DataType t) { return t != DataType::kFloat32 && t != DataType::kFloat16; }

int64_t LoadAsInt64(DataType type, const void* base, size_t i) {
  if (type == DataType::kInt64) return static_cast<const int64_t*>(base)[i];
  return static_cast<int64_t>(LoadAsDouble(type, base, i));
}

template <typename T>
T ToInteger(double v) {
  // Out-of-range float-to-int is undefined in C++; ONNX leaves it unspecified. Saturate.
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (!(v == v)) return 0;
  if (v <= lo) return std::numeric_limits<T>::lowest();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

void Store(DataType type, void* base, size_t i, double v, int64_t iv, bool from_integer) {
  switch (type) {
    case DataType::kFloat32: static_cast<float*>(base)[i] = static_cast<float>(from_integer ? static_cast<double>(iv) : v); break;
    case DataType::kFloat16: static_cast<uint16_t*>(base)[i] = FloatToHalf(static_cast<float>(v)); break;
    case DataType::kInt8: static_cast<int8_t*>(base)[i] = from_integer ? static_cast<int8_t>(iv) : ToInteger<int8_t>(v); break;
    case DataType::kUint8: static_cast<uint8_t*>(base)[i] = from_integer ? static_cast<uint8_t>(iv) : ToInteger<uint8_t>(v); break;
    case DataType::kInt16: static_cast<int16_t*>(base)[i] = from_integer ? static_cast<int16_t>(iv) : ToInteger<int16_t>(v); break;
    case DataType::kUint16: static_cast<uint16_t*>(base)[i] = from_integer ? static_cast<uint16_t>(iv) : ToInteger<uint16_t>(v); break;
    case DataType::kInt32: static_cast<int32_t*>(base)[i] = from_integer ? static_cast<int32_t>(iv) : ToInteger<int32_t>(v); break;
    case DataType::kUint32: static_cast<uint32_t*>(base)[i] = from_integer ? static_cast<uint32_t>(iv) : ToInteger<uint32_t>(v); break;
    case DataType::kInt64: static_cast<int64_t*>(base)[i] = from_integer ? iv : ToInteger<int64_t>(v); break;
    case DataType::kBool: static_cast<uint8_t*>(base)[i] = (from_integer ? iv != 0 : v != 0.0) ? 1 : 0; break;
  }
}

}  // namespace

void cast__ref(const CastParams& params, const void* input, void* output) {
  const bool from_integer = IsInteger(params.from);
  for (size_t i = 0; i < params.count; ++i) {
    const int64_t iv = from_integer ? LoadAsInt64(params.from, input, i) : 0;
    const double v = from_integer ? 0.0 : LoadAsDouble(params.from, input, i);
    Store(params.to, output, i, from_integer ? static_cast<double>(iv) : v, iv, from_integer);
  }
}

}  // namespace npurt
