// Requantization of float accumulator rows in AVX2, bit-exact with the
// reference's Requantize (requantize_rows.h) where the sums are exact: the
// quantized convolutions of CPUs without VNNI sum their integer codes in a
// float32 library convolution (exact while partial sums stay below 2^24;
// runtime/ops/conv_fast_path.h), and finish here with
// acc = bias[c] + sum rounded to float once, as the reference converts its
// integer accumulator (in float where the biases are floats, else in double). Also the input side:
// codes_to_float__avx2 turns int8 / int16 codes into the float (x - zero point)
// those convolutions read.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/work_range.h"
#include "runtime/kernels/x86/requantize_rows.h"

namespace npurt {

// Rows `range` of `sums` (row-major, p.channels per row) into out (int8 or int16, same layout). With
// `low_sums` the sums come in two pieces (codes_to_float_pieces__avx2): acc = sums * 2^high_shift + low_sums.
void requantize_float_rows__avx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange range,
                                 const float* low_sums = nullptr, int high_shift = 0);

// Elements `range` of `codes` (int8 or int16) to float(code - zero_point).
void codes_to_float__avx2(const void* codes, DataType type, int32_t zero_point, float* out, WorkRange range);
// The same in two pieces, d = code - zero_point = high * 2^shift + low with 0 <= low < 2^shift (shift 1..15),
// for sums whose partial sums of whole d could pass 2^24 (runtime/ops/float_sum_split.h).
void codes_to_float_pieces__avx2(const void* codes, DataType type, int32_t zero_point, int shift, float* high,
                                 float* low, WorkRange range);

// Per-tensor QuantizeLinear and DequantizeLinear (int8 or int16), bit-exact with quantize__ref and
// dequantize__ref: y = saturate(round_half_even(x / scale) + zero_point) (NaN as 0), and
// y = float(x - zero_point) * scale. The hybrid scheme's int16 -> int8 boundaries run one of each.
void quantize_per_tensor__avx2(const float* x, float scale, int32_t zero_point, DataType type, void* y,
                               WorkRange range);
void dequantize_per_tensor__avx2(const void* x, DataType type, float scale, int32_t zero_point, float* y,
                                 WorkRange range);

}  // namespace npurt
