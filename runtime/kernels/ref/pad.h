// N-D pad/crop as element copies of `element_size` bytes (any type). Every
// output index of every dim is mapped ahead of time to an input index, or to
// -1 for "constant": that single table expresses constant, edge and reflect
// modes as well as negative pads (cropping).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct PadParams {
  int rank;
  size_t element_size;
  const int64_t* out_shape;
  const int64_t* out_block;          // per dim: output elements per index (product of later dims)
  const int64_t* in_strides;         // in elements
  const int64_t* const* index_maps;  // per dim, out_shape[d] entries: input index, or -1
  const void* constant_value;        // one element, used where a map says -1
};

void pad__ref(const PadParams& params, const void* input, void* output);

}  // namespace npurt
