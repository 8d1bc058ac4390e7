// int8 Softmax over long axes (a classifier's thousands of classes) with the
// exponentials tabulated per row: a row of n codes has at most 256 distinct
// values, so exp(real(code) - real(max)) is computed once per code present
// instead of twice per element. The same float expressions, summed in the same
// order as s8_softmax__ref, so the result is the reference's bit for bit.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/softmax.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// Worth it from this axis length (256 exponentials per row against 2n).
constexpr int64_t kSoftmaxTableMinAxis = 256;

// int8 in and out; `rows` selects (outer, inner) rows, numbered outer-major.
void s8_softmax__table(const S8SoftmaxParams& params, const int8_t* input, int8_t* output, WorkRange rows = {});

// Any int8 / int16 mix (int16 logits have too many codes for a table): each row's exponentials are
// computed once into `exps` (axis_size floats, the caller's) instead of twice, the same expressions
// summed in the same order as the reference, so again its bits.
void quantized_softmax__rows(const S8SoftmaxParams& params, DataType input_type, const void* input,
                             DataType output_type, void* output, float* exps, WorkRange rows = {});

// The first half of the same for row `row` (numbered as quantized_softmax__rows numbers them): its
// exponentials into `exps` (axis_size floats) and the 1 / sum that multiplies them; the output code of
// element k is then QuantizeValue(exps[k] * scale, ...), which the requantization rows compute.
float quantized_softmax_exps(const S8SoftmaxParams& params, DataType input_type, const void* input, int64_t row,
                             float* exps);

}  // namespace npurt
