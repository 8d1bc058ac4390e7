// Random residual codes for the requantization rows' tests (RequantizeRowsParams::residual, a Conv's fused
// Add): int8 or int16 over the type's range, a zero point within +-20 and a scale that spans about the
// output's range, so that the residual moves outputs by many steps and across saturation.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/x86/requantize_rows.h"

namespace npurt {
namespace testing {

class ResidualCodes {
 public:
  // Points `p` at `count` new codes of `type` (p's output type and scale must be set).
  void Attach(std::mt19937* rng, size_t count, DataType type, RequantizeRowsParams* p) {
    const bool wide = type == DataType::kInt16;
    std::uniform_int_distribution<int32_t> code(wide ? -32768 : -128, wide ? 32767 : 127), zero_point(-20, 20);
    codes_.resize(count);
    for (int32_t& c : codes_) c = code(*rng);
    c8_.assign(codes_.begin(), codes_.end());
    c16_.assign(codes_.begin(), codes_.end());
    p->residual.data = wide ? static_cast<const void*>(c16_.data()) : c8_.data();
    p->residual.type = type;
    p->residual.zero_point = zero_point(*rng);
    const float out_range = p->out_scale * static_cast<float>(p->out_max - p->out_min);
    p->residual.scale = out_range * std::uniform_real_distribution<float>(0.5f, 2.0f)(*rng) / (wide ? 65535.0f : 255.0f);
    scale_ = p->residual.scale;
    zero_point_ = p->residual.zero_point;
  }
  // Accumulator scales under which sums up to `max_sum` span about p's output range, so that few outputs
  // saturate and the residual moves them (with the usual tiny scales nearly all saturate and hide it).
  static void OutputRangeScales(std::mt19937* rng, const RequantizeRowsParams& p, float max_sum,
                                std::vector<float>* acc_scale) {
    const float out_range = p.out_scale * static_cast<float>(p.out_max - p.out_min);
    for (float& v : *acc_scale) v = out_range * std::uniform_real_distribution<float>(0.5f, 2.0f)(*rng) / max_sum;
  }
  // Element i's real value, as the reference dequantizes it.
  float Real(size_t i) const { return DequantizeValue(codes_[i], scale_, zero_point_); }

 private:
  std::vector<int32_t> codes_;
  std::vector<int8_t> c8_;
  std::vector<int16_t> c16_;
  float scale_ = 1.0f;
  int32_t zero_point_ = 0;
};

}  // namespace testing
}  // namespace npurt
