#include "runtime/core/native_layout.h"

namespace npurt {
namespace {

uint32_t AlignUp(int64_t v, int a) { return static_cast<uint32_t>((v + a - 1) / a * a); }

}  // namespace

IoAttr DescribeIo(const ModelGraph& graph, bool is_input, int index, AttrView view) {
  const IoDesc& io = is_input ? graph.inputs[index] : graph.outputs[index];
  const TensorDesc& t = graph.tensors[io.tensor];
  IoAttr a;
  a.n_elems = static_cast<uint64_t>(NumElements(t.shape));
  a.c2 = io.native_c2;
  const bool four_d = t.shape.size() == 4;
  Layout fmt = io.fmt;
  a.dtype = io.dtype;
  if (view != AttrView::kNormal) {
    a.dtype = io.native_dtype;
    fmt = four_d ? (view == AttrView::kNativeNhwc ? Layout::kNHWC : io.native_fmt) : Layout::kUndefined;
  }
  a.fmt = fmt;
  const uint64_t esize = DataTypeSize(a.dtype);
  a.size = a.n_elems * esize;
  a.size_with_stride = a.size;
  if (!four_d) {
    a.dims = t.shape;
    return a;
  }
  const int64_t N = t.shape[0], C = t.shape[1], H = t.shape[2], W = t.shape[3];
  // Native layouts pad rows to the platform's width alignment (inputs and NC1HWC2 outputs).
  const bool padded = view != AttrView::kNormal && (is_input || fmt == Layout::kNC1HWC2);
  a.w_stride = padded ? AlignUp(W, io.native_w_align) : static_cast<uint32_t>(W);
  switch (fmt) {
    case Layout::kNHWC:
      a.dims = {N, H, W, C};
      a.size_with_stride = static_cast<uint64_t>(N * H * C) * a.w_stride * esize;
      break;
    case Layout::kNC1HWC2: {
      const int64_t c1 = (C + a.c2 - 1) / a.c2;
      a.dims = {N, c1, H, W, a.c2};
      a.size_with_stride = static_cast<uint64_t>(N * c1 * H * a.c2) * a.w_stride * esize;
      break;
    }
    default:
      a.dims = t.shape;
      if (!is_input) a.w_stride = 0;  // the vendor reports 0 ("same as width") for NCHW outputs
      break;
  }
  return a;
}

}  // namespace npurt
