// Which depthwise kernel runs (chosen once from the CPU target, as the igemm's), the geometry of its staged
// image and the weights in its layout.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "runtime/kernels/int8/dwconv_kernels.h"

namespace npurt {

const std::vector<const DwconvKernel*>& AllDwconvKernels() {
  static const std::vector<const DwconvKernel*> all = {
#if defined(__x86_64__)
      &kDwconvAvx512Vnni, &kDwconvAvx512VnniPairs, &kDwconvAvx512, &kDwconvAvxVnni, &kDwconvAvx2,
      &kDwconvAvx512VnniEmulated, &kDwconvAvx512Emulated, &kDwconvAvxVnniEmulated, &kDwconvNeonDotEmulated,
#endif
#if defined(__aarch64__)
      &kDwconvNeonDot, &kDwconvNeon,
#endif
      &kDwconvScalar,
  };
  return all;
}

bool DwconvKernelRuns(const DwconvKernel& k) {
  return ActiveCpuTarget() >= k.needs && (k.cpu_has == nullptr || k.cpu_has());
}

namespace {
std::atomic<const DwconvKernel*> g_test_choice{nullptr};
std::atomic<bool> g_test_forced{false};
bool Fits(const DwconvKernel& k, bool int16_input) { return DwconvKernelRuns(k) && (!int16_input || k.int16_inputs); }

// The ISA part of a kernel's name: "__avx512vnni_emulated" of "s8_igemm_8x32c4__avx512vnni_emulated".
const char* IsaSuffix(const char* name) {
  const char* at = std::strstr(name, "__");
  return at != nullptr ? at : name;
}
}  // namespace

ScopedDwconvKernelChoice::ScopedDwconvKernelChoice(const DwconvKernel* kernel)
    : saved_(g_test_choice.exchange(kernel)), saved_forced_(g_test_forced.exchange(true)) {}
ScopedDwconvKernelChoice::~ScopedDwconvKernelChoice() {
  g_test_choice.store(saved_);
  g_test_forced.store(saved_forced_);
}

const DwconvKernel* ChooseDwconvKernel(bool int16_input) {
  if (ActiveCpuTarget() < CpuTarget::kPortable || IgemmKernelsDisabledForTest()) return nullptr;
  if (g_test_forced.load()) {
    const DwconvKernel* k = g_test_choice.load();
    return k != nullptr && Fits(*k, int16_input) ? k : nullptr;
  }
  static const char* forced = std::getenv("NPURT_INT8_KERNEL");
  if (forced != nullptr && *forced != '\0') {
    for (const DwconvKernel* k : AllDwconvKernels()) {
      if (std::strcmp(IsaSuffix(k->name), IsaSuffix(forced)) == 0 && Fits(*k, int16_input)) return k;
    }
  }
  for (const DwconvKernel* k : AllDwconvKernels()) {
    if (!k->emulated && Fits(*k, int16_input)) return k;
  }
  return nullptr;
}

DwconvGeometry MakeDwconvGeometry(IgemmFormat format, int band_rows, int64_t channels, int64_t in_h, int64_t in_w,
                                  int64_t out_h, int64_t out_w, int64_t kernel_h, int64_t kernel_w, int64_t stride_h,
                                  int64_t stride_w, int64_t dilation_h, int64_t dilation_w, int64_t pad_top,
                                  int64_t pad_left, int64_t max_region_bytes, int64_t max_sums) {
  DwconvGeometry g;
  g.channels = channels;
  g.padded_channels = (channels + kDwconvChannelBlock - 1) / kDwconvChannelBlock * kDwconvChannelBlock;
  g.in_h = in_h, g.in_w = in_w, g.out_h = out_h, g.out_w = out_w;
  g.kernel_h = kernel_h, g.kernel_w = kernel_w, g.stride_h = stride_h, g.stride_w = stride_w;
  g.dilation_h = dilation_h, g.dilation_w = dilation_w, g.pad_top = pad_top, g.pad_left = pad_left;
  g.pack = IgemmPack(format);
  g.row_groups = (kernel_w + g.pack - 1) / g.pack;
  g.band_rows = band_rows;
  // The staged rows a band reads; then as many columns as the region and the sums allow, in chunks of
  // nearly equal width.
  g.region_h = (band_rows - 1) * stride_h + (kernel_h - 1) * dilation_h + 1;
  // The columns the taps read are multiples of gcd(stride, group width) from an item's first one.
  int64_t a = stride_w, b = g.pack * dilation_w;
  while (b != 0) {
    const int64_t r = a % b;
    a = b, b = r;
  }
  g.column_step = a;
  const int64_t pixel_bytes = g.padded_channels * 4;
  const int64_t group_span = (g.row_groups - 1) * g.pack * dilation_w / g.column_step;
  const int64_t by_region = (max_region_bytes / (g.region_h * pixel_bytes) - group_span - 1) * g.column_step / stride_w + 1;
  const int64_t by_sums = max_sums / (band_rows * channels);
  int64_t cols = out_w < by_region ? out_w : by_region;
  cols = cols < by_sums ? cols : by_sums;
  cols = cols < 1 ? 1 : cols;
  g.chunks = (out_w + cols - 1) / cols;
  g.chunk_cols = (out_w + g.chunks - 1) / g.chunks;
  g.bands = (out_h + band_rows - 1) / band_rows;
  g.region_w = (g.chunk_cols - 1) * stride_w / g.column_step + group_span + 1;
  return g;
}

namespace {

// The bands' kernels stage and sum k.band_rows rows: a geometry of fewer (an image shorter than a band)
// takes the general kernel.
bool RowsKernelFits(const DwconvKernel& k, const DwconvGeometry& g) {
  return g.band_rows == k.band_rows && g.dilation_h == 1 && (g.kernel_h == 3 || g.kernel_h == 5) &&
         (g.stride_h == 1 || g.stride_h == 2);
}

}  // namespace

DwconvRunFn DwconvRunFor(const DwconvKernel& k, const DwconvGeometry& g) {
  if (RowsKernelFits(k, g)) {
    const DwconvRunFn rows = k.run_rows[g.kernel_h == 5][g.stride_h == 2];
    if (rows != nullptr) return rows;
  }
  return k.run;
}

DwconvRunFn DwconvRunRequantFor(const DwconvKernel& k, const DwconvGeometry& g, bool out16) {
  if (!RowsKernelFits(k, g)) return nullptr;
  return k.run_rows_requant[out16][g.kernel_h == 5][g.stride_h == 2];
}

std::vector<int64_t> DwconvTapOffsets(const DwconvGeometry& g) {
  std::vector<int64_t> offsets(static_cast<size_t>(g.kernel_h * g.row_groups));
  const int64_t pixel_bytes = g.padded_channels * 4;
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    for (int64_t group = 0; group < g.row_groups; ++group) {
      offsets[static_cast<size_t>(kh * g.row_groups + group)] =
          (kh * g.dilation_h * g.region_w + group * g.pack * g.dilation_w / g.column_step) * pixel_bytes;
    }
  }
  return offsets;
}

void PackDwconvWeights(const DwconvKernel& k, const DwconvGeometry& g, const int8_t* weights, const int32_t* bias,
                       int32_t zero_point, std::vector<uint8_t>* packed, std::vector<int32_t>* packed_bias) {
  const int64_t blocks = g.padded_channels / kDwconvChannelBlock, taps = g.kernel_h * g.row_groups;
  const int64_t kernel_taps = g.kernel_h * g.kernel_w, element_bytes = IgemmElementBytes(k.format);
  packed->assign(static_cast<size_t>(blocks * taps * kDwconvChannelBlock * 4), 0);
  packed_bias->assign(static_cast<size_t>(g.padded_channels), 0);
  for (int64_t c = 0; c < g.channels; ++c) {
    const int64_t b = c / kDwconvChannelBlock, lane = c % kDwconvChannelBlock;
    for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
      for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
        const int64_t t = kh * g.row_groups + kw / g.pack;
        uint8_t* at = packed->data() + ((b * taps + t) * kDwconvChannelBlock + lane) * 4 + kw % g.pack * element_bytes;
        const int8_t w = weights[c * kernel_taps + kh * g.kernel_w + kw];
        if (element_bytes == 1) {
          *at = static_cast<uint8_t>(w);
        } else {
          const int16_t wide = w;
          std::memcpy(at, &wide, 2);
        }
      }
    }
    int64_t weight_sum = 0;
    for (int64_t t = 0; t < kernel_taps; ++t) weight_sum += weights[c * kernel_taps + t];
    // As the igemm's: the staged codes are x (pairs, signed quads) or x + 128 (unsigned quads).
    const int64_t shift = k.format == IgemmFormat::kQuadsU8 ? 128 : 0;
    const int64_t folded = (bias != nullptr ? bias[c] : 0) - (static_cast<int64_t>(zero_point) + shift) * weight_sum;
    (*packed_bias)[static_cast<size_t>(c)] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
  }
}

}  // namespace npurt
