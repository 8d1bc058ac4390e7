// Transposed convolution (the gradient of Conv with respect to its input), NCHW.
// Like f32_conv__ref, 1-D and 2-D run as 3-D with unit leading spatial dims.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/conv.h"  // ConvQuantParams
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

struct ConvTransposeParams {
  int64_t batch = 1;
  int64_t in_channels = 1;   // C
  int64_t out_channels = 1;  // M = weights dim 1 * groups
  int64_t groups = 1;
  int64_t in[3] = {1, 1, 1};   // input D, H, W
  int64_t out[3] = {1, 1, 1};  // output D, H, W (output_padding and output_shape already applied)
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
  // The compiler's fused activation (kernels/ref/fused_activation.h; no affine): applied to each output
  // after the bias, as Conv's.
  FusedActivationParams activation;
};

// input (N, C, D, H, W); weights (C, M / groups, kD, kH, kW); bias (M) or nullptr;
// output (N, M, oD, oH, oW): out[o] = bias + sum of in[i] * w[k] over o = i * stride + k * dilation - pad_begin.
// `range` selects output channels (all by default), here and in the quantized kernel.
void f32_conv_transpose__ref(const ConvTransposeParams& p, const float* input, const float* weights,
                             const float* bias, float* output, WorkRange range = {});

// Quantized: int8 or int16 activations (input and output types chosen
// independently, as quantized_conv__ref), int8 symmetric weights, int32 bias
// (M) or nullptr; layouts as f32_conv_transpose__ref, quantization as
// s8_conv__ref (acc_scale per output channel m; the fused activation on the
// real value). Output pixel o of channel m accumulates bias[m] + sum((x[i] -
// input_zero_point) * w[k]) over the taps with o = i * stride + k * dilation -
// pad_begin, in int32 for int8 inputs (the caller guarantees no overflow: the
// ConvTranspose op checks the bound in prepare) and in int64 for int16 inputs;
// q.output_min/max must be the output type's range.
void quantized_conv_transpose__ref(const ConvTransposeParams& p, const ConvQuantParams& q, DataType input_type,
                                   const void* input, const int8_t* weights, const int32_t* bias, DataType output_type,
                                   void* output, WorkRange range = {});

}  // namespace npurt
