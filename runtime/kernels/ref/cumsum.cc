#include "runtime/kernels/ref/cumsum.h"

namespace npurt {
namespace {

template <typename T, typename Acc>
void CumSum(const CumSumParams& p, const T* x, T* y) {
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t i = 0; i < p.inner; ++i) {
      const int64_t base = o * p.axis_size * p.inner + i;
      Acc sum = 0;
      for (int64_t step = 0; step < p.axis_size; ++step) {
        const int64_t k = p.reverse ? p.axis_size - 1 - step : step;
        const int64_t at = base + k * p.inner;
        const T v = x[at];
        if (p.exclusive) {
          y[at] = static_cast<T>(sum);
          sum = static_cast<Acc>(sum + static_cast<Acc>(v));
        } else {
          sum = static_cast<Acc>(sum + static_cast<Acc>(v));
          y[at] = static_cast<T>(sum);
        }
      }
    }
  }
}

}  // namespace

void cumsum__ref(const CumSumParams& p, const void* x, void* y) {
  switch (p.type) {
    case DataType::kInt32:  // wraps: summed as unsigned
      CumSum<int32_t, uint32_t>(p, static_cast<const int32_t*>(x), static_cast<int32_t*>(y));
      break;
    case DataType::kInt64:
      CumSum<int64_t, uint64_t>(p, static_cast<const int64_t*>(x), static_cast<int64_t*>(y));
      break;
    default: CumSum<float, double>(p, static_cast<const float*>(x), static_cast<float*>(y)); break;
  }
}

}  // namespace npurt
