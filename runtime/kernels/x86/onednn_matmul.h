// Y = act(A x B + bias) on oneDNN for MatMul and Gemm with a constant B (a
// weight), float32. (Quantized ones sum their codes here as floats, kept exact, and npurt requantizes:
// runtime/ops/gemm_fast_path.h; oneDNN's own int8 requantization rounds differently from the reference.) A is (M, K) row-major,
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

class OnednnMatMul {
 public:
  // Whether Create can take it on this CPU.
  static bool Supports(const OnednnMatMulShape& s);
  // `b` and `bias` (N values, nullptr: none) are copied.
  static Status Create(const OnednnMatMulShape& s, const void* b, const void* bias, int max_slices,
                       std::unique_ptr<OnednnMatMul>* out);
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
