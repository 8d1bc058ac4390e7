#include "runtime/kernels/ref/gemm.h"

#include <algorithm>

namespace npurt {
namespace {

// x (strided) . y over n elements with eight independent partial sums, so the
// compiler can vectorize the reduction without reassociating float math itself.
float Dot(const float* x, int64_t x_stride, const float* y, int64_t n) {
  float partial[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int l = 0; l < 8; ++l) partial[l] += x[(i + l) * x_stride] * y[i + l];
  }
  float acc = 0.0f;
  for (; i < n; ++i) acc += x[i * x_stride] * y[i];
  for (float v : partial) acc += v;
  return acc;
}

}  // namespace

void f32_gemm__ref(const GemmParams& p, const float* a, const float* b, const float* c, float* y,
                   WorkRange range) {
  // A(i, kk) and B(kk, j) under the transposes.
  const int64_t a_row = p.trans_a ? 1 : p.k, a_col = p.trans_a ? p.m : 1;
  for (int64_t i = range.Begin(p.m); i < range.End(p.m); ++i) {
    float* y_row = y + i * p.n;
    if (p.trans_b) {
      // B rows are contiguous in K: a dot product per output.
      for (int64_t j = 0; j < p.n; ++j) y_row[j] = Dot(a + i * a_row, a_col, b + j * p.k, p.k);
    } else {
      std::fill(y_row, y_row + p.n, 0.0f);
      for (int64_t kk = 0; kk < p.k; ++kk) {
        const float av = a[i * a_row + kk * a_col];
        const float* b_row = b + kk * p.n;
        for (int64_t j = 0; j < p.n; ++j) y_row[j] += av * b_row[j];
      }
    }
    for (int64_t j = 0; j < p.n; ++j) {
      float v = p.alpha * y_row[j];
      // Like ONNX Runtime, beta == 0 drops C entirely (so an inf or NaN in C does not leak).
      if (c != nullptr && p.beta != 0.0f) v += p.beta * c[i * p.c_row_stride + j * p.c_col_stride];
      y_row[j] = ApplyFusedActivation(p.activation, v);
    }
  }
}

void f32_matmul__ref(const MatMulParams& p, const float* a, const float* b, float* y, WorkRange range) {
  const int64_t rows = static_cast<int64_t>(p.a_offsets.size()) * p.m;
  for (int64_t r = range.Begin(rows); r < range.End(rows); ++r) {
    const size_t batch = static_cast<size_t>(r / p.m);
    const int64_t i = r % p.m;
    const float* am = a + p.a_offsets[batch];
    const float* bm = b + p.b_offsets[batch];
    float* y_row = y + r * p.n;
    std::fill(y_row, y_row + p.n, 0.0f);
    for (int64_t kk = 0; kk < p.k; ++kk) {
      const float av = am[i * p.k + kk];
      const float* b_row = bm + kk * p.n;
      for (int64_t j = 0; j < p.n; ++j) y_row[j] += av * b_row[j];
    }
  }
}

}  // namespace npurt
