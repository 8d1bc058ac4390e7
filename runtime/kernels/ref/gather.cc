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
