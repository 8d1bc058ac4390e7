// Concatenation along one axis as byte copies, so it serves every element type.
// The tensors are viewed as [outer, chunk]: each input contributes one chunk of
// (axis dim * inner dims * element size) bytes per outer index.
#pragma once

#include <cstddef>

namespace npurt {

struct ConcatParams {
  size_t outer;  // product of the dims before the axis
  size_t num_inputs;
  const size_t* chunk_bytes;  // per input: bytes copied per outer index (may be 0)
};

void concat__ref(const ConcatParams& params, const void* const* inputs, void* output);

}  // namespace npurt
