#include "runtime/kernels/ref/reduce.h"

#include <cmath>
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
  using U = std::make_unsigned_t<T>;  // signed overflow is undefined: sums and products wrap as unsigned
  if (p.reduced_count == 0) {
    const T identity = p.op == ReduceOp::kMax   ? std::numeric_limits<T>::lowest()
                       : p.op == ReduceOp::kMin  ? std::numeric_limits<T>::max()
                       : p.op == ReduceOp::kProd ? T{1}
                                                 : T{0};
    for (int64_t o = 0; o < p.out_count; ++o) y[o] = identity;
    return;
  }
  switch (p.op) {
    case ReduceOp::kMax:
    case ReduceOp::kMin: {
      const bool max = p.op == ReduceOp::kMax;
      ForEachOutput(p, x, y, [&p, max](const T* row) {
        T m = max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
        ForEachReduced(p, row, [&m, max](T v) { m = (max ? v > m : v < m) ? v : m; });
        return m;
      });
      return;
    }
    case ReduceOp::kProd:
      ForEachOutput(p, x, y, [&p](const T* row) {
        U prod = 1;
        ForEachReduced(p, row, [&prod](T v) { prod *= static_cast<U>(v); });
        return static_cast<T>(prod);
      });
      return;
    default: {  // Sum, SumSquare, L1 (ReduceTakesIntegers)
      const ReduceOp op = p.op;
      ForEachOutput(p, x, y, [&p, op](const T* row) {
        U sum = 0;
        ForEachReduced(p, row, [&sum, op](T v) {
          const U u = static_cast<U>(v);
          sum += op == ReduceOp::kSumSquare ? u * u : op == ReduceOp::kL1 && v < 0 ? U{0} - u : u;
        });
        return static_cast<T>(sum);
      });
      return;
    }
  }
}

}  // namespace

void f32_reduce__ref(const ReduceParams& p, const float* x, float* y) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const ReduceOp op = p.op;
  if (p.reduced_count == 0) {
    float identity = 0.0f;
    if (op == ReduceOp::kMax || op == ReduceOp::kLogSum || op == ReduceOp::kLogSumExp) identity = -kInf;
    if (op == ReduceOp::kMin) identity = kInf;
    if (op == ReduceOp::kProd) identity = 1.0f;
    if (op == ReduceOp::kMean) identity = std::numeric_limits<float>::quiet_NaN();
    for (int64_t o = 0; o < p.out_count; ++o) y[o] = identity;
    return;
  }
  if (op == ReduceOp::kMax || op == ReduceOp::kMin) {
    const bool max = op == ReduceOp::kMax;
    ForEachOutput(p, x, y, [&p, max](const float* row) {
      float m = max ? -kInf : kInf;
      ForEachReduced(p, row, [&m, max](float v) { m = (v != v || (max ? v > m : v < m)) ? v : m; });
      return m;
    });
    return;
  }
  if (op == ReduceOp::kProd) {
    ForEachOutput(p, x, y, [&p](const float* row) {
      double prod = 1.0;
      ForEachReduced(p, row, [&prod](float v) { prod *= v; });
      return static_cast<float>(prod);
    });
    return;
  }
  if (op == ReduceOp::kLogSumExp) {
    ForEachOutput(p, x, y, [&p](const float* row) {
      float m = -kInf;
      ForEachReduced(p, row, [&m](float v) { m = (v != v || v > m) ? v : m; });
      if (m != m || m == kInf || m == -kInf) {  // NaN, or every exponent infinite or zero: the plain formula
        double sum = 0.0;
        ForEachReduced(p, row, [&sum](float v) { sum += std::exp(static_cast<double>(v)); });
        return static_cast<float>(std::log(sum));
      }
      double sum = 0.0;
      ForEachReduced(p, row, [&sum, m](float v) { sum += std::exp(static_cast<double>(v) - m); });
      return static_cast<float>(m + std::log(sum));
    });
    return;
  }
  // Sums: Sum, Mean, L1, L2, SumSquare, LogSum.
  const double divisor = op == ReduceOp::kMean ? static_cast<double>(p.reduced_count) : 1.0;
  ForEachOutput(p, x, y, [&p, op, divisor](const float* row) {
    double sum = 0.0;
    ForEachReduced(p, row, [&sum, op](float v) {
      const double d = v;
      sum += op == ReduceOp::kL1 ? std::fabs(d) : (op == ReduceOp::kL2 || op == ReduceOp::kSumSquare) ? d * d : d;
    });
    if (op == ReduceOp::kL2) return static_cast<float>(std::sqrt(sum));
    if (op == ReduceOp::kLogSum) return static_cast<float>(std::log(sum));
    return static_cast<float>(sum / divisor);
  });
}

void i32_reduce__ref(const ReduceParams& p, const int32_t* x, int32_t* y) { IntegerReduce(p, x, y); }

void i64_reduce__ref(const ReduceParams& p, const int64_t* x, int64_t* y) { IntegerReduce(p, x, y); }

}  // namespace npurt
