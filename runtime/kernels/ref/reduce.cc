#include "runtime/kernels/ref/reduce.h"

#include <limits>
#include <type_traits>

namespace npurt {
namespace {

// Calls visit(value) for every element reduced into one output, `x` pointing
// at that output's first element.
template <typename T, typename Visit>
void ForEachReduced(const ReduceParams& p, const T* x, Visit&& visit) {
  if (p.reduced_rank == 0) {
    visit(x[0]);
    return;
  }
  int64_t index[kMaxReduceRank] = {};
  const int last = p.reduced_rank - 1;
  const int64_t n = p.reduced_dims[last], stride = p.reduced_strides[last];
  int64_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= p.reduced_dims[d];
  int64_t offset = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < n; ++i) visit(x[offset + i * stride]);
    for (int d = last - 1; d >= 0; --d) {
      offset += p.reduced_strides[d];
      if (++index[d] < p.reduced_dims[d]) break;
      index[d] = 0;
      offset -= p.reduced_strides[d] * p.reduced_dims[d];
    }
  }
}

// Calls y[o] = reduce_one(x + offset of output o) for every output.
template <typename T, typename ReduceOne>
void ForEachOutput(const ReduceParams& p, const T* x, T* y, ReduceOne&& reduce_one) {
  int64_t index[kMaxReduceRank] = {};
  int64_t offset = 0;
  for (int64_t o = 0; o < p.out_count; ++o) {
    y[o] = reduce_one(x + offset);
    for (int d = p.kept_rank - 1; d >= 0; --d) {
      offset += p.kept_strides[d];
      if (++index[d] < p.kept_dims[d]) break;
      index[d] = 0;
      offset -= p.kept_strides[d] * p.kept_dims[d];
    }
  }
}

template <typename T>
void IntegerReduce(const ReduceParams& p, const T* x, T* y) {
  if (p.reduced_count == 0) {
    const T identity = p.op == ReduceOp::kMax ? std::numeric_limits<T>::lowest() : T{0};
    for (int64_t o = 0; o < p.out_count; ++o) y[o] = identity;
    return;
  }
  using U = std::make_unsigned_t<T>;
  if (p.op == ReduceOp::kMax) {
    ForEachOutput(p, x, y, [&p](const T* row) {
      T m = std::numeric_limits<T>::lowest();
      ForEachReduced(p, row, [&m](T v) { m = v > m ? v : m; });
      return m;
    });
  } else {  // kSum; signed overflow is undefined, so add as unsigned
    ForEachOutput(p, x, y, [&p](const T* row) {
      U sum = 0;
      ForEachReduced(p, row, [&sum](T v) { sum += static_cast<U>(v); });
      return static_cast<T>(sum);
    });
  }
}

}  // namespace

void f32_reduce__ref(const ReduceParams& p, const float* x, float* y) {
  if (p.reduced_count == 0) {
    float identity = 0.0f;
    if (p.op == ReduceOp::kMax) identity = -std::numeric_limits<float>::infinity();
    if (p.op == ReduceOp::kMean) identity = std::numeric_limits<float>::quiet_NaN();
    for (int64_t o = 0; o < p.out_count; ++o) y[o] = identity;
    return;
  }
  if (p.op == ReduceOp::kMax) {
    ForEachOutput(p, x, y, [&p](const float* row) {
      float m = -std::numeric_limits<float>::infinity();
      ForEachReduced(p, row, [&m](float v) { m = (v != v || v > m) ? v : m; });
      return m;
    });
    return;
  }
  const double divisor = p.op == ReduceOp::kMean ? static_cast<double>(p.reduced_count) : 1.0;
  ForEachOutput(p, x, y, [&p, divisor](const float* row) {
    double sum = 0.0;
    ForEachReduced(p, row, [&sum](float v) { sum += v; });
    return static_cast<float>(sum / divisor);
  });
}

void i32_reduce__ref(const ReduceParams& p, const int32_t* x, int32_t* y) { IntegerReduce(p, x, y); }

void i64_reduce__ref(const ReduceParams& p, const int64_t* x, int64_t* y) { IntegerReduce(p, x, y); }

}  // namespace npurt
