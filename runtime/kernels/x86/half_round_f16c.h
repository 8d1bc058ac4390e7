// round_to_half__ref (runtime/kernels/ref/half_round.h) on F16C: the same bits, eight values per step.
#pragma once

#include <cstdint>

namespace npurt {

int64_t round_to_half__f16c(float* x, int64_t n);

}  // namespace npurt
