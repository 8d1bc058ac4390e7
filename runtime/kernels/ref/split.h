// Split along one axis as byte copies (any element type): the inverse of
// concat. The input is viewed as [outer, sum of chunks].
#pragma once

#include <cstddef>

namespace npurt {

struct SplitParams {
  size_t outer;  // product of the dims before the axis
  size_t num_outputs;
  const size_t* chunk_bytes;  // per output: bytes per outer index (may be 0)
};

// A null entry in `outputs` marks an unused output; its bytes are skipped.
void split__ref(const SplitParams& params, const void* input, void* const* outputs);

}  // namespace npurt
