// Which depthwise kernel runs, and the weights in its layout.
#include <atomic>

#include "runtime/kernels/int8/dwconv_kernels.h"

namespace npurt {

const std::vector<const DwconvKernel*>& AllDwconvKernels() {
  static const std::vector<const DwconvKernel*> all = {
#if defined(__x86_64__)
      &kDwconvAvx2,
#endif
      &kDwconvScalar,
  };
  return all;
}

namespace {
std::atomic<const DwconvKernel*> g_test_choice{nullptr};
std::atomic<bool> g_test_forced{false};
}  // namespace

ScopedDwconvKernelChoice::ScopedDwconvKernelChoice(const DwconvKernel* kernel)
    : saved_(g_test_choice.exchange(kernel)), saved_forced_(g_test_forced.exchange(true)) {}
ScopedDwconvKernelChoice::~ScopedDwconvKernelChoice() {
  g_test_choice.store(saved_);
  g_test_forced.store(saved_forced_);
}

const DwconvKernel* ChooseDwconvKernel() {
  if (ActiveCpuTarget() < CpuTarget::kPortable || IgemmKernelsDisabledForTest()) return nullptr;
  if (g_test_forced.load()) {
    const DwconvKernel* k = g_test_choice.load();
    return k != nullptr && ActiveCpuTarget() >= k->needs ? k : nullptr;
  }
  for (const DwconvKernel* k : AllDwconvKernels()) {
    if (ActiveCpuTarget() >= k->needs) return k;
  }
  return nullptr;
}

void PackDwconvWeights(const int8_t* weights, const int32_t* bias, int64_t channels, int64_t taps, int32_t zero_point,
                       std::vector<int16_t>* packed, std::vector<int32_t>* packed_bias) {
  const int64_t blocks = (channels + kDwconvChannelBlock - 1) / kDwconvChannelBlock;
  const int64_t pairs = (taps + 1) / 2;
  packed->assign(static_cast<size_t>(pairs * blocks * kDwconvChannelBlock * 2), 0);
  packed_bias->assign(static_cast<size_t>(blocks * kDwconvChannelBlock), 0);
  for (int64_t pair = 0; pair < pairs; ++pair) {
    for (int64_t b = 0; b < blocks; ++b) {
      int16_t* out = packed->data() + (pair * blocks + b) * kDwconvChannelBlock * 2;
      for (int lane = 0; lane < kDwconvChannelBlock; ++lane) {
        const int64_t c = b * kDwconvChannelBlock + kDwconvLaneChannel[lane];
        if (c >= channels) continue;
        for (int64_t half = 0; half < 2; ++half) {
          const int64_t tap = 2 * pair + half;
          out[lane * 2 + half] = tap < taps ? weights[c * taps + tap] : 0;
        }
      }
    }
  }
  for (int64_t c = 0; c < channels; ++c) {
    int64_t weight_sum = 0;
    for (int64_t t = 0; t < taps; ++t) weight_sum += weights[c * taps + t];
    const int64_t folded = (bias != nullptr ? bias[c] : 0) - static_cast<int64_t>(zero_point) * weight_sum;
    (*packed_bias)[static_cast<size_t>(c)] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
  }
}

}  // namespace npurt
