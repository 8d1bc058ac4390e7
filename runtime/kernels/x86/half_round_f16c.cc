#include "runtime/kernels/x86/half_round_f16c.h"

#include <immintrin.h>

#include "runtime/kernels/ref/half_round.h"

namespace npurt {

// vcvtps2ph with imm 0 rounds to nearest even and overflows to inf; vcvtph2ps is exact. An overflow is a
// finite input (|x| < inf) whose result is infinite.
__attribute__((target("avx2,f16c"))) int64_t round_to_half__f16c(float* x, int64_t n) {
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256 inf = _mm256_castsi256_ps(_mm256_set1_epi32(0x7f800000));
  int64_t overflowed = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256 r = _mm256_cvtph_ps(_mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    const __m256 finite_in = _mm256_cmp_ps(_mm256_and_ps(v, abs_mask), inf, _CMP_LT_OQ);
    const __m256 inf_out = _mm256_cmp_ps(_mm256_and_ps(r, abs_mask), inf, _CMP_EQ_OQ);
    overflowed += __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_and_ps(finite_in, inf_out))));
    _mm256_storeu_ps(x + i, r);
  }
  return overflowed + round_to_half__ref(x + i, n - i);
}

}  // namespace npurt
