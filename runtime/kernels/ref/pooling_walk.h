// The window walk shared by the float and the int8 pooling kernels: which taps
// of each window lie inside the input, and how many lie inside the padded input.
#pragma once

#include <algorithm>
#include <cstdint>

#include "runtime/kernels/ref/pooling.h"
#include "runtime/kernels/ref/window.h"

namespace npurt {

// One output element's window over a (D, H, W) plane.
struct PoolWindow {
  int64_t start[3];      // input position of tap 0 per dim (may be negative: padding)
  int64_t first[3];      // first tap inside the input per dim
  int64_t taps[3];       // taps inside the input per dim
  int64_t padded_taps;   // taps inside the padded input (never those past the end pad)

  int64_t inside() const { return taps[0] * taps[1] * taps[2]; }
  // The divisor of an average pool.
  int64_t count(bool include_pad) const { return include_pad ? padded_taps : inside(); }
};

// The number of taps j in [0, count) with 0 <= j * step + offset < limit; the first is *lo.
inline int64_t PoolTapRange(int64_t count, int64_t step, int64_t offset, int64_t limit, int64_t* lo) {
  *lo = std::max<int64_t>(0, CeilDiv(-offset, step));
  const int64_t hi = std::min<int64_t>(count, FloorDiv(limit - 1 - offset, step) + 1);
  return hi > *lo ? hi - *lo : 0;
}

// Calls visit(value) for every tap of `w` inside the input plane `in`.
template <typename T, typename Visit>
inline void ForEachPoolTap(const PoolParams& p, const PoolWindow& w, const T* in, Visit&& visit) {
  for (int64_t jd = w.first[0]; jd < w.first[0] + w.taps[0]; ++jd) {
    const int64_t id = w.start[0] + jd * p.dilation[0];
    for (int64_t jh = w.first[1]; jh < w.first[1] + w.taps[1]; ++jh) {
      const T* row = in + (id * p.in[1] + w.start[1] + jh * p.dilation[1]) * p.in[2];
      for (int64_t jw = w.first[2]; jw < w.first[2] + w.taps[2]; ++jw) visit(row[w.start[2] + jw * p.dilation[2]]);
    }
  }
}

// Calls fn(in_plane, window, y) for every output element y, plane by plane in output order.
template <typename T, typename U, typename Fn>
inline void ForEachPoolWindow(const PoolParams& p, const T* input, U* output, Fn&& fn) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  for (int64_t plane = 0; plane < p.planes; ++plane) {
    const T* in = input + plane * in_plane;
    U* out = output + plane * out_plane;
    for (int64_t od = 0; od < p.out[0]; ++od) {
      for (int64_t oh = 0; oh < p.out[1]; ++oh) {
        for (int64_t ow = 0; ow < p.out[2]; ++ow) {
          PoolWindow w;
          const int64_t o[3] = {od, oh, ow};
          w.padded_taps = 1;
          for (int i = 0; i < 3; ++i) {
            w.start[i] = o[i] * p.stride[i] - p.pad_begin[i];
            w.taps[i] = PoolTapRange(p.kernel[i], p.dilation[i], w.start[i], p.in[i], &w.first[i]);
            int64_t unused = 0;
            w.padded_taps *= PoolTapRange(p.kernel[i], p.dilation[i], w.start[i] + p.pad_begin[i],
                                          p.in[i] + p.pad_begin[i] + p.pad_end[i], &unused);
          }
          fn(in, w, out + (od * p.out[1] + oh) * p.out[2] + ow);
        }
      }
    }
  }
}

}  // namespace npurt
