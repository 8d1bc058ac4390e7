// Add, Sub and Mul (with the optional fused Relu) in AVX-512, float32 and int8,
// bit-exact with f32_binary__ref and quantized_binary__ref: the same float32
// operations per element in the same order (int8: dequantize, combine, activate,
// divide by the output scale, round half to even, clamp, add the zero point),
// sixteen lanes at a time.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/binary.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// Whether s8_binary__avx512 takes `p`: Add, Sub or Mul, no activation other than
// Relu, and a broadcast plan of at most two merged dims whose inner strides are 0 or 1
// (same shapes, a scalar, a per-channel operand).
bool s8_binary__avx512_supports(const S8BinaryParams& p);
// int8 a, b and out; `range` selects output elements.
void s8_binary__avx512(const S8BinaryParams& p, const int8_t* a, const int8_t* b, int8_t* out, WorkRange range = {});
// The same with int16 a, b and out (the hybrid scheme's precise tensors); s8_binary__avx512_supports applies.
void s16_binary__avx512(const S8BinaryParams& p, const int16_t* a, const int16_t* b, int16_t* out,
                        WorkRange range = {});

// The same plans for float32 (Relu keeps NaN, as the reference does).
bool f32_binary__avx512_supports(const BinaryParams& p);
void f32_binary__avx512(const BinaryParams& p, const float* a, const float* b, float* out, WorkRange range = {});

}  // namespace npurt
