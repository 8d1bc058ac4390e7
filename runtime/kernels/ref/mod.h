// Mod with numpy broadcasting (float32, int32, int64).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/broadcast.h"

namespace npurt {

// Mod: fmod = false is the integer remainder with the divisor's sign (Python's %); fmod = true
// is C's fmod (the dividend's sign; the only float form). x mod 0 is 0 for integers (C would trap)
// and NaN for floats.
struct ModParams {
  BroadcastPlan plan;  // operand 0 = a (dividend), 1 = b (divisor)
  DataType type = DataType::kInt64;  // float32, int32 or int64
  bool fmod = false;
};

void mod__ref(const ModParams& params, const void* a, const void* b, void* out);

}  // namespace npurt
