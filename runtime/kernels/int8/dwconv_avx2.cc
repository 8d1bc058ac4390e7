// The AVX2 depthwise kernel (compiled -mavx2): per 16 channels and pair of taps, the two taps' int16 rows
// interleaved by vpunpck{l,h}wd and summed against the packed weight pairs by vpmaddwd.
#include <immintrin.h>

#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"

namespace npurt {
namespace {

void DwconvAvx2(const DwconvArgs& a, WorkRange pixels) {
  const int64_t blocks = a.padded_channels / kDwconvChannelBlock;
  const int64_t pairs = (a.taps + 1) / 2;
  for (int64_t p = pixels.begin; p < pixels.end; ++p) {
    const int32_t* offsets = a.offsets + p * pairs * 2;
    float* out = a.out + (p - pixels.begin) * a.channels;
    for (int64_t b = 0; b < blocks; ++b) {
      __m256i acc_lo = _mm256_setzero_si256(), acc_hi = _mm256_setzero_si256();
      const __m256i* w = reinterpret_cast<const __m256i*>(a.weights + b * kDwconvChannelBlock * 2);
      const int64_t at = b * kDwconvChannelBlock * 2;  // bytes into a staged row
      for (int64_t pair = 0; pair < pairs; ++pair) {
        const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.base + offsets[2 * pair] + at));
        const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.base + offsets[2 * pair + 1] + at));
        acc_lo = _mm256_add_epi32(acc_lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), _mm256_loadu_si256(w)));
        acc_hi = _mm256_add_epi32(acc_hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), _mm256_loadu_si256(w + 1)));
        w += blocks * 2;
      }
      // acc_lo holds channels 0-3 | 8-11, acc_hi 4-7 | 12-15: back to channel order, plus the bias.
      const __m256i first = _mm256_permute2x128_si256(acc_lo, acc_hi, 0x20);
      const __m256i second = _mm256_permute2x128_si256(acc_lo, acc_hi, 0x31);
      const int32_t* bias = a.bias + b * kDwconvChannelBlock;
      const __m256i s0 = _mm256_add_epi32(first, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias)));
      const __m256i s1 = _mm256_add_epi32(second, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8)));
      const int64_t c0 = b * kDwconvChannelBlock;
      if (a.out_int32 != nullptr) {
        int32_t* out_int = a.out_int32 + (p - pixels.begin) * a.channels;
        int32_t tail[kDwconvChannelBlock];
        int32_t* to = c0 + kDwconvChannelBlock <= a.channels ? out_int + c0 : tail;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), s0);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 8), s1);
        for (int64_t c = c0; to == tail && c < a.channels; ++c) out_int[c] = tail[c - c0];
        continue;
      }
      const __m256 f0 = _mm256_cvtepi32_ps(s0), f1 = _mm256_cvtepi32_ps(s1);
      if (c0 + kDwconvChannelBlock <= a.channels) {
        _mm256_storeu_ps(out + c0, f0);
        _mm256_storeu_ps(out + c0 + 8, f1);
      } else {
        float tail[kDwconvChannelBlock];
        _mm256_storeu_ps(tail, f0);
        _mm256_storeu_ps(tail + 8, f1);
        for (int64_t c = c0; c < a.channels; ++c) out[c] = tail[c - c0];
      }
    }
  }
}

}  // namespace

const DwconvKernel kDwconvAvx2 = {"s8_dwconv_16c2__avx2", CpuTarget::kAvx2, DwconvAvx2, IgemmStage<IgemmFormat::kPairsS16>,
                                 IgemmStagePadding<IgemmFormat::kPairsS16>};

}  // namespace npurt
