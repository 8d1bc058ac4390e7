// Int8 ConvTranspose (contract in runtime/kernels/ref/quantize.h): hand-computed
// cases, an oracle test against the float ConvTranspose on dequantized inputs,
// and the error paths of the int8 checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;
using namespace testing::accumulating;  // PerAxis, Dequantize, OutputQuantFor, MatchCount, ...

// ---------------------------------------------------------------- hand-computed

TEST(ConvTransposeInt8, Stride2Hand1dRoundsHalfToEven) {
  OpRunner op("ConvTranspose");
  op.attrs().SetInts("strides", {2});
  // x: scale 1, zero point 1: q 1 2 3 -> real 0 1 2.
  op.AddInput<int8_t>({1, 1, 3}, {1, 2, 3}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, 1));
  // w: q 1 3, scale 0.5 (real 0.5 1.5); acc scale 1 x 0.5 = 0.5.
  op.AddInput<int8_t>({1, 1, 2}, {1, 3}, DataType::kInt8, true);
  op.SetInputQuant(1, PerTensor(0.5f));
  op.AddInput<int32_t>({1}, {2}, DataType::kInt32, true);
  op.SetOutputQuant(0, PerTensor(1.0f, 0));
  ASSERT_TRUE(op.Run().ok());
  // Output length (3 - 1) * 2 + 2 = 6; o = 2 i + k:
  //   acc = 2 + (x - 1) * w: o0 2 + 0*1 = 2, o1 2 + 0*3 = 2, o2 2 + 1*1 = 3, o3 2 + 1*3 = 5, o4 2 + 2*1 = 4,
  //   o5 2 + 2*3 = 8; real acc * 0.5 = 1 1 1.5 2.5 2 4 -> half to even 1 1 2 2 2 4.
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 6}));
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{1, 1, 2, 2, 2, 4}));
}

TEST(ConvTransposeInt8, GroupedPerChannelScalesFollowTheOutputChannel) {
  // C = 2 in 2 groups, M/g = 2 so M = 4; 1x1 kernels, all weights 1. x q 10 (zero point 0, scale 1).
  // With M = 4 scales along axis 1, channel j of group g uses scale g * 2 + j: outputs 10 * s.
  OpRunner op("ConvTranspose");
  op.attrs().SetInt("group", 2);
  op.AddInput<int8_t>({1, 2, 1}, {10, 10}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f));
  op.AddInput<int8_t>({2, 2, 1}, {1, 1, 1, 1}, DataType::kInt8, true);
  op.SetInputQuant(1, PerAxis({0.1f, 0.2f, 0.3f, 0.4f}, 1));
  op.SetOutputQuant(0, PerTensor(1.0f));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{1, 2, 3, 4}));

  // With M/g = 2 scales along axis 1 (ONNX per-axis), both groups share them.
  OpRunner shared("ConvTranspose");
  shared.attrs().SetInt("group", 2);
  shared.AddInput<int8_t>({1, 2, 1}, {10, 10}, DataType::kInt8);
  shared.SetInputQuant(0, PerTensor(1.0f));
  shared.AddInput<int8_t>({2, 2, 1}, {1, 1, 1, 1}, DataType::kInt8, true);
  shared.SetInputQuant(1, PerAxis({0.1f, 0.2f}, 1));
  shared.SetOutputQuant(0, PerTensor(1.0f));
  ASSERT_TRUE(shared.Run().ok());
  EXPECT_EQ(shared.OutputValues<int8_t>(), (std::vector<int8_t>{1, 2, 1, 2}));
}

// ---------------------------------------------------------------- oracle

struct ConvTransposeCase {
  Attributes attrs;
  Shape xs, ws;
  int64_t group = 1;
  std::vector<int8_t> x, w;
  QuantInfo xq, wq;
  std::vector<int32_t> bias;  // empty: no bias
  std::string text;
};

// The weight scale of output channel m (per tensor, M/g or M scales along axis 1).
float WeightScale(const ConvTransposeCase& c, int64_t m) {
  const int64_t group_out = c.ws[1];
  if (c.wq.per_tensor()) return c.wq.scale[0];
  if (static_cast<int64_t>(c.wq.scale.size()) == group_out) return c.wq.scale[static_cast<size_t>(m % group_out)];
  return c.wq.scale[static_cast<size_t>(m)];
}

ConvTransposeCase RandomCase(std::mt19937& rng) {
  ConvTransposeCase c;
  const int spatial = Uniform(rng, 1, 3);
  c.group = Uniform(rng, 0, 2) == 0 ? Uniform(rng, 2, 3) : 1;
  const int64_t channels = c.group * Uniform(rng, 1, 4);
  const int64_t group_out = Uniform(rng, 1, 4);
  c.xs = {Uniform(rng, 1, 2), channels};
  c.ws = {channels, group_out};
  std::vector<int64_t> strides, dilations, pads, output_padding, output_shape;
  std::vector<int64_t> pads_end;
  for (int i = 0; i < spatial; ++i) {
    const int64_t in = spatial == 1 ? Uniform(rng, 1, 12) : spatial == 2 ? Uniform(rng, 1, 7) : Uniform(rng, 1, 4);
    const int64_t k = spatial == 3 ? Uniform(rng, 1, 2) : Uniform(rng, 1, 4);
    const int64_t s = Uniform(rng, 1, 3), d = Uniform(rng, 1, 2);
    c.xs.push_back(in);
    c.ws.push_back(k);
    strides.push_back(s);
    dilations.push_back(d);
    pads.push_back(Uniform(rng, 0, 2));
    pads_end.push_back(Uniform(rng, 0, 2));
    output_padding.push_back(Uniform(rng, 0, static_cast<int>(std::max(s, d)) - 1));
    const int64_t full = (in - 1) * s + output_padding.back() + (k - 1) * d + 1;
    output_shape.push_back(std::max<int64_t>(1, full + Uniform(rng, -2, 1)));
  }
  pads.insert(pads.end(), pads_end.begin(), pads_end.end());
  c.attrs.SetInt("group", c.group);
  c.attrs.SetInts("strides", strides);
  c.attrs.SetInts("dilations", dilations);
  c.attrs.SetInts("output_padding", output_padding);
  const int mode = Uniform(rng, 0, 5);  // 0-2 pads, 3 output_shape, 4 SAME_UPPER / SAME_LOWER, 5 VALID
  c.text = "x " + ShapeToString(c.xs) + " w " + ShapeToString(c.ws) + " group " + std::to_string(c.group);
  if (mode <= 2) {
    c.attrs.SetInts("pads", pads);
    c.text += " pads";
  } else if (mode == 3) {
    c.attrs.SetInts("output_shape", output_shape);
    c.text += " output_shape";
  } else if (mode == 4) {
    const char* auto_pad = Uniform(rng, 0, 1) == 0 ? "SAME_UPPER" : "SAME_LOWER";
    c.attrs.SetString("auto_pad", auto_pad);
    c.text += std::string(" ") + auto_pad;
  } else {
    c.attrs.SetString("auto_pad", "VALID");
    c.text += " VALID";
  }

  c.x = RandomInt8(rng, NumElements(c.xs));
  c.xq = PerTensor(0.001f * Uniform(rng, 10, 100), RandomZeroPoint(rng));
  c.w = RandomInt8(rng, NumElements(c.ws));
  const int64_t maps = c.group * group_out;
  const int weight_mode = Uniform(rng, 0, 2);  // per tensor, M/g scales, M scales
  if (weight_mode == 0) {
    c.wq = PerTensor(0.001f * Uniform(rng, 2, 20));
    c.text += " per-tensor";
  } else {
    std::vector<float> scales(static_cast<size_t>(weight_mode == 1 ? group_out : maps));
    for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
    c.wq = PerAxis(scales, 1);
    c.text += " " + std::to_string(scales.size()) + " scales";
  }
  if (Uniform(rng, 0, 9) < 7) {
    c.bias.resize(static_cast<size_t>(maps));
    for (int32_t& b : c.bias) b = Uniform(rng, -30000, 30000);
  }
  c.text += " zp_x " + std::to_string(c.xq.zero_point[0]);
  return c;
}

// The float ConvTranspose on the dequantized inputs; false when the float op rejects the geometry.
bool RunFloatOracle(const ConvTransposeCase& c, std::vector<float>* real, Shape* ys) {
  std::vector<float> x(c.x.size()), w(c.w.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = DequantizeValue(c.x[i], c.xq.scale[0], c.xq.zero_point[0]);
  const int64_t group_in = c.ws[0] / c.group, group_out = c.ws[1];
  const int64_t taps = NumElements(c.ws) / (c.ws[0] * c.ws[1]);
  for (size_t i = 0; i < w.size(); ++i) {
    // Element (ic, j, tap) belongs to output channel (ic / group_in) * group_out + j.
    const int64_t ic = static_cast<int64_t>(i) / (group_out * taps), j = (static_cast<int64_t>(i) / taps) % group_out;
    w[i] = DequantizeValue(c.w[i], WeightScale(c, (ic / group_in) * group_out + j), 0);
  }
  OpRunner op("ConvTranspose");
  op.attrs() = c.attrs;
  op.AddFloatInput(c.xs, x);
  op.AddFloatInput(c.ws, w, true);
  if (!c.bias.empty()) {
    std::vector<float> b(c.bias.size());
    for (size_t m = 0; m < b.size(); ++m) {
      b[m] = DequantizeValue(c.bias[m], c.xq.scale[0] * WeightScale(c, static_cast<int64_t>(m)), 0);
    }
    op.AddFloatInput({static_cast<int64_t>(b.size())}, b, true);
  }
  if (!op.Run().ok()) return false;
  *real = op.FloatOutput();
  *ys = op.OutputShape();
  return true;
}

Status RunInt8(const ConvTransposeCase& c, const QuantInfo& yq, OpRunner* op) {
  op->attrs() = c.attrs;
  op->AddInput<int8_t>(c.xs, c.x, DataType::kInt8);
  op->SetInputQuant(0, c.xq);
  op->AddInput<int8_t>(c.ws, c.w, DataType::kInt8, true);
  op->SetInputQuant(1, c.wq);
  if (!c.bias.empty()) op->AddInput<int32_t>({static_cast<int64_t>(c.bias.size())}, c.bias, DataType::kInt32, true);
  op->SetOutputQuant(0, yq);
  return op->Run();
}

// Runs case `c` through the float oracle and the int8 op with output
// parameters fitted to the oracle's range; every output within one step.
// False when the float op rejects the geometry (pads that leave no output).
bool CheckAgainstOracle(const ConvTransposeCase& c, std::mt19937& rng, MatchCount* count) {
  std::vector<float> real;
  Shape ys;
  if (!RunFloatOracle(c, &real, &ys)) return false;
  const QuantInfo yq = OutputQuantFor(real, rng);
  OpRunner op("ConvTranspose");
  const Status status = RunInt8(c, yq, &op);
  EXPECT_TRUE(status.ok()) << c.text << ": " << status.message();
  if (!status.ok()) return true;
  EXPECT_EQ(op.OutputShape(), ys) << c.text;
  const std::vector<int8_t> got = op.OutputValues<int8_t>();
  EXPECT_EQ(got.size(), real.size()) << c.text;
  for (size_t i = 0; i < got.size() && i < real.size(); ++i) {
    const int32_t want = QuantizeValue(real[i], yq.scale[0], yq.zero_point[0], -128, 127);
    const int32_t diff = std::abs(static_cast<int32_t>(got[i]) - want);
    EXPECT_LE(diff, 1) << c.text << " at " << i << ": got " << int{got[i]} << ", oracle " << want;
    if (diff > 1) return true;
    ++count->total;
    if (diff == 0) ++count->exact;
  }
  return true;
}

TEST(ConvTransposeInt8, MatchesFloatOracleOnRandomCases) {
  std::mt19937 rng(4242);
  MatchCount count;
  for (int cases = 0; cases < 1000 && !::testing::Test::HasFailure();) {
    if (CheckAgainstOracle(RandomCase(rng), rng, &count)) ++cases;
  }
  ExpectMostlyExact(count);
  EXPECT_GT(count.total, 200000);
}

TEST(ConvTransposeInt8, WideRowsCrossAccumulatorBlocks) {
  // Output rows longer than the kernel's 256-pixel accumulator block.
  std::mt19937 rng(6);
  MatchCount count;
  for (int64_t stride = 1; stride <= 3; ++stride) {
    ConvTransposeCase c;
    c.group = 2;
    c.xs = {1, 4, 2, 300};
    c.ws = {4, 3, 2, 3};
    c.attrs.SetInt("group", 2);
    c.attrs.SetInts("strides", {1, stride});
    c.attrs.SetInts("dilations", {1, 2});
    c.attrs.SetInts("pads", {1, 2, 0, 1});
    c.x = RandomInt8(rng, NumElements(c.xs));
    c.xq = PerTensor(0.05f, 100);
    c.w = RandomInt8(rng, NumElements(c.ws));
    c.wq = PerAxis({0.01f, 0.02f, 0.015f, 0.005f, 0.01f, 0.03f}, 1);
    c.bias = {100, -2000, 0, 30000, 5, -5};
    c.text = "wide stride " + std::to_string(stride);
    ASSERT_TRUE(CheckAgainstOracle(c, rng, &count)) << c.text;
  }
  ExpectMostlyExact(count);
}

// ---------------------------------------------------------------- errors

// A valid int8 ConvTranspose: x [1, 2, 3, 3], w [2, 3, 2, 2] (M = 3), bias [3].
struct ValidCase {
  Shape xs{1, 2, 3, 3}, ws{2, 3, 2, 2};
  QuantInfo xq = PerTensor(0.1f, 3);
  QuantInfo wq = PerAxis({0.01f, 0.02f, 0.03f}, 1);
  QuantInfo bq;  // none
  QuantInfo yq = PerTensor(0.05f, -1);
  DataType x_type = DataType::kInt8, w_type = DataType::kInt8, b_type = DataType::kInt32;
  bool w_constant = true;
  std::vector<int32_t> bias{1, 2, 3};

  Status Run() const {
    OpRunner op("ConvTranspose");
    op.attrs().SetInts("strides", {2, 2});
    if (x_type == DataType::kInt8) {
      op.AddInput<int8_t>(xs, std::vector<int8_t>(18, 5), x_type);
    } else {
      op.AddFloatInput(xs, std::vector<float>(18, 0.5f));
    }
    op.SetInputQuant(0, xq);
    if (w_type == DataType::kInt8) {
      op.AddInput<int8_t>(ws, std::vector<int8_t>(24, -7), w_type, w_constant);
    } else {
      op.AddFloatInput(ws, std::vector<float>(24, 0.5f), w_constant);
    }
    op.SetInputQuant(1, wq);
    if (b_type == DataType::kInt32) {
      op.AddInput<int32_t>({3}, bias, b_type, true);
    } else {
      op.AddFloatInput({3}, {1, 2, 3}, true);
    }
    op.SetInputQuant(2, bq);
    op.SetOutputQuant(0, yq);
    return op.Run();
  }
};

// Kernel = stride without pads (PP-OCR det's head: 24 -> 24 with its fused Relu and 24 -> 1 channels, 2x2):
// on x86 the fast path runs it as a pointwise convolution then depth to space; the bits are the reference
// kernel's.
TEST(ConvTransposeInt8, KernelEqualsStrideGivesTheReferenceBits) {
  std::mt19937 rng(0x2d2);
  std::uniform_int_distribution<int> code(-128, 127), bias(-5000, 5000);
  for (int64_t m : {24, 1}) {
    ConvTransposeCase c;
    c.attrs.SetInts("strides", {2, 2});
    c.attrs.SetInts("kernel_shape", {2, 2});
    if (m == 24) c.attrs.SetString("activation", "Relu");
    c.xs = {1, 24, 7, 13};
    c.ws = {24, m, 2, 2};
    c.x.resize(static_cast<size_t>(NumElements(c.xs)));
    c.w.resize(static_cast<size_t>(NumElements(c.ws)));
    for (int8_t& v : c.x) v = static_cast<int8_t>(code(rng));
    for (int8_t& v : c.w) v = static_cast<int8_t>(code(rng) | 1);
    c.bias.resize(static_cast<size_t>(m));
    for (int32_t& v : c.bias) v = bias(rng);
    c.xq = PerTensor(0.02f, -3);
    std::vector<float> scales(static_cast<size_t>(m));
    for (float& v : scales) v = 0.001f + 0.0001f * static_cast<float>(code(rng) + 128);
    c.wq = PerAxis(scales, 1);
    const QuantInfo yq = PerTensor(0.05f, 4);
    std::vector<int8_t> want;
    {
      const ScopedCpuTargetCap reference(CpuTarget::kRef);
      OpRunner ref_op("ConvTranspose");
      ASSERT_TRUE(RunInt8(c, yq, &ref_op).ok());
      EXPECT_EQ(ref_op.node().kernel, "ref");
      want = ref_op.OutputValues<int8_t>();
    }
    OpRunner op("ConvTranspose");
    ASSERT_TRUE(RunInt8(c, yq, &op).ok());
    if (ActiveCpuTarget() >= CpuTarget::kAvx2) {
      EXPECT_NE(op.node().kernel.find("+depth_to_space"), std::string::npos) << op.node().kernel;
    }
    EXPECT_EQ(op.OutputValues<int8_t>(), want) << m << " output channels, kernel " << op.node().kernel;
  }
}

TEST(ConvTransposeInt8, ValidCaseRuns) { EXPECT_TRUE(ValidCase().Run().ok()); }

TEST(ConvTransposeInt8, RejectsBadModels) {
  struct Bad {
    const char* what;
    void (*mutate)(ValidCase*);
  };
  const std::vector<Bad> cases = {
      {"input without quant params", [](ValidCase* c) { c->xq = QuantInfo(); }},
      {"output without quant params", [](ValidCase* c) { c->yq = QuantInfo(); }},
      {"per-axis input", [](ValidCase* c) { c->xq = PerAxis({0.1f, 0.1f}, 1); }},
      {"per-axis output", [](ValidCase* c) { c->yq = PerAxis({0.1f, 0.1f, 0.1f}, 1); }},
      {"weight without quant params", [](ValidCase* c) { c->wq = QuantInfo(); }},
      {"asymmetric weight", [](ValidCase* c) { c->wq.zero_point = {0, 0, 2}; }},
      {"weight quantized along axis 0", [](ValidCase* c) { c->wq = PerAxis({0.1f, 0.1f}, 0); }},
      {"weight with 2 scales for 3 channels", [](ValidCase* c) { c->wq = PerAxis({0.1f, 0.1f}, 1); }},
      {"int8 input, float weight", [](ValidCase* c) { c->w_type = DataType::kFloat32; }},
      {"float input, int8 weight", [](ValidCase* c) {
         c->x_type = DataType::kFloat32;
         c->b_type = DataType::kFloat32;
       }},
      {"float bias", [](ValidCase* c) { c->b_type = DataType::kFloat32; }},
      {"non-constant weight", [](ValidCase* c) { c->w_constant = false; }},
      {"bias scale disagrees", [](ValidCase* c) { c->bq = PerAxis({0.001f, 0.002f, 0.0035f}, 0); }},
      {"bias zero point", [](ValidCase* c) {
         c->bq = PerAxis({0.001f, 0.002f, 0.003f}, 0);
         c->bq.zero_point = {1, 0, 0};
       }},
      {"bias can overflow the accumulator",
       [](ValidCase* c) { c->bias[1] = std::numeric_limits<int32_t>::min() + 5; }},
  };
  for (const Bad& b : cases) {
    ValidCase c;
    b.mutate(&c);
    const Status status = c.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
  ValidCase agreeing;  // the bias scale that input scale x weight scale gives
  agreeing.bq = PerAxis({0.001f, 0.002f, 0.003f}, 0);
  EXPECT_TRUE(agreeing.Run().ok());
}

}  // namespace
}  // namespace npurt
