// The window geometry of a Conv or ConvTranspose node, computed exactly as the
// op's prepare does (strides, dilations, pads or auto_pad, output_shape), for
// tools that walk a convolution's windows outside the kernels (the compiler's
// weight rounding).
#pragma once

#include "runtime/core/attributes.h"
#include "runtime/core/status.h"
#include "runtime/kernels/ref/conv.h"
#include "runtime/kernels/ref/conv_transpose.h"
#include "runtime/ops/op.h"

namespace npurt {

// x: the Conv's input, w: its weight. Errors as the op's own (kModelInvalid, naming the problem).
Status ConvGeometry(const Attributes& attrs, const Tensor* x, const Tensor* w, ConvParams* params);
Status ConvTransposeGeometry(const Attributes& attrs, const Tensor* x, const Tensor* w, ConvTransposeParams* params);

}  // namespace npurt
