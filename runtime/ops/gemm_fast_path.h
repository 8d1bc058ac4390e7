// The optimized Gemm / MatMul path: a oneDNN matmul (runtime/kernels/x86) over
// all rows of A against a constant B, chosen in prepare when the CPU, the build
// and the node allow it; enabled() false otherwise, and the op runs its
// reference kernel.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/ops/float_sum_split.h"
#include "runtime/ops/op.h"

namespace npurt {

class OnednnMatMul;

// Y (rows, n) = act(A (rows, k) x B + bias) with B constant: (k, n), or (n, k) when trans_b.
struct GemmFastShape {
  int64_t rows = 1, n = 1, k = 1;
  bool trans_b = false;
  FusedActivationParams activation;
  // Quantized (quantized true): A's zero point, N accumulator scales, the output's scale and zero point.
  bool quantized = false;
  int32_t a_zero_point = 0;
  std::vector<float> acc_scale;
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t output_min = -128, output_max = 127;
};

class GemmFastPath {
 public:
  GemmFastPath();
  ~GemmFastPath();
  GemmFastPath(GemmFastPath&&) noexcept;
  GemmFastPath& operator=(GemmFastPath&&) noexcept;

  // A is node input 0, B input 1 (constant), `bias` (N int32 or float) or nullptr, Y output 0.
  // Sets node->kernel and node->scratch_bytes when it takes the node.
  Status Prepare(OpNode* node, const GemmFastShape& shape, const Tensor* bias);
  bool enabled() const { return matmul_ != nullptr; }
  Status Eval(OpNode* node) const;

 private:
  Status PrepareFloatSums(OpNode* node, const GemmFastShape& shape, const Tensor* bias);
  Status EvalFloatSums(OpNode* node) const;
  // The library's matmuls, one per slice of rows; `output` gets their results.
  Status RunSlices(int threads, const void* a, void* output, uint8_t* scratch) const;

  std::unique_ptr<OnednnMatMul> matmul_;
  // Float-sum mode (every quantized Gemm / MatMul): A's codes as float (a - zero point) times B's as float
  // in a float32 matmul, kept exact (in two pieces where one could round: runtime/ops/float_sum_split.h),
  // then requantized by npurt as the reference does.
  bool float_sums_ = false;
  FloatSumSplit split_;
  GemmFastShape shape_;
  const Tensor* bias_ = nullptr;  // int32, N values, or nullptr
  size_t a_bytes_ = 0, sums_bytes_ = 0;
};

}  // namespace npurt
