// The sums of a quantized MatMul whose B is not a packed weight (attention's activation x activation
// products; any int8 / int16 mix of A and B), one output row at a time, for the requantization rows
// (runtime/kernels/int8/requantize_config.h): the reference's accumulator sum_k (A - zp_a)(B - zp_b) as
// float, its bits (kernels/ref/gemm.h). The products (at most 65535^2) and their sums are exact in double
// while K stays within kQuantizedMatMulSumsMaxK, and a double converts to the float the int64 does.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/gemm.h"

namespace npurt {

constexpr int64_t kQuantizedMatMulSumsMaxK = int64_t{1} << 20;  // K * 65535^2 < 2^53

// Row r of the MatMul (numbered as quantized_matmul__ref numbers them): its N sums as float into `sums`,
// `acc` N doubles of the caller's.
void quantized_matmul_sums__portable(const MatMulParams& p, const MatMulQuantParams& q, DataType a_type,
                                     const void* a, DataType b_type, const void* b, int64_t row, double* acc,
                                     float* sums);

}  // namespace npurt
