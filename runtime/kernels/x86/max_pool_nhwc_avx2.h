// The channels-last MaxPool (kernels/portable/max_pool_nhwc.h) compiled for AVX2: call only where
// ActiveCpuTarget() >= CpuTarget::kAvx2. Bit-exact with the portable kernel and the reference.
#pragma once

#include <cstdint>

#include "runtime/kernels/portable/max_pool_nhwc.h"

namespace npurt {

void f32_max_pool__nhwc_avx2(const PoolNhwcParams& p, const float* input, float* output, WorkRange rows = {});
void s8_max_pool__nhwc_avx2(const PoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows = {});
void s16_max_pool__nhwc_avx2(const PoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows = {});

}  // namespace npurt
