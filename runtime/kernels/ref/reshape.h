// Reshape, Flatten, Squeeze, Unsqueeze and Identity only relabel the shape: the
// bytes are copied unchanged, or not at all when input and output share a
// buffer (the memory planner may alias them).
#pragma once

#include <cstddef>

namespace npurt {

struct ReshapeParams {
  size_t bytes;
};

void reshape__ref(const ReshapeParams& params, const void* input, void* output);

}  // namespace npurt
