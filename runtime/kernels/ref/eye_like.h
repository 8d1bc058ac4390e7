// EyeLike: an identity-like matrix of any numeric type.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

// EyeLike: a rows x cols matrix of zeros with ones on diagonal k (k > 0 above the main one), in
// `type` (any numeric type or bool).
void eye_like__ref(DataType type, int64_t rows, int64_t cols, int64_t k, void* y);

}  // namespace npurt
