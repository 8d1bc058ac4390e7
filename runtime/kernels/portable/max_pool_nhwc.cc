#include "runtime/kernels/portable/max_pool_nhwc.h"

#include "runtime/kernels/portable/max_pool_nhwc_impl.h"

namespace npurt {

void f32_max_pool__nhwc(const PoolNhwcParams& p, const float* input, float* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

void s8_max_pool__nhwc(const PoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

void s16_max_pool__nhwc(const PoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows) {
  MaxPoolNhwc(p, input, output, rows);
}

}  // namespace npurt
