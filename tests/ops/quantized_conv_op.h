// A quantized convolution case of the kernel harness run through the Conv op (its graph attributes,
// quantization and optional residual), for the tests of the op's kernel paths.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace testing {

// Runs case `c` through the Conv op; `kernel` receives the kernel the op chose. `residual_last`, `io_last`:
// the residual, the input and output channels-last (the layout pass's choice next to NHWC kernels; optimized
// kernels only).
inline std::vector<uint8_t> RunConvOp(const ConvCase& c, std::string* kernel, bool residual_last = false,
                                      bool io_last = false, int threads = 1) {
  const ConvParams& p = c.p;
  OpRunner op("Conv");
  op.set_threads(threads);
  op.attrs().SetInt("group", p.groups);
  op.attrs().SetInts("strides", {p.stride[1], p.stride[2]});
  op.attrs().SetInts("dilations", {p.dilation[1], p.dilation[2]});
  const int64_t eh = (p.kernel[1] - 1) * p.dilation[1] + 1, ew = (p.kernel[2] - 1) * p.dilation[2] + 1;
  // The least end pads that give the case's output size (floor division drops what is left over).
  const int64_t pad_bottom = std::max<int64_t>(0, (p.out[1] - 1) * p.stride[1] + eh - p.in[1] - p.pad_begin[1]);
  const int64_t pad_right = std::max<int64_t>(0, (p.out[2] - 1) * p.stride[2] + ew - p.in[2] - p.pad_begin[2]);
  op.attrs().SetInts("pads", {p.pad_begin[1], p.pad_begin[2], pad_bottom, pad_right});
  if (p.activation.kind == FusedActivation::kRelu) op.attrs().SetString("activation", "Relu");
  if (p.activation.kind == FusedActivation::kHardSwish) op.attrs().SetString("activation", "HardSwish");
  if (p.activation.kind == FusedActivation::kClip) {
    op.attrs().SetString("activation", "Clip");
    op.attrs().SetFloats("activation_params", {p.activation.a, p.activation.b});
  }
  if (p.activation.scale != nullptr) {
    const float* scale = p.activation.scale;
    const float* shift = p.activation.shift;
    op.attrs().SetFloats("activation_scale", std::vector<float>(scale, scale + p.out_channels));
    op.attrs().SetFloats("activation_shift", std::vector<float>(shift, shift + p.out_channels));
  }
  if (c.out_type != c.in_type) op.attrs().SetString("output_type", c.out_type == DataType::kInt16 ? "INT16" : "INT8");
  const Shape x_shape{p.batch, p.in_channels, p.in[1], p.in[2]};
  if (c.in_type == DataType::kInt16) {
    std::vector<int16_t> x(c.input.size() / 2);
    std::memcpy(x.data(), c.input.data(), c.input.size());
    op.AddInput<int16_t>(x_shape, x, DataType::kInt16);
  } else {
    op.AddInput<int8_t>(x_shape, std::vector<int8_t>(c.input.begin(), c.input.end()), DataType::kInt8);
  }
  const float x_scale = 0.01f;  // any: the op only sees acc_scale = x scale * w scale
  op.SetInputQuant(0, PerTensor(x_scale, c.q.input_zero_point));
  op.AddInput<int8_t>({p.out_channels, p.in_channels / p.groups, p.kernel[1], p.kernel[2]}, c.weights, DataType::kInt8,
                      true);
  std::vector<float> w_scales;
  for (float s : c.q.acc_scale) w_scales.push_back(s / x_scale);
  op.SetInputQuant(1, accumulating::PerAxis(w_scales, 0));
  if (!c.bias.empty()) op.AddInput<int32_t>({p.out_channels}, c.bias, DataType::kInt32, true);
  if (!c.residual.empty()) {
    if (c.bias.empty()) op.AddAbsentInput();
    op.AddInput<uint8_t>({p.batch, p.out_channels, p.out[1], p.out[2]}, c.residual, c.residual_quant.type);
    op.SetInputQuant(3, PerTensor(c.residual_quant.scale, c.residual_quant.zero_point));
  }
  if (residual_last || io_last) op.SetChannelsLast({io_last, false, false, residual_last}, io_last);
  op.SetOutputQuant(0, PerTensor(c.q.output_scale, c.q.output_zero_point));
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << c.name << ": " << s.message();
  *kernel = op.node().kernel;
  const Tensor& y = op.output();
  const uint8_t* bytes = y.as<uint8_t>();
  return std::vector<uint8_t>(bytes, bytes + y.bytes);
}

}  // namespace testing
}  // namespace npurt
