// GlobalAveragePool / GlobalMaxPool on channels-last (N, HW, C) input, for any
// CPU: the pixels are walked in order and each channel accumulates as the
// reference does on its NCHW plane (the same additions in the same order, in
// double for float and exactly in int64 for codes), so the results are the
// reference's bits. The output, (N, C, 1, 1), has one layout.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/pooling.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

// `planes` (N * C output values) of `range`; `plane_size` = H * W.
void f32_global_pool__nhwc(PoolKind kind, int64_t channels, int64_t planes, int64_t plane_size, const float* input,
                           float* output, WorkRange range = {});
// Quantized (int8 or int16, one type), with the reference's parameters (params.planes, params.plane_size).
void quantized_global_pool__nhwc(const S8GlobalPoolParams& params, int64_t channels, DataType type,
                                 const void* input, void* output, WorkRange range = {});

}  // namespace npurt
