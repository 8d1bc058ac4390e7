// Conversion between application buffers and model tensors at the I/O
// boundary: element type, layout (NCHW / NHWC / NC1HWC2 with row stride) and,
// for inputs, the mean/std normalization and channel reorder baked in at
// conversion. A 4-D model tensor is NCHW, or NHWC when its Tensor::channels_last
// says so (a model input the layout pass handed to an NHWC kernel).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/model.h"
#include "runtime/core/status.h"
#include "runtime/ops/op.h"

namespace npurt {

// An application buffer and how its contents are laid out.
struct HostBuffer {
  const void* data = nullptr;
  size_t size = 0;
  DataType dtype = DataType::kFloat32;
  Layout fmt = Layout::kNCHW;
  uint32_t w_stride = 0;  // 0: the tensor width
  int c2 = 1;             // for NC1HWC2
};

// Bytes `buffer` must hold for a tensor of `nchw_shape`.
uint64_t HostBufferBytes(const Shape& nchw_shape, const HostBuffer& buffer);

// Writes `src` into the model input tensor `dst`. With `normalize`, applies the
// input record's channel order and (x - mean) / std.
Status ImportInput(const HostBuffer& src, const IoDesc& io, bool normalize, Tensor* dst);

// Writes the model output tensor `src` into `dst` (dst.data is writable).
Status ExportOutput(const Tensor& src, const HostBuffer& dst);

}  // namespace npurt
