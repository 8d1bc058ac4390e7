#include "runtime/kernels/portable/quantized_matmul_sums.h"

#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

template <typename TA, typename TB>
void Sums(const MatMulParams& p, const MatMulQuantParams& q, const TA* a, const TB* b, int64_t row,
          double* __restrict acc, float* __restrict sums) {
  const int64_t n = p.n, k = p.k;
  const size_t batch = static_cast<size_t>(row / p.m);
  const TA* a_row = a + p.a_offsets[batch] + row % p.m * k;
  const TB* bm = b + p.b_offsets[batch];
  const double b_zero_point = q.b_zero_point;
  for (int64_t j = 0; j < n; ++j) acc[j] = 0.0;
  for (int64_t kk = 0; kk < k; ++kk) {
    const double av = static_cast<double>(static_cast<int32_t>(a_row[kk]) - q.a_zero_point);
    const TB* __restrict b_row = bm + kk * n;
    for (int64_t j = 0; j < n; ++j) acc[j] += av * (static_cast<double>(b_row[j]) - b_zero_point);
  }
  for (int64_t j = 0; j < n; ++j) sums[j] = static_cast<float>(acc[j]);
}

}  // namespace

void quantized_matmul_sums__portable(const MatMulParams& p, const MatMulQuantParams& q, DataType a_type,
                                     const void* a, DataType b_type, const void* b, int64_t row, double* acc,
                                     float* sums) {
  WithActivationType(a_type, [&](auto* a_tag) {
    using TA = std::remove_pointer_t<decltype(a_tag)>;
    WithActivationType(b_type, [&](auto* b_tag) {
      using TB = std::remove_pointer_t<decltype(b_tag)>;
      Sums(p, q, static_cast<const TA*>(a), static_cast<const TB*>(b), row, acc, sums);
    });
  });
}

}  // namespace npurt
