#include "runtime/kernels/ref/scatter.h"

#include <cstring>
#include <type_traits>

namespace npurt {
namespace {

int64_t IndexAt(const ScatterParams& p, const void* indices, int64_t i) {
  return p.indices_int64 ? static_cast<const int64_t*>(indices)[i] : static_cast<const int32_t*>(indices)[i];
}

// Integer sums and products wrap (as unsigned); max and min propagate NaN from either side.
template <typename T>
T Combine(ScatterReduction r, T a, T b) {
  if (r == ScatterReduction::kAdd || r == ScatterReduction::kMul) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(r == ScatterReduction::kAdd ? static_cast<U>(a) + static_cast<U>(b)
                                                        : static_cast<U>(a) * static_cast<U>(b));
    } else {
      return r == ScatterReduction::kAdd ? a + b : a * b;
    }
  }
  if (r == ScatterReduction::kMax) return (b != b || b > a) ? b : a;
  if (r == ScatterReduction::kMin) return (b != b || b < a) ? b : a;
  return b;
}

// out[at .. at + n) = combine(out, updates[from .. from + n)).
void Write(const ScatterParams& p, uint8_t* out, int64_t at, const uint8_t* updates, int64_t from, int64_t n) {
  const size_t size = DataTypeSize(p.type);
  if (p.reduction == ScatterReduction::kNone) {
    std::memcpy(out + at * static_cast<int64_t>(size), updates + from * static_cast<int64_t>(size),
                static_cast<size_t>(n) * size);
    return;
  }
  auto apply = [&](auto* typed_out, const auto* typed_updates) {
    for (int64_t i = 0; i < n; ++i) typed_out[at + i] = Combine(p.reduction, typed_out[at + i], typed_updates[from + i]);
  };
  switch (p.type) {
    case DataType::kInt32: apply(reinterpret_cast<int32_t*>(out), reinterpret_cast<const int32_t*>(updates)); break;
    case DataType::kInt64: apply(reinterpret_cast<int64_t*>(out), reinterpret_cast<const int64_t*>(updates)); break;
    default: apply(reinterpret_cast<float*>(out), reinterpret_cast<const float*>(updates)); break;
  }
}

int64_t DataCount(const ScatterParams& p) {
  int64_t n = 1;
  for (int d = 0; d < p.rank; ++d) n *= p.data_shape[d];
  return n;
}

}  // namespace

bool scatter_nd__ref(const ScatterParams& p, const void* data, const void* indices, const void* updates, void* output) {
  const size_t size = DataTypeSize(p.type);
  std::memcpy(output, data, static_cast<size_t>(DataCount(p)) * size);
  int64_t slice = 1;  // elements per index
  for (int d = p.index_depth; d < p.rank; ++d) slice *= p.data_shape[d];
  for (int64_t i = 0; i < p.index_count; ++i) {
    int64_t offset = 0;
    for (int d = 0; d < p.index_depth; ++d) {
      int64_t index = IndexAt(p, indices, i * p.index_depth + d);
      const int64_t dim = p.data_shape[d];
      if (index < -dim || index >= dim) return false;
      if (index < 0) index += dim;
      offset = offset * dim + index;
    }
    for (int d = p.index_depth; d < p.rank; ++d) offset *= p.data_shape[d];
    Write(p, static_cast<uint8_t*>(output), offset, static_cast<const uint8_t*>(updates), i * slice, slice);
  }
  return true;
}

bool scatter_elements__ref(const ScatterParams& p, const void* data, const void* indices, const void* updates,
                           void* output) {
  const size_t size = DataTypeSize(p.type);
  std::memcpy(output, data, static_cast<size_t>(DataCount(p)) * size);
  int64_t count = 1;
  for (int d = 0; d < p.rank; ++d) count *= p.index_shape[d];
  if (count == 0) return true;
  int64_t strides[kMaxScatterRank] = {};
  int64_t stride = 1;
  for (int d = p.rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= p.data_shape[d];
  }
  const int64_t dim = p.data_shape[p.axis];
  int64_t coords[kMaxScatterRank] = {};
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = IndexAt(p, indices, i);
    if (index < -dim || index >= dim) return false;
    if (index < 0) index += dim;
    int64_t offset = 0;
    for (int d = 0; d < p.rank; ++d) offset += (d == p.axis ? index : coords[d]) * strides[d];
    Write(p, static_cast<uint8_t*>(output), offset, static_cast<const uint8_t*>(updates), i, 1);
    for (int d = p.rank - 1; d >= 0; --d) {
      if (++coords[d] < p.index_shape[d]) break;
      coords[d] = 0;
    }
  }
  return true;
}

}  // namespace npurt
