#include "runtime/kernels/ref/tile.h"

#include <cstring>

namespace npurt {
namespace {

// Writes the tiled block of dims d.. of the input block at `in` to `out`; returns the bytes written.
size_t TileDim(const TileParams& p, int d, const uint8_t* in, uint8_t* out) {
  if (d == p.rank) {
    std::memcpy(out, in, p.element_size);
    return p.element_size;
  }
  size_t in_block = p.element_size;  // bytes of one index of dim d in the input
  for (int k = d + 1; k < p.rank; ++k) in_block *= static_cast<size_t>(p.in_shape[k]);
  size_t once = 0;  // one copy of dim d, tiled inside
  for (int64_t i = 0; i < p.in_shape[d]; ++i) once += TileDim(p, d + 1, in + static_cast<size_t>(i) * in_block, out + once);
  for (int64_t r = 1; r < p.repeats[d]; ++r) std::memcpy(out + static_cast<size_t>(r) * once, out, once);
  return once * static_cast<size_t>(p.repeats[d]);
}

}  // namespace

void tile__ref(const TileParams& p, const void* input, void* output) {
  for (int d = 0; d < p.rank; ++d) {
    if (p.in_shape[d] == 0 || p.repeats[d] == 0) return;
  }
  TileDim(p, 0, static_cast<const uint8_t*>(input), static_cast<uint8_t*>(output));
}

}  // namespace npurt
