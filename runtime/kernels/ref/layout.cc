#include "runtime/kernels/ref/layout.h"

#include <algorithm>
#include <cstring>

namespace npurt {

namespace {

// dst[j * rows + i] = src[i * cols + j] over i in [0, rows), j in [col_begin, col_end):
// one image of NCHW -> NHWC has rows = C, cols = HW; the inverse swaps them.
template <typename T>
void TransposeTiled(const T* src, T* dst, int64_t rows, int64_t cols, int64_t col_begin, int64_t col_end,
                    bool split_rows) {
  constexpr int64_t kTile = 32;
  // The range splits the NCHW side's spatial positions: columns going to NHWC, rows coming back.
  const int64_t r0 = split_rows ? col_begin : 0, r1 = split_rows ? col_end : rows;
  const int64_t c0 = split_rows ? 0 : col_begin, c1 = split_rows ? cols : col_end;
  for (int64_t ib = r0; ib < r1; ib += kTile) {
    const int64_t ie = std::min(ib + kTile, r1);
    for (int64_t jb = c0; jb < c1; jb += kTile) {
      const int64_t je = std::min(jb + kTile, c1);
      for (int64_t i = ib; i < ie; ++i) {
        for (int64_t j = jb; j < je; ++j) dst[j * rows + i] = src[i * cols + j];
      }
    }
  }
}

template <typename T>
void Relayout(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, WorkRange range,
              bool to_nhwc) {
  const int64_t total = batch * spatial;
  const int64_t begin = range.Begin(total), end = range.End(total);
  const auto* s = static_cast<const T*>(src);
  auto* d = static_cast<T*>(dst);
  for (int64_t n = begin / std::max<int64_t>(spatial, 1); n < batch && n * spatial < end; ++n) {
    const int64_t lo = std::max(begin - n * spatial, int64_t{0}), hi = std::min(end - n * spatial, spatial);
    const T* si = s + n * channels * spatial;
    T* di = d + n * channels * spatial;
    if (to_nhwc) {
      TransposeTiled(si, di, channels, spatial, lo, hi, false);
    } else {
      TransposeTiled(si, di, spatial, channels, lo, hi, true);
    }
  }
}

void Dispatch(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, size_t elem,
              WorkRange range, bool to_nhwc) {
  switch (elem) {
    case 1: Relayout<uint8_t>(src, dst, batch, channels, spatial, range, to_nhwc); break;
    case 2: Relayout<uint16_t>(src, dst, batch, channels, spatial, range, to_nhwc); break;
    default: Relayout<uint32_t>(src, dst, batch, channels, spatial, range, to_nhwc); break;
  }
}

template <typename T>
void SubsampleNchw(const T* src, T* dst, const SubsampleGeometry& g, int64_t begin, int64_t end) {
  for (int64_t row = begin; row < end; ++row) {
    const int64_t n = row / g.out_h, y = row % g.out_h;
    const T* image = src + n * g.channels * g.in_h * g.in_w + y * g.stride_h * g.in_w;
    T* out = dst + row * g.out_w * g.channels;
    for (int64_t x = 0; x < g.out_w; ++x) {
      for (int64_t c = 0; c < g.channels; ++c) out[x * g.channels + c] = image[c * g.in_h * g.in_w + x * g.stride_w];
    }
  }
}

}  // namespace

void subsample_to_nhwc(const void* src, bool src_channels_last, void* dst, const SubsampleGeometry& g, size_t elem,
                       WorkRange range) {
  const int64_t rows = g.batch * g.out_h;
  const int64_t begin = range.Begin(rows), end = range.End(rows);
  if (!src_channels_last) {
    switch (elem) {
      case 1: SubsampleNchw(static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), g, begin, end); break;
      case 2: SubsampleNchw(static_cast<const uint16_t*>(src), static_cast<uint16_t*>(dst), g, begin, end); break;
      default: SubsampleNchw(static_cast<const uint32_t*>(src), static_cast<uint32_t*>(dst), g, begin, end); break;
    }
    return;
  }
  const size_t pixel_bytes = static_cast<size_t>(g.channels) * elem;
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  for (int64_t row = begin; row < end; ++row) {
    const int64_t n = row / g.out_h, y = row % g.out_h;
    const uint8_t* in_row = s + static_cast<size_t>((n * g.in_h + y * g.stride_h) * g.in_w) * pixel_bytes;
    uint8_t* out_row = d + static_cast<size_t>(row * g.out_w) * pixel_bytes;
    for (int64_t x = 0; x < g.out_w; ++x) {
      std::memcpy(out_row + static_cast<size_t>(x) * pixel_bytes,
                  in_row + static_cast<size_t>(x * g.stride_w) * pixel_bytes, pixel_bytes);
    }
  }
}

void nchw_to_nhwc(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, size_t elem,
                  WorkRange range) {
  Dispatch(src, dst, batch, channels, spatial, elem, range, true);
}

void nhwc_to_nchw(const void* src, void* dst, int64_t batch, int64_t channels, int64_t spatial, size_t elem,
                  WorkRange range) {
  Dispatch(src, dst, batch, channels, spatial, elem, range, false);
}

}  // namespace npurt
