// round_to_half__ref (runtime/kernels/ref/half_round.h) on AArch64 NEON: the same bits, four values per step.
#pragma once

#include <cstdint>

namespace npurt {

int64_t round_to_half__neon(float* x, int64_t n);

}  // namespace npurt
