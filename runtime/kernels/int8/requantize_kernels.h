// The requantization rows the int8 kernels finish with, every implementation (requantize_config.cc chooses
// one): what each needs of the CPU, for the tests that run all of them against the reference.
#pragma once

#include <cmath>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/requantize_config.h"

namespace npurt {

struct RequantizeRowsKernel {
  const char* name;
  CpuTarget needs;
  RequantizeFloatRowsFn run;
};

// Fastest first.
const std::vector<RequantizeRowsKernel>& AllRequantizeRowsKernels();

// A Relu or Clip(a, b) without an affine, folded into the output's clamp: dividing by a positive scale and
// rounding are monotonic, so clamp(round(clip(x, a, b) / s), lo, hi) = clamp(round(x / s), max(lo, A),
// min(hi, B)) with A = round(a / s), B = round(b / s) (Relu: a = 0, b = +inf; no activation: the clamp as
// it is), wherever the two ranges meet.
// NaN stays NaN either way. The bounds are relative to the zero point, as the rows' clamp.
struct FoldedClamp {
  bool folded = false;
  float lo = 0.0f, hi = 0.0f;
};
inline FoldedClamp FoldActivationIntoClamp(const RequantizeRowsParams& p) {
  FoldedClamp f;
  const FusedActivationParams& act = p.activation;
  if (act.scale != nullptr || !(p.out_scale > 0.0f) || !std::isfinite(p.out_scale)) return f;
  float a = 0.0f, b = INFINITY;
  if (act.kind == FusedActivation::kClip) {
    a = act.a, b = act.b;
  } else if (act.kind == FusedActivation::kNone) {
    a = -INFINITY;
  } else if (act.kind != FusedActivation::kRelu) {
    return f;
  }
  if (std::isnan(a) || std::isnan(b) || !(a <= b)) return f;
  const float lo = static_cast<float>(p.out_min) - static_cast<float>(p.out_zero_point);
  const float hi = static_cast<float>(p.out_max) - static_cast<float>(p.out_zero_point);
  const float lo_a = std::nearbyint(a / p.out_scale), hi_b = std::nearbyint(b / p.out_scale);
  f.lo = lo_a > lo ? lo_a : lo;
  f.hi = hi_b < hi ? hi_b : hi;
  f.folded = f.lo <= f.hi;
  return f;
}

#if NPURT_HAVE_X86_KERNELS
// The rows of sums that already hold the bias (the int8 kernels'; with p.bias they run the portable rows):
// AVX-512 (requantize_avx512.cc) and AVX2 (requantize_avx2.cc).
void requantize_sum_rows__avx512(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
void requantize_sum_rows__avx2(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows);
#endif

}  // namespace npurt
