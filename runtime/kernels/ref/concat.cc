#include "runtime/kernels/ref/concat.h"

#include <cstdint>
#include <cstring>

namespace npurt {

void concat__ref(const ConcatParams& params, const void* const* inputs, void* output) {
  uint8_t* out = static_cast<uint8_t*>(output);
  for (size_t o = 0; o < params.outer; ++o) {
    for (size_t i = 0; i < params.num_inputs; ++i) {
      const size_t chunk = params.chunk_bytes[i];
      if (chunk == 0) continue;  // zero-size inputs contribute nothing
      std::memcpy(out, static_cast<const uint8_t*>(inputs[i]) + o * chunk, chunk);
      out += chunk;
    }
  }
}

}  // namespace npurt
