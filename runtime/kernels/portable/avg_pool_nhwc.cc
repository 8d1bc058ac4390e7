#include "runtime/kernels/portable/avg_pool_nhwc.h"

#include "runtime/kernels/ref/pooling.h"

namespace npurt {
namespace {

// Channels are summed in blocks of this many int32 sums (on the stack: the kernel allocates nothing).
constexpr int64_t kChannelBlock = 256;

// Taps j in [0, kernel) with 0 <= start + j * dilation < limit: the count, the first in *first (the window
// walk's PoolTapRange, in one dimension).
inline int64_t TapsInside(int64_t kernel, int64_t dilation, int64_t start, int64_t limit, int64_t* first) {
  int64_t lo = 0;
  if (start < 0) lo = (-start + dilation - 1) / dilation;
  int64_t hi = kernel;
  if (start + (kernel - 1) * dilation >= limit) hi = limit - 1 - start < 0 ? 0 : (limit - 1 - start) / dilation + 1;
  *first = lo;
  return hi > lo ? hi - lo : 0;
}

template <typename T>
void AvgPoolNhwc(const AvgPoolNhwcParams& a, const T* input, T* output, WorkRange rows) {
  const PoolNhwcParams& p = a.window;
  const int64_t c = p.channels, count = p.batch * p.out_h;
  const int64_t first_row = rows.begin < 0 ? 0 : rows.begin > count ? count : rows.begin;
  const int64_t last_row = rows.end < 0 ? 0 : rows.end > count ? count : rows.end;
  int32_t sums[kChannelBlock];
  for (int64_t row = first_row; row < last_row; ++row) {
    const int64_t n = row / p.out_h, oh = row % p.out_h;
    const T* image = input + n * p.in_h * p.in_w * c;
    const int64_t start_h = oh * p.stride_h - p.pad_top;
    int64_t kh0 = 0, unused = 0;
    const int64_t taps_h = TapsInside(p.kernel_h, p.dilation_h, start_h, p.in_h, &kh0);
    const int64_t padded_h =
        TapsInside(p.kernel_h, p.dilation_h, start_h + p.pad_top, p.in_h + p.pad_top + a.pad_bottom, &unused);
    for (int64_t ow = 0; ow < p.out_w; ++ow) {
      const int64_t start_w = ow * p.stride_w - p.pad_left;
      int64_t kw0 = 0;
      const int64_t taps_w = TapsInside(p.kernel_w, p.dilation_w, start_w, p.in_w, &kw0);
      const int64_t padded_w =
          TapsInside(p.kernel_w, p.dilation_w, start_w + p.pad_left, p.in_w + p.pad_left + a.pad_right, &unused);
      const int64_t inside = taps_h * taps_w;
      const int64_t divisor = a.count_include_pad ? padded_h * padded_w : inside;
      // sum(x - zp) = sum(x) - zp * inside: the same integer, the inner loop a plain sum of codes.
      const int32_t offset = a.in_zero_point * static_cast<int32_t>(inside);
      T* y = output + (row * p.out_w + ow) * c;
      for (int64_t c0 = 0; c0 < c; c0 += kChannelBlock) {
        const int64_t block = c - c0 < kChannelBlock ? c - c0 : kChannelBlock;
        for (int64_t i = 0; i < block; ++i) sums[i] = 0;
        for (int64_t jh = kh0; jh < kh0 + taps_h; ++jh) {
          const T* in_row = image + (start_h + jh * p.dilation_h) * p.in_w * c + c0;
          for (int64_t jw = kw0; jw < kw0 + taps_w; ++jw) {
            const T* __restrict x = in_row + (start_w + jw * p.dilation_w) * c;
            for (int64_t i = 0; i < block; ++i) sums[i] += x[i];
          }
        }
        for (int64_t i = 0; i < block; ++i) {
          y[c0 + i] = QuantizePoolMean<T>(static_cast<int64_t>(sums[i]) - offset, divisor, a.in_scale, a.out_scale,
                                          a.out_zero_point);
        }
      }
    }
  }
}

}  // namespace

void s8_avg_pool__nhwc(const AvgPoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows) {
  AvgPoolNhwc(p, input, output, rows);
}

void s16_avg_pool__nhwc(const AvgPoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows) {
  AvgPoolNhwc(p, input, output, rows);
}

}  // namespace npurt
