// What an application sees of a model input or output: the layouts that
// rknn_query reports (normal, native NC1HWC2, native NHWC) with their dims,
// strides and byte sizes. The model records the choices (layout, C2, width
// alignment per target platform); this file derives the numbers from them.
#pragma once

#include <cstdint>

#include "runtime/core/model.h"

namespace npurt {

enum class AttrView { kNormal, kNative, kNativeNhwc };

struct IoAttr {
  Shape dims;            // in the order of `fmt`
  Layout fmt = Layout::kUndefined;
  DataType dtype = DataType::kFloat32;
  uint32_t w_stride = 0;  // pixels per stored row; 0 when the tensor has no width
  uint64_t n_elems = 0;
  uint64_t size = 0;              // bytes without row padding
  uint64_t size_with_stride = 0;  // bytes with row padding
  int c2 = 1;                     // channel block for NC1HWC2
};

IoAttr DescribeIo(const ModelGraph& graph, bool is_input, int index, AttrView view);
// The model's first graph (a dynamic-shape model's largest shape set).
inline IoAttr DescribeIo(const Model& model, bool is_input, int index, AttrView view) {
  return DescribeIo(model.graph(), is_input, index, view);
}

// Byte offset of element (n, c, h, w) of a 4-D NCHW tensor stored in `fmt`
// with row stride `w_stride` and channel block `c2`.
inline uint64_t Offset4d(Layout fmt, const Shape& nchw, uint32_t w_stride, int c2, int64_t n, int64_t c, int64_t h,
                         int64_t w) {
  const int64_t C = nchw[1], H = nchw[2];
  switch (fmt) {
    case Layout::kNHWC: return static_cast<uint64_t>(((n * H + h) * w_stride + w) * C + c);
    case Layout::kNC1HWC2: {
      const int64_t c1 = (C + c2 - 1) / c2;
      return static_cast<uint64_t>((((n * c1 + c / c2) * H + h) * w_stride + w) * c2 + c % c2);
    }
    default: return static_cast<uint64_t>(((n * C + c) * H + h) * w_stride + w);
  }
}

}  // namespace npurt
