// Element type conversion (ONNX Cast semantics: float -> int truncates toward
// zero, to bool is x != 0, float16 rounds to nearest even).
#pragma once

#include <cstddef>

#include "runtime/core/types.h"

namespace npurt {

struct CastParams {
  DataType from;
  DataType to;
  size_t count;
};

void cast__ref(const CastParams& params, const void* input, void* output);

}  // namespace npurt
