// Tile: the input repeated `repeats[d]` times along each dim d, as element copies of
// `element_size` bytes (any type).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct TileParams {
  int rank = 0;
  size_t element_size = 4;
  const int64_t* in_shape = nullptr;
  const int64_t* repeats = nullptr;
};

void tile__ref(const TileParams& params, const void* input, void* output);

}  // namespace npurt
