#include "runtime/kernels/ref/half_round.h"

#include <cmath>

#include "runtime/core/types.h"

namespace npurt {

int64_t round_to_half__ref(float* x, int64_t n) {
  int64_t overflowed = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float r = HalfToFloat(FloatToHalf(x[i]));
    overflowed += std::isfinite(x[i]) && !std::isfinite(r);
    x[i] = r;
  }
  return overflowed;
}

}  // namespace npurt
