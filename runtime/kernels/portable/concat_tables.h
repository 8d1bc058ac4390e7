// int8 Concat with per-input requantization through 256-entry tables (one per
// input that needs it), built from the reference kernel itself, so the result
// is s8_concat__ref's bit for bit at a table lookup per element instead of a
// float division.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/concat.h"

namespace npurt {

// tables[i]: 256 output codes for input i's codes (index code + 128), or nullptr where input i is copied.
void s8_concat__tables(const S8ConcatParams& params, const int8_t* const* tables, const int8_t* const* inputs,
                       int8_t* output);

// Fills table[256] with what s8_concat__ref makes of each code of `input` (its scale and zero point)
// under the output parameters of `params`.
void BuildConcatRequantizeTable(const S8ConcatParams& params, const S8ConcatInput& input, int8_t* table);

}  // namespace npurt
