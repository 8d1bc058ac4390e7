#include "runtime/kernels/ref/gather.h"

#include <cstring>

namespace npurt {

bool gather__ref(const GatherParams& params, const void* data, const void* indices, void* output) {
  const uint8_t* in = static_cast<const uint8_t*>(data);
  uint8_t* out = static_cast<uint8_t*>(output);
  const size_t slab = static_cast<size_t>(params.axis_dim) * params.inner_bytes;  // one outer index of data
  for (size_t o = 0; o < params.outer; ++o) {
    for (size_t i = 0; i < params.num_indices; ++i) {
      int64_t index =
          params.indices_int64 ? static_cast<const int64_t*>(indices)[i] : static_cast<const int32_t*>(indices)[i];
      if (index < -params.axis_dim || index >= params.axis_dim) return false;
      if (index < 0) index += params.axis_dim;
      if (params.inner_bytes == 0) continue;
      std::memcpy(out, in + o * slab + static_cast<size_t>(index) * params.inner_bytes, params.inner_bytes);
      out += params.inner_bytes;
    }
  }
  return true;
}

}  // namespace npurt

namespace npurt {

bool gather_elements__ref(const GatherElementsParams& p, const void* data, const void* indices, void* output) {
  int64_t count = 1;
  for (int d = 0; d < p.rank; ++d) count *= p.index_shape[d];
  if (count == 0) return true;
  int64_t data_strides[kMaxGatherElementsRank] = {};
  int64_t stride = 1;
  for (int d = p.rank - 1; d >= 0; --d) {
    data_strides[d] = stride;
    stride *= p.data_shape[d];
  }
  const int64_t dim = p.data_shape[p.axis];
  int64_t coords[kMaxGatherElementsRank] = {};
  const uint8_t* in = static_cast<const uint8_t*>(data);
  uint8_t* out = static_cast<uint8_t*>(output);
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = p.indices_int64 ? static_cast<const int64_t*>(indices)[i] : static_cast<const int32_t*>(indices)[i];
    if (index < -dim || index >= dim) return false;
    if (index < 0) index += dim;
    int64_t offset = 0;
    for (int d = 0; d < p.rank; ++d) offset += (d == p.axis ? index : coords[d]) * data_strides[d];
    std::memcpy(out + static_cast<size_t>(i) * p.element_size, in + static_cast<size_t>(offset) * p.element_size,
                p.element_size);
    for (int d = p.rank - 1; d >= 0; --d) {  // odometer over the output's coordinates
      if (++coords[d] < p.index_shape[d]) break;
      coords[d] = 0;
    }
  }
  return true;
}

}  // namespace npurt
