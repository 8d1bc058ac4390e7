// Direct convolution, NCHW. 1-D and 2-D convolutions run as 3-D (D, H, W) with
// unit leading spatial dims, so one kernel covers every spatial rank.
#pragma once

#include <cstdint>

#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

struct ConvParams {
  int64_t batch = 1;
  int64_t in_channels = 1;   // C
  int64_t out_channels = 1;  // M
  int64_t groups = 1;
  int64_t in[3] = {1, 1, 1};   // input D, H, W
  int64_t out[3] = {1, 1, 1};  // output D, H, W
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};  // the end pads only shape the output size
  FusedActivationParams activation;
};

// input (N, C, D, H, W); weights (M, C / groups, kD, kH, kW); bias (M) or nullptr;
// output (N, M, oD, oH, oW).
void f32_conv__ref(const ConvParams& p, const float* input, const float* weights, const float* bias,
                   float* output);

}  // namespace npurt
