// Which igemm kernel runs: chosen once from the CPU target, as XNNPACK's configs; packing of the weights
// in the chosen kernel's layout.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "runtime/kernels/int8/igemm_kernels.h"

namespace npurt {

const std::vector<const IgemmKernel*>& AllIgemmKernels() {
  static const std::vector<const IgemmKernel*> all = {
#if defined(__x86_64__)
      &kIgemmAvx512Vnni, &kIgemmAvx512VnniPairs, &kIgemmAvx512, &kIgemmAvxVnni, &kIgemmAvx2,
      &kIgemmAvx512VnniEmulated, &kIgemmAvx512Emulated, &kIgemmAvxVnniEmulated, &kIgemmNeonDotEmulated,
#endif
#if defined(__aarch64__)
      &kIgemmNeonDot, &kIgemmNeon,
#endif
      &kIgemmScalar,
  };
  return all;
}

bool IgemmKernelRuns(const IgemmKernel& k) {
  return ActiveCpuTarget() >= k.needs && (k.cpu_has == nullptr || k.cpu_has());
}

namespace {
std::atomic<const IgemmKernel*> g_test_choice{nullptr};
std::atomic<bool> g_test_forced{false};
bool Fits(const IgemmKernel& k, bool int16_input) { return IgemmKernelRuns(k) && (!int16_input || k.int16_inputs); }
}  // namespace

ScopedIgemmKernelChoice::ScopedIgemmKernelChoice(const IgemmKernel* kernel)
    : saved_(g_test_choice.exchange(kernel)), saved_forced_(g_test_forced.exchange(true)) {}
ScopedIgemmKernelChoice::~ScopedIgemmKernelChoice() {
  g_test_choice.store(saved_);
  g_test_forced.store(saved_forced_);
}

bool IgemmKernelsDisabledForTest() { return g_test_forced.load() && g_test_choice.load() == nullptr; }

const IgemmKernel* ChooseIgemmKernel(bool int16_input) {
  if (ActiveCpuTarget() < CpuTarget::kPortable) return nullptr;
  if (g_test_forced.load()) {
    const IgemmKernel* k = g_test_choice.load();
    return k != nullptr && Fits(*k, int16_input) ? k : nullptr;
  }
  static const char* forced = std::getenv("NPURT_INT8_KERNEL");
  if (forced != nullptr && *forced != '\0') {
    for (const IgemmKernel* k : AllIgemmKernels()) {
      if (std::strcmp(k->name, forced) == 0 && Fits(*k, int16_input)) return k;
    }
  }
  // The first real kernel that runs, in the order of AllIgemmKernels (fastest first); int16 inputs need
  // int16 pairs.
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!k->emulated && Fits(*k, int16_input)) return k;
  }
  return nullptr;
}

int64_t IgemmGroupK(const IgemmKernel& k, int64_t group_in) {
  const int64_t pack = IgemmPack(k.format);
  return (group_in + pack - 1) / pack * pack;
}

void PackIgemmWeights(const IgemmKernel& k, const int8_t* weights, const int32_t* bias, int64_t groups,
                      int64_t out_channels, int64_t group_in, int64_t taps, int32_t zero_point,
                      IgemmPackedWeights* out) {
  const int64_t group_out = out_channels / groups;
  const int64_t nr = k.nr;
  const bool quads = k.format != IgemmFormat::kPairsS16;  // int8 weights
  const int64_t element_bytes = IgemmElementBytes(k.format);
  IgemmPackedWeights& p = *out;
  p.groups = groups;
  p.group_out = group_out;
  p.group_in = group_in;
  p.taps = taps;
  p.group_k = IgemmGroupK(k, group_in);
  p.kgroups = p.group_k * element_bytes / 4;
  p.blocks = (group_out + nr - 1) / nr;
  p.block_bytes = taps * p.kgroups * nr * 4;
  p.nr_ = nr;
  p.data.assign(static_cast<size_t>(groups * p.blocks * p.block_bytes), 0);
  p.bias.assign(static_cast<size_t>(groups * p.blocks * nr), 0);
  const int64_t pack = 4 / element_bytes;  // staged elements per 4-byte group
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t b = 0; b < p.blocks; ++b) {
      uint8_t* block = p.data.data() + (g * p.blocks + b) * p.block_bytes;
      for (int64_t n = 0; n < nr && b * nr + n < group_out; ++n) {
        const int64_t m = g * group_out + b * nr + n;  // the output channel
        const int8_t* wm = weights + m * group_in * taps;
        int64_t weight_sum = 0;
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t c = 0; c < group_in; ++c) {
            const int32_t w = wm[c * taps + t];
            weight_sum += w;
            uint8_t* at = block + ((t * p.kgroups + c / pack) * nr + n) * 4 + (c % pack) * element_bytes;
            if (quads) {
              *at = static_cast<uint8_t>(static_cast<int8_t>(w));
            } else {
              const int16_t v = static_cast<int16_t>(w);
              std::memcpy(at, &v, 2);
            }
          }
        }
        // The staged codes are x (pairs, signed quads) or x + 128 (unsigned quads), not x - zero point: the
        // bias takes away (zero point [+ 128]) * sum(w), wrapping as the sums do.
        const int64_t shift = k.format == IgemmFormat::kQuadsU8 ? 128 : 0;
        const int64_t compensation = (static_cast<int64_t>(zero_point) + shift) * weight_sum;
        const int64_t folded = (bias != nullptr ? bias[m] : 0) - compensation;
        p.bias[static_cast<size_t>((g * p.blocks + b) * nr + n)] =
            static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
      }
    }
  }
}

}  // namespace npurt
