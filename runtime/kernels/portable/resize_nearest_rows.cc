#include "runtime/kernels/portable/resize_nearest_rows.h"

#include <cstring>

namespace npurt {

namespace {

template <typename T, typename Map>
void NearestRows(const ResizeParams& p, const T* input, T* output, WorkRange range, Map map) {
  const int last = p.rank - 1;
  const int64_t width = p.out_shape[last];
  const int64_t* column = p.index0[last];
  const int64_t column_stride = p.in_strides[last];
  const int64_t rows = ResizeOutputRows(p);
  // A row read whole (the channels of a channels-last pixel): a contiguous map instead of a gather.
  bool contiguous = column_stride == 1;
  for (int64_t i = 0; contiguous && i < width; ++i) contiguous = column[i] == i;
  int64_t previous_base = -1;
  for (int64_t r = range.Begin(rows), end = range.End(rows); r < end; ++r) {
    int64_t base = 0;
    for (int64_t d = last - 1, rest = r; d >= 0; --d) {
      base += p.index0[d][rest % p.out_shape[d]] * p.in_strides[d];
      rest /= p.out_shape[d];
    }
    T* out = output + r * width;
    if (base == previous_base) {
      std::memcpy(out, out - width, static_cast<size_t>(width) * sizeof(T));
      continue;
    }
    const T* in = input + base;
    if (contiguous) {
      for (int64_t i = 0; i < width; ++i) out[i] = map(in[i]);
    } else {
      for (int64_t i = 0; i < width; ++i) out[i] = map(in[column[i] * column_stride]);
    }
    previous_base = base;
  }
}

}  // namespace

int64_t ResizeOutputRows(const ResizeParams& p) {
  int64_t rows = 1;
  for (int d = 0; d + 1 < p.rank; ++d) rows *= p.out_shape[d];
  return rows;
}

void s8_resize_nearest__rows(const ResizeParams& p, const int8_t* requantize, const int8_t* input, int8_t* output,
                             WorkRange rows) {
  if (requantize == nullptr) {
    NearestRows(p, input, output, rows, [](int8_t v) { return v; });
  } else {
    NearestRows(p, input, output, rows, [requantize](int8_t v) { return requantize[v + 128]; });
  }
}

void f32_resize_nearest__rows(const ResizeParams& p, const float* input, float* output, WorkRange rows) {
  NearestRows(p, input, output, rows, [](float v) { return v; });
}

void s16_resize_nearest__rows(const ResizeParams& p, const int16_t* input, int16_t* output, WorkRange rows) {
  NearestRows(p, input, output, rows, [](int16_t v) { return v; });
}

void BuildResizeRequantizeTable(const S8ResizeParams& q, int8_t* table) {
  // A 1-D identity "resize" of all 256 codes through the reference kernel.
  int64_t out_shape = 256, stride = 1;
  int64_t identity[256];
  int8_t codes[256];
  for (int i = 0; i < 256; ++i) identity[i] = i, codes[i] = static_cast<int8_t>(i - 128);
  const int64_t* index0[1] = {identity};
  S8ResizeParams one = q;
  one.resize.rank = 1;
  one.resize.out_shape = &out_shape;
  one.resize.in_strides = &stride;
  one.resize.index0 = index0;
  s8_resize_nearest__ref(one, codes, table);
}

}  // namespace npurt
