// Gemm (Y = act(alpha * A' * B' + beta * C)) and batched MatMul, row-major float32.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/kernels/ref/work_range.h"

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

// c may be nullptr (no C term); y is (M, N). `range` selects rows of Y (all by default), here and in
// quantized_gemm__ref.
void f32_gemm__ref(const GemmParams& p, const float* a, const float* b, const float* c, float* y,
                   WorkRange range = {});

// Quantization of an integer Gemm (arithmetic in runtime/kernels/ref/quantize.h).
// Column j of row i accumulates, in int32,
//   acc = bias[j] + sum_k((A(i, k) - a_zero_point) * (B(k, j) - b_zero_point))
// whose real value is acc * acc_scale[j]; alpha is folded into acc_scale and
// the bias is the whole C term (beta 1, broadcast over rows). B is a symmetric
// weight (b_zero_point 0, per-tensor or per-column scales) or a per-tensor
// activation with its own zero point.
struct GemmQuantParams {
  int32_t a_zero_point = 0;
  int32_t b_zero_point = 0;
  std::vector<float> acc_scale;  // N values: alpha * scale_a * scale_b[j]
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t output_min = -128;  // the output type's range
  int32_t output_max = 127;
};

// int8 A and B (transposes from p; p.alpha, p.beta and the C strides are not
// used), int32 bias (N) or nullptr, fused activation from p.activation; y is
// (M, N) int8. The caller guarantees that no accumulator can leave the int32
// range (the Gemm op checks that bound in prepare).
void s8_gemm__ref(const GemmParams& p, const GemmQuantParams& q, const int8_t* a, const int8_t* b,
                  const int32_t* bias, int8_t* y);

struct MatMulParams {
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
  // One entry per output matrix: element offsets of its (M, K) A matrix and
  // (K, N) B matrix, with batch broadcasting already resolved.
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
};

// y holds a_offsets.size() row-major (M, N) matrices back to back. `range` selects rows of all
// of them, numbered matrix by matrix (row r is row r % M of matrix r / M; all by default), here and
// in quantized_matmul__ref.
void f32_matmul__ref(const MatMulParams& p, const float* a, const float* b, float* y, WorkRange range = {});

// Quantization of an integer MatMul: y(i, j) accumulates, in int32,
//   acc = sum_k((A(i, k) - a_zero_point) * (B(k, j) - b_zero_point))
// with real value acc * acc_scale[j], then Requantize (no activation). B is
// either a symmetric weight (b_zero_point 0, per-tensor or per-column scales)
// or a per-tensor activation with its own zero point (attention's Q x K^T).
struct MatMulQuantParams {
  int32_t a_zero_point = 0;
  int32_t b_zero_point = 0;
  std::vector<float> acc_scale;  // N values: scale_a * scale_b[j] (all equal for a per-tensor B)
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t output_min = -128;  // the output type's range
  int32_t output_max = 127;
};

// int8 A and B with the batch offsets of p; y as f32_matmul__ref, int8. The
// caller guarantees that no accumulator can leave the int32 range (the MatMul
// op checks that bound in prepare).
void s8_matmul__ref(const MatMulParams& p, const MatMulQuantParams& q, const int8_t* a, const int8_t* b,
                    int8_t* y);

// The same two with int8 or int16 activations (A, an activation B, and Y
// chosen independently; weights stay int8). Any int16 operand accumulates in
// int64, so only all-int8 calls carry the int32 bound above.
void quantized_gemm__ref(const GemmParams& p, const GemmQuantParams& q, DataType a_type, const void* a,
                         const int8_t* b, const int32_t* bias, DataType y_type, void* y, WorkRange range = {});
void quantized_matmul__ref(const MatMulParams& p, const MatMulQuantParams& q, DataType a_type, const void* a,
                           DataType b_type, const void* b, DataType y_type, void* y, WorkRange range = {});

}  // namespace npurt
