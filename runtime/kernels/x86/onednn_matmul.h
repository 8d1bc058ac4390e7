// Y = act(A x B + bias) on oneDNN for MatMul and Gemm with a constant B (a
// weight): int8 (the contract of runtime/kernels/ref/quantize.h, within one
// step of the reference as in onednn_conv.h) or float32. A is (M, K) row-major,
// B (K, N) or, transposed, (N, K); Y (M, N). The rows are cut into bands, one
// single-threaded primitive each, B packed once (see onednn_conv.h for why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

struct OnednnMatMulShape {
  int64_t m = 1, n = 1, k = 1;
  bool trans_b = false;
  FusedActivationParams activation;
};

// int8 only: the quantization of A, B (per column scales, symmetric) and Y.
struct OnednnMatMulQuant {
  int32_t a_zero_point = 0;
  const float* acc_scale = nullptr;  // N values: scale_a * scale_b[j] (alpha folded in)
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
};

class OnednnMatMul {
 public:
  // Whether Create can take it on this CPU (int8 needs VNNI, see OnednnConv::Supports).
  static bool Supports(const OnednnMatMulShape& s, bool quantized);
  // `b` (int8 or float) and `bias` (N int32 or float, nullptr: none) are copied.
  static Status Create(const OnednnMatMulShape& s, const OnednnMatMulQuant* quant, const void* b, const void* bias,
                       int max_slices, std::unique_ptr<OnednnMatMul>* out);
  ~OnednnMatMul();

  int slices() const;
  size_t scratch_bytes_per_slice() const;
  // Band `slice` of the rows; `scratch` holds scratch_bytes_per_slice() for this call alone.
  Status Run(int slice, const void* a, void* y, void* scratch) const;
  const std::string& implementation() const;

 private:
  struct Impl;
  explicit OnednnMatMul(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace npurt
