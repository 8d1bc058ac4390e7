#include "runtime/kernels/ref/reverse_sequence.h"

#include <cstring>

namespace npurt {

bool reverse_sequence__ref(const ReverseSequenceParams& p, const void* x, const int64_t* lengths, void* y) {
  const size_t step_bytes = static_cast<size_t>(p.rest) * p.element_size;
  const uint8_t* in = static_cast<const uint8_t*>(x);
  uint8_t* out = static_cast<uint8_t*>(y);
  for (int64_t b = 0; b < p.batch; ++b) {
    const int64_t length = lengths[b];
    if (length < 0 || length > p.time) return false;
    for (int64_t t = 0; t < p.time; ++t) {
      const int64_t from = t < length ? length - 1 - t : t;
      const int64_t to_index = p.time_major ? t * p.batch + b : b * p.time + t;
      const int64_t from_index = p.time_major ? from * p.batch + b : b * p.time + from;
      std::memcpy(out + static_cast<size_t>(to_index) * step_bytes, in + static_cast<size_t>(from_index) * step_bytes,
                  step_bytes);
    }
  }
  return true;
}

}  // namespace npurt
