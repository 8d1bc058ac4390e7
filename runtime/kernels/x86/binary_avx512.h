// Add, Sub and Mul (with the optional fused Relu) in AVX-512, float32 and int8 / int16 codes,
// bit-exact with f32_binary__ref and quantized_binary__ref: the same float32
// operations per element in the same order (int8: dequantize, combine, activate,
// divide by the output scale, round half to even, clamp, add the zero point),
// sixteen lanes at a time.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// Whether quantized_binary__avx512 takes `p`: Add, Sub or Mul, no activation other than
// Relu, and a broadcast plan of at most two merged dims whose inner strides are 0 or 1
// (same shapes, a scalar, a per-channel operand).
bool s8_binary__avx512_supports(const S8BinaryParams& p);
// a, b and out int8 or int16 codes in any mix (the hybrid scheme's int16 tensors meeting int8 ones);
// `range` selects output elements.
void quantized_binary__avx512(const S8BinaryParams& p, DataType a_type, const void* a, DataType b_type, const void* b,
                              DataType out_type, void* out, WorkRange range = {});

// The same plans for float32 (Relu keeps NaN, as the reference does).
bool f32_binary__avx512_supports(const BinaryParams& p);
void f32_binary__avx512(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range = {});

}  // namespace npurt
