// Direct convolution, NCHW. 1-D and 2-D convolutions run as 3-D (D, H, W) with
// unit leading spatial dims, so one kernel covers every spatial rank.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/work_range.h"

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

// A Conv's residual input (the compiler's fused Add, compiler/passes/fuse_residual_add.cc): a tensor of
// the output's shape and layout whose real value joins each output before the activation,
//   y = act(conv + bias + residual) [* scale + shift].
// Float convolutions: float32 values. Quantized ones: int8 or int16 codes of any per-tensor scale and
// zero point, whose real value (code - zero_point) * scale joins the accumulator's real value.
struct ConvResidual {
  const void* data = nullptr;
  DataType type = DataType::kFloat32;
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// A quantized residual's element i as a real value, (code - zero_point) * scale.
inline float QuantizedResidualValue(const ConvResidual& r, int64_t i) {
  const int32_t code = r.type == DataType::kInt16 ? static_cast<const int16_t*>(r.data)[i]
                                                  : static_cast<const int8_t*>(r.data)[i];
  return DequantizeValue(code, r.scale, r.zero_point);
}

// input (N, C, D, H, W); weights (M, C / groups, kD, kH, kW); bias (M) or nullptr;
// output (N, M, oD, oH, oW); `residual` float or nullptr.
// `range` selects output channels (all by default).
void f32_conv__ref(const ConvParams& p, const float* input, const float* weights, const float* bias,
                   float* output, WorkRange range = {}, const ConvResidual* residual = nullptr);

// Quantization of an integer convolution (arithmetic in runtime/kernels/ref/quantize.h).
// Output channel m accumulates, in int32,
//   acc = bias[m] + sum((x - input_zero_point) * w)
// over its valid taps (padding reads as input_zero_point, i.e. real 0, so it adds
// nothing); acc's real value is acc * acc_scale[m], and the output is
//   Requantize(acc, acc_scale[m], activation, output_scale, output_zero_point, output_min, output_max),
// a residual's real value added to acc * acc_scale[m] first when there is one.
// Weights are symmetric (zero point 0). ConvTranspose uses the same struct.
struct ConvQuantParams {
  int32_t input_zero_point = 0;
  std::vector<float> acc_scale;  // one per output channel: input scale * that channel's weight scale
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t output_min = -128;  // the output type's range
  int32_t output_max = 127;
};

// int8 activations, int8 weights, int32 bias (M) or nullptr; layouts as f32_conv__ref,
// fused activation from p.activation. The caller guarantees that no accumulator
// can leave the int32 range (the Conv op checks that bound in prepare).
void s8_conv__ref(const ConvParams& p, const ConvQuantParams& q, const int8_t* input, const int8_t* weights,
                  const int32_t* bias, int8_t* output);

// The same with int8 or int16 activations, input and output types chosen
// independently (the hybrid scheme: a layer with int8 inputs can write an
// int16 tensor). int16 inputs accumulate in int64, so only int8 inputs carry
// the int32 bound above; q.output_min/max must be the output type's range.
void quantized_conv__ref(const ConvParams& p, const ConvQuantParams& q, DataType input_type, const void* input,
                         const int8_t* weights, const int32_t* bias, DataType output_type, void* output,
                         WorkRange range = {}, const ConvResidual* residual = nullptr);

}  // namespace npurt
