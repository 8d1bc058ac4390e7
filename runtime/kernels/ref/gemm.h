// Gemm (Y = act(alpha * A' * B' + beta * C)) and batched MatMul, row-major float32.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

struct GemmParams {
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
  bool trans_a = false;  // A is (K, M) instead of (M, K)
  bool trans_b = false;  // B is (N, K) instead of (K, N)
  float alpha = 1.0f;
  float beta = 1.0f;
  // C element (i, j) is c[i * c_row_stride + j * c_col_stride]; a broadcast dim has stride 0.
  int64_t c_row_stride = 0;
  int64_t c_col_stride = 0;
  FusedActivationParams activation;
};

// c may be nullptr (no C term); y is (M, N).
void f32_gemm__ref(const GemmParams& p, const float* a, const float* b, const float* c, float* y);

struct MatMulParams {
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
  // One entry per output matrix: element offsets of its (M, K) A matrix and
  // (K, N) B matrix, with batch broadcasting already resolved.
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
};

// y holds a_offsets.size() row-major (M, N) matrices back to back.
void f32_matmul__ref(const MatMulParams& p, const float* a, const float* b, float* y);

}  // namespace npurt
