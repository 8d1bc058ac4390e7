// The channels-last MaxPool compiled for AVX2 (-mavx2): the portable loop with 32-byte vectors and
// vpmaxsb / vpmaxsw / vmaxps, the same bits (max_pool_nhwc_impl.h).
#include "runtime/kernels/x86/max_pool_nhwc_avx2.h"

#include "runtime/kernels/portable/max_pool_nhwc_impl.h"

namespace npurt {

void f32_max_pool__nhwc_avx2(const PoolNhwcParams& p, const float* input, float* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

void s8_max_pool__nhwc_avx2(const PoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

void s16_max_pool__nhwc_avx2(const PoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

}  // namespace npurt
