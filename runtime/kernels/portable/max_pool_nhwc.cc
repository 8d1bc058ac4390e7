#include "runtime/kernels/portable/max_pool_nhwc.h"

#include <algorithm>
#include <limits>

namespace npurt {

namespace {

// y = max(y, x) per channel, the reference's comparison; restrict lets the compiler vectorize.
template <typename T>
void MaxInto(T* __restrict y, const T* __restrict x, int64_t channels) {
  for (int64_t c = 0; c < channels; ++c) y[c] = y[c] < x[c] ? x[c] : y[c];
}

template <typename T>
void MaxPool(const MaxPoolNhwcParams& p, const T* input, T* output, WorkRange rows) {
  const int64_t c = p.channels;
  for (int64_t row = rows.Begin(p.batch * p.out_h), end = rows.End(p.batch * p.out_h); row < end; ++row) {
    const int64_t n = row / p.out_h, oh = row % p.out_h;
    const T* image = input + n * p.in_h * p.in_w * c;
    for (int64_t ow = 0; ow < p.out_w; ++ow) {
      T* y = output + (row * p.out_w + ow) * c;
      std::fill(y, y + c, std::numeric_limits<T>::lowest());
      for (int64_t kh = 0; kh < p.kernel_h; ++kh) {
        const int64_t ih = oh * p.stride_h - p.pad_top + kh * p.dilation_h;
        if (ih < 0 || ih >= p.in_h) continue;
        for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
          const int64_t iw = ow * p.stride_w - p.pad_left + kw * p.dilation_w;
          if (iw < 0 || iw >= p.in_w) continue;
          MaxInto(y, image + (ih * p.in_w + iw) * c, c);
        }
      }
    }
  }
}

}  // namespace

void f32_max_pool__nhwc(const MaxPoolNhwcParams& p, const float* input, float* output, WorkRange rows) {
  MaxPool(p, input, output, rows);
}

void s8_max_pool__nhwc(const MaxPoolNhwcParams& p, const int8_t* input, int8_t* output, WorkRange rows) {
  MaxPool(p, input, output, rows);
}

void s16_max_pool__nhwc(const MaxPoolNhwcParams& p, const int16_t* input, int16_t* output, WorkRange rows) {
  MaxPool(p, input, output, rows);
}

}  // namespace npurt
