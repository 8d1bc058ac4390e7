#include "runtime/kernels/ref/arg_reduce.h"

namespace npurt {
namespace {

template <typename T>
bool IsNan(T v) {
  return v != v;
}

template <typename T>
void ArgReduce(const ArgReduceParams& p, const T* x, int64_t* y) {
  const int64_t n = p.axis_size, stride = p.inner;
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t i = 0; i < p.inner; ++i) {
      const T* row = x + o * n * stride + i;
      int64_t best = 0;
      T value = row[0];
      for (int64_t k = 1; k < n && !IsNan(value); ++k) {
        const T v = row[k * stride];
        const bool better = IsNan(v) || (p.max ? v > value : v < value) || (p.select_last_index && v == value);
        if (better) {
          best = k;
          value = v;
        }
      }
      if (IsNan(value) && p.select_last_index) {  // the last NaN
        for (int64_t k = n - 1; k > best; --k) {
          if (IsNan(row[k * stride])) {
            best = k;
            break;
          }
        }
      }
      y[o * p.inner + i] = best;
    }
  }
}

}  // namespace

void arg_reduce__ref(const ArgReduceParams& p, DataType type, const void* x, int64_t* y) {
  switch (type) {
    case DataType::kInt8: ArgReduce(p, static_cast<const int8_t*>(x), y); break;
    case DataType::kUint8: ArgReduce(p, static_cast<const uint8_t*>(x), y); break;
    case DataType::kInt16: ArgReduce(p, static_cast<const int16_t*>(x), y); break;
    case DataType::kInt32: ArgReduce(p, static_cast<const int32_t*>(x), y); break;
    case DataType::kInt64: ArgReduce(p, static_cast<const int64_t*>(x), y); break;
    default: ArgReduce(p, static_cast<const float*>(x), y); break;
  }
}

}  // namespace npurt
