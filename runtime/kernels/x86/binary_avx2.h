// Add, Sub and Mul (with the optional fused Relu) in AVX2, float32 and every
// int8 / int16 mix of operands and output (the hybrid scheme's residual adds
// read int16 and write int8, or the reverse; b may be a float32 constant, used
// as is, as the reference does), bit-exact with f32_binary__ref
// and quantized_binary__ref: the same float32 operations per element in the
// same order, eight lanes at a time. The CPUs without AVX-512 run these; with
// AVX-512 the same-type steps run binary_avx512.h.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// Add, Sub or Mul, no activation other than Relu, and a plan of at most two merged dims whose inner strides
// are 0 or 1 (binary_segments.h).
bool quantized_binary__avx2_supports(const S8BinaryParams& p);
// a and out each int8 or int16, b int8, int16 or float32; `range` selects output elements.
void quantized_binary__avx2(const S8BinaryParams& p, DataType a_type, const void* a, DataType b_type, const void* b,
                            DataType out_type, void* out, WorkRange range = {});

// The same plans for float32 (Relu keeps NaN, as the reference does).
bool f32_binary__avx2_supports(const BinaryParams& p);
void f32_binary__avx2(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range = {});

}  // namespace npurt
