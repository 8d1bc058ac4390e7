#include "runtime/kernels/ref/split.h"

#include <cstdint>
#include <cstring>

namespace npurt {

void split__ref(const SplitParams& params, const void* input, void* const* outputs) {
  const uint8_t* in = static_cast<const uint8_t*>(input);
  for (size_t o = 0; o < params.outer; ++o) {
    for (size_t i = 0; i < params.num_outputs; ++i) {
      const size_t chunk = params.chunk_bytes[i];
      if (chunk != 0 && outputs[i] != nullptr) std::memcpy(static_cast<uint8_t*>(outputs[i]) + o * chunk, in, chunk);
      in += chunk;
    }
  }
}

}  // namespace npurt
