// The channels-last MaxPool's loop (max_pool_nhwc.h), included by the files that compile it for their
// CPU: the portable one and kernels/x86/max_pool_nhwc_avx2.cc. Internal linkage, and no call of an inline
// function with external linkage (WorkRange's, std::'s), so no AVX2 copy of one can stand in for another
// file's.
#pragma once

#include <cstdint>
#include <limits>

#include "runtime/kernels/portable/max_pool_nhwc.h"

namespace npurt {
namespace {

// y = max(y, x) per element, the reference's comparison (max < v ? v : max): NaN never wins, of +0 and
// -0 the first stays. N fixed: the block stays in vector registers across the window's taps.
template <typename T, int N>
inline void MaxInto(T (&y)[N], const T* __restrict x) {
  for (int i = 0; i < N; ++i) y[i] = y[i] < x[i] ? x[i] : y[i];
}

// Channels [c0, c0 + N) of one output pixel, its taps in the reference's order.
template <typename T, int N>
inline void MaxPoolBlock(const PoolNhwcParams& p, const T* image, int64_t oh, int64_t ow, int64_t c0, T* y) {
  constexpr T kLowest = std::numeric_limits<T>::lowest();  // a constant: no call
  T acc[N];
  for (int i = 0; i < N; ++i) acc[i] = kLowest;
  for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
    const int64_t ih = oh * p.stride_h - p.pad_top + kh * p.dilation_h;
    if (ih < 0 || ih >= p.in_h) continue;
    for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
      const int64_t iw = ow * p.stride_w - p.pad_left + kw * p.dilation_w;
      if (iw < 0 || iw >= p.in_w) continue;
      MaxInto(acc, image + (ih * p.in_w + iw) * p.channels + c0);
    }
  }
  for (int i = 0; i < N; ++i) y[i] = acc[i];
}

// Blocks of 128 bytes of channels, then the tail in blocks of 64 and 16 bytes and single channels.
template <typename T>
void MaxPoolNhwc(const PoolNhwcParams& p, const T* input, T* output, WorkRange rows) {
  constexpr int kBlock = 128 / sizeof(T), kMid = 64 / sizeof(T), kSmall = 16 / sizeof(T);
  const int64_t c = p.channels, count = p.batch * p.out_h;
  const int64_t first = rows.begin < 0 ? 0 : rows.begin > count ? count : rows.begin;
  const int64_t last = rows.end < 0 ? 0 : rows.end > count ? count : rows.end;
  for (int64_t row = first; row < last; ++row) {
    const int64_t n = row / p.out_h, oh = row % p.out_h;
    const T* image = input + n * p.in_h * p.in_w * c;
    for (int64_t ow = 0; ow < p.out_w; ++ow) {
      T* y = output + (row * p.out_w + ow) * c;
      int64_t c0 = 0;
      for (; c0 + kBlock <= c; c0 += kBlock) MaxPoolBlock<T, kBlock>(p, image, oh, ow, c0, y + c0);
      for (; c0 + kMid <= c; c0 += kMid) MaxPoolBlock<T, kMid>(p, image, oh, ow, c0, y + c0);
      for (; c0 + kSmall <= c; c0 += kSmall) MaxPoolBlock<T, kSmall>(p, image, oh, ow, c0, y + c0);
      for (; c0 < c; ++c0) MaxPoolBlock<T, 1>(p, image, oh, ow, c0, y + c0);
    }
  }
}

}  // namespace
}  // namespace npurt
