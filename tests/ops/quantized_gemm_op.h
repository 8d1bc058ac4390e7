// A quantized Gemm case of the kernel harness run through the Gemm op, for the tests of the op's kernel
// paths.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace testing {

// Runs case `c` through the Gemm op; `kernel` receives the kernel the op chose.
inline std::vector<uint8_t> RunGemmOp(const GemmCase& c, std::string* kernel) {
  const GemmParams& p = c.p;
  OpRunner op("Gemm");
  if (p.trans_b) op.attrs().SetInt("transB", 1);
  if (p.activation.kind == FusedActivation::kRelu) op.attrs().SetString("activation", "Relu");
  if (p.activation.kind == FusedActivation::kHardSwish) op.attrs().SetString("activation", "HardSwish");
  if (c.out_type != c.a_type) op.attrs().SetString("output_type", c.out_type == DataType::kInt16 ? "INT16" : "INT8");
  if (c.a_type == DataType::kInt16) {
    std::vector<int16_t> a(c.a.size() / 2);
    std::memcpy(a.data(), c.a.data(), c.a.size());
    op.AddInput<int16_t>({p.m, p.k}, a, DataType::kInt16);
  } else {
    op.AddInput<int8_t>({p.m, p.k}, std::vector<int8_t>(c.a.begin(), c.a.end()), DataType::kInt8);
  }
  const float a_scale = 0.01f;  // any: the op only sees acc_scale = a scale * b scale
  op.SetInputQuant(0, PerTensor(a_scale, c.q.a_zero_point));
  op.AddInput<int8_t>(p.trans_b ? Shape{p.n, p.k} : Shape{p.k, p.n}, c.b, DataType::kInt8, true);
  std::vector<float> b_scales;
  for (float s : c.q.acc_scale) b_scales.push_back(s / a_scale);
  op.SetInputQuant(1, accumulating::PerAxis(b_scales, p.trans_b ? 0 : 1));
  if (!c.bias.empty()) op.AddInput<int32_t>({p.n}, c.bias, DataType::kInt32, true);
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
