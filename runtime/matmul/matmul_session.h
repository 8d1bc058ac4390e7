// One Matmul API context (rknn_matmul_create): its shapes, the matrices bound to it, their quantization,
// and the computation of C = A x B on the CPU kernels.
//
// Integer C (int32, int16, int8) is exact: sum_k (A - zA)(B - zB) in int32 on npurt's int8 microkernels
// (runtime/kernels/int8/igemm.h, the same kernels and dispatch as the convolutions; the reference loop
// where none runs), then saturated (int16) or requantized with the runtime's arithmetic (int8:
// round-half-even(acc * sA * sB / sC) + zC). Where B has several scales and the sums must be
// integers (int32 / int16 C, or int8 C per group), B is first brought to one scale S = max(s): B' =
// round(B * s / S), which rknn_matmul_get_quant_params reports (the reference: "the scale of B's
// channels after normalization"). Float C: A and B as float values (integers dequantized, fp16
// widened), summed in float32 (oneDNN on x86, the reference Gemm elsewhere), rounded once to fp16 /
// bf16 where C is.
//
// B is read when it is bound (rknn_matmul_set_io_mem) and prepared -- converted, normalized, packed --
// at the first run after it or its quantization changed; A is read by each run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/matmul/matmul_layout.h"

namespace npurt {

struct IgemmKernel;
struct IgemmPackedWeights;
class OnednnMatMul;

enum class MmWhich { kA = 0, kB = 1, kC = 2 };

struct MatmulConfig {
  const MatmulPlatform* platform = nullptr;
  int32_t type = 0;  // rknn_matmul_type
  MatmulTypes types{};
  int32_t b_layout = 0, ac_layout = 0;
  int32_t b_quant_type = 0;  // rknn_matmul_quant_type
  int64_t group_size = 0;
};

struct MatmulShape {
  int64_t m = 0, k = 0, n = 0;
};

class MatmulSession {
 public:
  // `dynamic`: created by rknn_matmul_create_dynamic_shape, so a shape must be selected before binding.
  static Status Create(const MatmulConfig& config, const std::vector<MatmulShape>& shapes, bool dynamic,
                       std::unique_ptr<MatmulSession>* out);
  ~MatmulSession();

  std::mutex& mutex() { return mutex_; }
  const MatmulConfig& config() const { return config_; }
  int shape_count() const { return static_cast<int>(shapes_.size()); }
  const MatmulGeometry& geometry(int shape) const { return geometries_[static_cast<size_t>(shape)]; }
  int current_shape() const { return current_; }

  Status SelectShape(const MatmulShape& shape);
  // Scale / zero point arrays (lengths checked against the current shape at the next run).
  Status SetQuant(MmWhich which, const float* scale, int32_t scale_len, const int32_t* zp, int32_t zp_len);
  // The one scale of B's values in the integer sums (1 until B's scales are set).
  Status BScale(float* scale);
  // `data` holds `size` bytes; `owner` keeps them valid. `attr` must be the current shape's matrix.
  Status Bind(MmWhich which, uint8_t* data, uint64_t size, std::shared_ptr<void> owner);
  void SetThreads(int threads) {
    const int t = threads < 1 ? 1 : threads;
    if (t != threads_ && !IntegerOutput()) b_prepared_ = false;  // oneDNN's row bands follow the threads
    threads_ = t;
  }
  Status Run();

 private:
  struct Binding {
    uint8_t* data = nullptr;
    uint64_t size = 0;
    std::shared_ptr<void> owner;
  };
  struct Quant {
    std::vector<float> scale{1.0f};
    std::vector<int32_t> zp;  // empty: zeros
  };

  MatmulSession() = default;
  const MatmulShape& shape() const { return shapes_[static_cast<size_t>(current_)]; }
  bool IntegerOutput() const { return MmElemIsInteger(config_.types.c); }
  Status CheckQuant() const;
  float BScaleAt(int64_t k, int64_t n) const;
  int32_t BZeroAt(int64_t k, int64_t n) const;
  Status PrepareB();
  Status RunInteger();
  Status RunFloat();
  void IntegerSums(const int8_t* a, int32_t a_zero, int32_t* sums) const;

  std::mutex mutex_;
  MatmulConfig config_;
  std::vector<MatmulShape> shapes_;
  std::vector<MatmulGeometry> geometries_;
  bool dynamic_ = false;
  bool selected_ = false;
  int current_ = 0;
  int threads_ = 1;
  Binding bound_[3];
  Quant quant_[3];
  std::vector<uint8_t> b_raw_;  // B's bytes as bound
  int64_t b_k_ = 0, b_n_ = 0;   // the shape B was bound for
  bool b_prepared_ = false;

  // Prepared B. Integer C: B' codes (N, K) (normalized), packed for the kernel, their one scale.
  std::vector<int32_t> b_wide_;  // B' (N, K) as int32 (the reference loop)
  std::vector<int8_t> b_codes_;  // B' saturated to int8 (packed when it fits)
  bool b_codes_fit_int8_ = true;
  float b_scale_ = 1.0f;
  const IgemmKernel* kernel_ = nullptr;
  std::unique_ptr<IgemmPackedWeights> packed_;
  int32_t packed_zero_ = 0;  // A's zero point folded into the packed bias
  // Float C: B as float (K, N), and oneDNN's matmul per M.
  std::vector<float> b_float_;
  std::map<int64_t, std::unique_ptr<OnednnMatMul>> onednn_;

  // Per-run buffers, sized for the largest shape at creation (no allocation in a run).
  std::vector<int8_t> a_codes_;
  std::vector<uint8_t> staged_;
  std::vector<int32_t> sums_;
  std::vector<float> a_float_, c_float_;
  std::vector<uint8_t> scratch_;
};

}  // namespace npurt
