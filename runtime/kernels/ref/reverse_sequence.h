// ReverseSequence: the leading steps of each sequence of a batch reversed (any element type).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

// ReverseSequence of X [batch, time, rest...] (or [time, batch, rest...] with time_major): the first
// lengths[b] steps of sequence b reversed, the rest copied; byte copies of `element_size`.
struct ReverseSequenceParams {
  int64_t batch = 0;
  int64_t time = 0;
  int64_t rest = 1;  // elements per step
  bool time_major = false;
  size_t element_size = 4;
};

// False when a length is outside [0, time].
bool reverse_sequence__ref(const ReverseSequenceParams& params, const void* x, const int64_t* lengths, void* y);

}  // namespace npurt
