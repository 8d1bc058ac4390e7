// Helpers for the import-only ops the importer evaluates itself: numpy
// broadcasting and typed element access. long double holds every int64 and
// float exactly on the platforms npurt targets (x86-64, AArch64).
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/core/types.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

// numpy broadcasting of two shapes; false when they do not broadcast. `out` may be `a` or `b`.
inline bool BroadcastTwo(const Shape& a, const Shape& b, Shape* out) {
  const size_t rank = a.size() > b.size() ? a.size() : b.size();
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    result[i] = da == 1 ? db : da;
  }
  *out = std::move(result);
  return true;
}

// Flat index into a tensor of shape `in` that broadcasts to `out`, for output element `flat`.
inline int64_t BroadcastSource(const Shape& in, const Shape& out, int64_t flat) {
  int64_t index = 0, stride = 1;
  for (size_t k = out.size(); k-- > 0;) {
    const int64_t coord = flat % out[k];
    flat /= out[k];
    const size_t in_rank = in.size();
    const size_t offset = out.size() - in_rank;
    if (k >= offset) {
      const int64_t d = in[k - offset];
      if (d != 1) index += coord * stride;
      stride *= d;
    }
  }
  return index;
}

inline long double LoadValue(DataType t, const uint8_t* p, int64_t i) {
  switch (t) {
    case DataType::kFloat32: { float v; std::memcpy(&v, p + 4 * i, 4); return v; }
    case DataType::kFloat16: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); return HalfToFloat(v); }
    case DataType::kInt8: return static_cast<int8_t>(p[i]);
    case DataType::kUint8: return p[i];
    case DataType::kBool: return p[i] != 0;
    case DataType::kInt16: { int16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
    case DataType::kUint16: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
    case DataType::kInt32: { int32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    case DataType::kUint32: { uint32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    case DataType::kInt64: { int64_t v; std::memcpy(&v, p + 8 * i, 8); return static_cast<long double>(v); }
  }
  return 0;
}

inline void StoreValue(DataType t, uint8_t* p, int64_t i, long double x) {
  switch (t) {
    case DataType::kFloat32: { float v = static_cast<float>(x); std::memcpy(p + 4 * i, &v, 4); break; }
    case DataType::kFloat16: { uint16_t v = FloatToHalf(static_cast<float>(x)); std::memcpy(p + 2 * i, &v, 2); break; }
    case DataType::kInt8: p[i] = static_cast<uint8_t>(static_cast<int8_t>(x)); break;
    case DataType::kUint8: p[i] = static_cast<uint8_t>(x); break;
    case DataType::kBool: p[i] = x != 0 ? 1 : 0; break;
    case DataType::kInt16: { int16_t v = static_cast<int16_t>(x); std::memcpy(p + 2 * i, &v, 2); break; }
    case DataType::kUint16: { uint16_t v = static_cast<uint16_t>(x); std::memcpy(p + 2 * i, &v, 2); break; }
    case DataType::kInt32: { int32_t v = static_cast<int32_t>(x); std::memcpy(p + 4 * i, &v, 4); break; }
    case DataType::kUint32: { uint32_t v = static_cast<uint32_t>(x); std::memcpy(p + 4 * i, &v, 4); break; }
    case DataType::kInt64: { int64_t v = static_cast<int64_t>(x); std::memcpy(p + 8 * i, &v, 8); break; }
  }
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
