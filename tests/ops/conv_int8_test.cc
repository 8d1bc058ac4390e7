// Int8 Conv (contract in runtime/kernels/ref/quantize.h): hand-computed cases,
// an oracle test against the float Conv on dequantized inputs, and the error
// paths of the int8 checks.
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

TEST(ConvInt8, Conv1dPadsReadTheInputZeroPointAndRoundHalfToEven) {
  // The reference kernel: it rounds real / scale, then adds the zero point (oneDNN's int8 post-ops add it
  // before rounding and would give 10 on this tie: npurt does not requantize in oneDNN).
  const ScopedCpuTargetCap reference(CpuTarget::kRef);
  OpRunner op("Conv");
  op.attrs().SetInts("pads", {1, 0});
  // x: scale 0.5, zero point 10: q 10 20 30 40 -> x - zp = 0 10 20 30 (real 0 5 10 15).
  op.AddInput<int8_t>({1, 1, 4}, {10, 20, 30, 40}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 10));
  // w: scale 0.25, q 1 2. acc scale = 0.5 * 0.25 = 0.125.
  op.AddInput<int8_t>({1, 1, 2}, {1, 2}, DataType::kInt8, true);
  op.SetInputQuant(1, PerTensor(0.25f));
  // bias 8 (real 8 * 0.125 = 1).
  op.AddInput<int32_t>({1}, {8}, DataType::kInt32, true);
  op.SetOutputQuant(0, PerTensor(0.5f, -5));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4}));
  // acc = 8 + (x[o-1] - 10) * 1 + (x[o] - 10) * 2, the pad reading 10 (adds 0):
  //   o0: 8 + 0 + 0*2 = 8     -> real 1.0  -> 1.0 / 0.5 = 2   -> 2 - 5 = -3
  //   o1: 8 + 0 + 10*2 = 28   -> real 3.5  -> 7               -> 2
  //   o2: 8 + 10 + 20*2 = 58  -> real 7.25 -> 14.5 -> 14 (even) -> 9
  //   o3: 8 + 20 + 30*2 = 88  -> real 11   -> 22              -> 17
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-3, 2, 9, 17}));
}

// x [1, 2, 2]: channel 0 = 1 2, channel 1 = 3 4 (scale 1, zero point 0); 1x1 depthwise weights 2 and -4,
// scales 0.5 and 0.25 per output channel; Relu; output scale 0.01, zero point 0.
void AddDepthwiseRelu(OpRunner* op) {
  op->attrs().SetInt("group", 2);
  op->attrs().SetString("activation", "Relu");
  op->AddInput<int8_t>({1, 2, 2}, {1, 2, 3, 4}, DataType::kInt8);
  op->SetInputQuant(0, PerTensor(1.0f));
  op->AddInput<int8_t>({2, 1, 1}, {2, -4}, DataType::kInt8, true);
  op->SetInputQuant(1, PerAxis({0.5f, 0.25f}, 0));
  op->SetOutputQuant(0, PerTensor(0.01f, 0));
}

TEST(ConvInt8, DepthwisePerChannelWeightsReluAndSaturation) {
  OpRunner op("Conv");
  AddDepthwiseRelu(&op);
  ASSERT_TRUE(op.Run().ok());
  // Channel 0: acc 2, 4 x 0.5 = 1, 2 -> 100, 200 saturates to 127.
  // Channel 1: acc -12, -16 x 0.25 = -3, -4 -> Relu 0 -> 0.
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{100, 127, 0, 0}));
}

// The affine after the activation runs on the real value before the output's quantization.
TEST(ConvInt8, OutputAffineBeforeTheOutputQuantization) {
  OpRunner op("Conv");
  AddDepthwiseRelu(&op);
  op.attrs().SetFloats("activation_scale", {0.5f, 2.0f});
  op.attrs().SetFloats("activation_shift", {-1.0f, 0.75f});
  ASSERT_TRUE(op.Run().ok());
  // Channel 0: real 1, 2 -> Relu 1, 2 -> * 0.5 - 1 = -0.5, 0 -> -50, 0.
  // Channel 1: real -3, -4 -> Relu 0 -> * 2 + 0.75 = 0.75 -> 75, 75.
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-50, 0, 75, 75}));
}

// A residual's real value joins the accumulator's before the activation; the output rounds once.
TEST(ConvInt8, ResidualJoinsTheRealValueBeforeTheActivation) {
  for (DataType type : {DataType::kInt8, DataType::kInt16}) {
    OpRunner op("Conv");
    AddDepthwiseRelu(&op);
    op.AddAbsentInput();  // no bias
    // Real values 1, -1 (channel 0) and 4, 0 (channel 1) in either type.
    if (type == DataType::kInt8) {
      op.AddInput<int8_t>({1, 2, 2}, {30, -10, 90, 10}, type);
      op.SetInputQuant(3, PerTensor(0.05f, 10));
    } else {
      op.AddInput<int16_t>({1, 2, 2}, {1000, -1000, 4000, 0}, type);
      op.SetInputQuant(3, PerTensor(0.001f, 0));
    }
    ASSERT_TRUE(op.Run().ok());
    // Channel 0: 1 + 1 = 2 -> 200 saturates to 127; 2 - 1 = 1 -> 100.
    // Channel 1: -3 + 4 = 1 -> 100; -4 + 0 -> Relu 0.
    EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{127, 100, 100, 0})) << DataTypeName(type);
  }
}

TEST(ConvInt8, RejectsBadResiduals) {
  struct Bad {
    const char* what;
    DataType type;
    QuantInfo quant;
  };
  const std::vector<Bad> cases = {
      {"residual without quant params", DataType::kInt8, QuantInfo()},
      {"per-axis residual", DataType::kInt8, PerAxis({0.1f, 0.2f}, 1)},
      {"float residual in a quantized convolution", DataType::kFloat32, QuantInfo()},
      {"int32 residual", DataType::kInt32, PerTensor(0.1f, 0)},
  };
  for (const Bad& b : cases) {
    OpRunner op("Conv");
    AddDepthwiseRelu(&op);
    op.AddAbsentInput();
    op.AddInput<uint8_t>({1, 2, 2}, std::vector<uint8_t>(4 * DataTypeSize(b.type)), b.type);
    if (!b.quant.empty()) op.SetInputQuant(3, b.quant);
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
}

TEST(ConvInt8, StridedDilated2dWithLeakyRelu) {
  OpRunner op("Conv");
  op.attrs().SetInts("strides", {2, 2});
  op.attrs().SetInts("dilations", {1, 2});
  op.attrs().SetString("activation", "LeakyRelu");
  op.attrs().SetFloats("activation_params", {0.5f});
  // x 3x5, scale 1, zero point -128: q = v - 128 for v = 0..14 (real v).
  std::vector<int8_t> x(15);
  for (int v = 0; v < 15; ++v) x[v] = static_cast<int8_t>(v - 128);
  op.AddInput<int8_t>({1, 1, 3, 5}, x, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, -128));
  // 2x2 kernel, dilation 2 along W: taps (0,0) (0,2) (1,0) (1,2) with weights 1 1 -1 -1 (scale 1).
  op.AddInput<int8_t>({1, 1, 2, 2}, {1, 1, -1, -1}, DataType::kInt8, true);
  op.SetInputQuant(1, PerTensor(1.0f));
  op.SetOutputQuant(0, PerTensor(1.0f, 0));
  ASSERT_TRUE(op.Run().ok());
  // H: (3 - 2) / 2 + 1 = 1; W: (5 - 3) / 2 + 1 = 2.
  // out(0, 0) = v(0,0) + v(0,2) - v(1,0) - v(1,2) = 0 + 2 - 5 - 7 = -10 -> LeakyRelu -5.
  // out(0, 1) = v(0,2) + v(0,4) - v(1,2) - v(1,4) = 2 + 4 - 7 - 9 = -10 -> -5.
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 1, 2}));
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-5, -5}));
}

TEST(ConvInt8, FloatModelsStayFloat) {
  OpRunner op("Conv");
  op.AddFloatInput({1, 1, 2}, {1, 2});
  op.AddFloatInput({1, 1, 1}, {3}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kFloat32);
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{3, 6}));
}

// ---------------------------------------------------------------- oracle

struct ConvCase {
  Attributes attrs;
  Shape xs, ws;
  std::vector<int8_t> x, w;
  QuantInfo xq, wq;
  std::vector<int32_t> bias;  // empty: no bias
  std::string text;           // for failure messages
};

// A fused activation with parameters on the scale of the outputs (a few units).
void RandomActivation(std::mt19937& rng, Attributes* attrs, std::string* text) {
  switch (Uniform(rng, 0, 6)) {
    case 0: break;
    case 1: attrs->SetString("activation", "Relu"); break;
    case 2:
      attrs->SetString("activation", "Clip");
      attrs->SetFloats("activation_params", {-0.1f * Uniform(rng, 0, 20), 0.1f * Uniform(rng, 5, 30)});
      break;
    case 3:
      attrs->SetString("activation", "LeakyRelu");
      attrs->SetFloats("activation_params", {0.05f * Uniform(rng, 1, 6)});
      break;
    case 4: attrs->SetString("activation", "HardSwish"); break;
    case 5: attrs->SetString("activation", "HardSigmoid"); break;
    default: break;
  }
  std::string name;
  if (attrs->GetString("activation", "", &name).ok() && !name.empty()) *text += " act=" + name;
}

ConvCase RandomConvCase(std::mt19937& rng) {
  ConvCase c;
  const int spatial = Uniform(rng, 1, 3);
  const int kind = Uniform(rng, 0, 2);  // plain, grouped, depthwise
  int64_t group = 1, channels = 1, maps = 1;
  if (kind == 0) {
    channels = Uniform(rng, 1, 17);  // tails around 4, 8 and 16
    maps = Uniform(rng, 1, 17);
  } else if (kind == 1) {
    group = Uniform(rng, 2, 3);
    channels = group * Uniform(rng, 1, 4);
    maps = group * Uniform(rng, 1, 3);
  } else {
    channels = group = Uniform(rng, 1, 9);
    maps = channels * Uniform(rng, 1, 2);
  }
  c.xs = {Uniform(rng, 1, 2), channels};
  c.ws = {maps, channels / group};
  std::vector<int64_t> strides, dilations, pads_begin, pads_end;
  for (int i = 0; i < spatial; ++i) {
    c.xs.push_back(spatial == 1 ? Uniform(rng, 4, 19) : spatial == 2 ? Uniform(rng, 3, 11) : Uniform(rng, 2, 6));
    c.ws.push_back(spatial == 1 ? Uniform(rng, 1, 5) : Uniform(rng, 1, 3));
    strides.push_back(Uniform(rng, 1, 3));
    dilations.push_back(Uniform(rng, 1, 2));
    pads_begin.push_back(Uniform(rng, 0, 2));
    pads_end.push_back(Uniform(rng, 0, 2));
  }
  std::vector<int64_t> pads = pads_begin;
  pads.insert(pads.end(), pads_end.begin(), pads_end.end());
  c.attrs.SetInt("group", group);
  c.attrs.SetInts("strides", strides);
  c.attrs.SetInts("dilations", dilations);
  static const char* const kAutoPad[] = {"NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  const char* auto_pad = kAutoPad[Uniform(rng, 0, 5)];
  c.attrs.SetString("auto_pad", auto_pad);
  if (std::string(auto_pad) == "NOTSET") c.attrs.SetInts("pads", pads);
  c.text = "x " + ShapeToString(c.xs) + " w " + ShapeToString(c.ws) + " group " + std::to_string(group) + " " +
           auto_pad;
  RandomActivation(rng, &c.attrs, &c.text);

  c.x = RandomInt8(rng, NumElements(c.xs));
  c.xq = PerTensor(0.001f * Uniform(rng, 10, 100), RandomZeroPoint(rng));
  c.w = RandomInt8(rng, NumElements(c.ws));
  if (Uniform(rng, 0, 1) == 0) {
    c.wq = PerTensor(0.001f * Uniform(rng, 2, 20));
    c.text += " per-tensor";
  } else {
    std::vector<float> scales(static_cast<size_t>(maps));
    for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
    c.wq = PerAxis(scales, 0);
    c.text += " per-channel";
  }
  if (Uniform(rng, 0, 9) < 7) {
    c.bias.resize(static_cast<size_t>(maps));
    for (int32_t& b : c.bias) b = Uniform(rng, -30000, 30000);
  }
  c.text += " zp_x " + std::to_string(c.xq.zero_point[0]);
  return c;
}

// The float Conv on the dequantized inputs (bias real = bias * input scale *
// weight scale); false when the float op rejects the geometry.
bool RunFloatOracle(const ConvCase& c, std::vector<float>* real, Shape* ys) {
  OpRunner op("Conv");
  op.attrs() = c.attrs;
  op.AddFloatInput(c.xs, Dequantize(c.xs, c.x, c.xq));
  op.AddFloatInput(c.ws, Dequantize(c.ws, c.w, c.wq), true);
  if (!c.bias.empty()) {
    std::vector<float> b(c.bias.size());
    for (size_t m = 0; m < b.size(); ++m) {
      const float acc_scale = c.xq.scale[0] * c.wq.scale[c.wq.per_tensor() ? 0 : m];
      b[m] = DequantizeValue(c.bias[m], acc_scale, 0);
    }
    op.AddFloatInput({static_cast<int64_t>(b.size())}, b, true);
  }
  if (!op.Run().ok()) return false;
  *real = op.FloatOutput();
  *ys = op.OutputShape();
  return true;
}

Status RunInt8(const ConvCase& c, const QuantInfo& yq, OpRunner* op) {
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
// parameters fitted to the oracle's range; false when the float op rejects
// the geometry (a kernel beyond the padded input).
bool CheckAgainstOracle(const ConvCase& c, std::mt19937& rng, MatchCount* count) {
  std::vector<float> real;
  Shape ys;
  if (!RunFloatOracle(c, &real, &ys)) return false;
  const QuantInfo yq = OutputQuantFor(real, rng);
  OpRunner op("Conv");
  const Status status = RunInt8(c, yq, &op);
  EXPECT_TRUE(status.ok()) << c.text << ": " << status.message();
  if (!status.ok()) return true;
  EXPECT_EQ(op.OutputShape(), ys) << c.text;
  ExpectWithinOneStep(op.OutputValues<int8_t>(), real, yq, c.text, count);
  return true;
}

TEST(ConvInt8, MatchesFloatOracleOnRandomCases) {
  std::mt19937 rng(20261129);
  MatchCount count;
  for (int cases = 0; cases < 1000 && !::testing::Test::HasFailure();) {
    if (CheckAgainstOracle(RandomConvCase(rng), rng, &count)) ++cases;
  }
  ExpectMostlyExact(count);
  EXPECT_GT(count.total, 150000);
}

TEST(ConvInt8, WideRowsCrossAccumulatorBlocks) {
  // Output rows longer than the kernel's 256-pixel accumulator block, with
  // strides, a dilation and pads on both sides.
  std::mt19937 rng(5);
  MatchCount count;
  for (int64_t stride = 1; stride <= 3; ++stride) {
    ConvCase c;
    c.xs = {1, 3, 2, 800};
    c.ws = {4, 3, 2, 5};
    c.attrs.SetInts("strides", {1, stride});
    c.attrs.SetInts("dilations", {1, 2});
    c.attrs.SetInts("pads", {0, 3, 1, 4});
    c.attrs.SetString("activation", "Relu");
    c.x = RandomInt8(rng, NumElements(c.xs));
    c.xq = PerTensor(0.05f, -7);
    c.w = RandomInt8(rng, NumElements(c.ws));
    c.wq = PerAxis({0.01f, 0.02f, 0.015f, 0.005f}, 0);
    c.bias = {100, -2000, 0, 30000};
    c.text = "wide stride " + std::to_string(stride);
    ASSERT_TRUE(CheckAgainstOracle(c, rng, &count)) << c.text;
  }
  ExpectMostlyExact(count);
}

// ---------------------------------------------------------------- errors

// A valid int8 Conv: x [1, 2, 4, 4], w [3, 2, 3, 3] per channel, bias [3].
ConvCase ValidCase() {
  ConvCase c;
  c.xs = {1, 2, 4, 4};
  c.ws = {3, 2, 3, 3};
  c.x.assign(32, 5);
  c.w.assign(54, -3);
  c.xq = PerTensor(0.1f, 3);
  c.wq = PerAxis({0.01f, 0.02f, 0.03f}, 0);
  c.bias = {1, 2, 3};
  return c;
}

Status RunValidCaseWith(void (*mutate)(ConvCase*, QuantInfo* yq, OpRunner* op)) {
  ConvCase c = ValidCase();
  QuantInfo yq = PerTensor(0.05f, -1);
  OpRunner op("Conv");
  mutate(&c, &yq, &op);
  return RunInt8(c, yq, &op);
}

TEST(ConvInt8, ValidCaseRuns) {
  EXPECT_TRUE(RunValidCaseWith([](ConvCase*, QuantInfo*, OpRunner*) {}).ok());
}

TEST(ConvInt8, RejectsBadQuantization) {
  struct Bad {
    const char* what;
    void (*mutate)(ConvCase*, QuantInfo*, OpRunner*);
  };
  const std::vector<Bad> cases = {
      {"input without quant params", [](ConvCase* c, QuantInfo*, OpRunner*) { c->xq = QuantInfo(); }},
      {"output without quant params", [](ConvCase*, QuantInfo* yq, OpRunner*) { *yq = QuantInfo(); }},
      {"per-axis input", [](ConvCase* c, QuantInfo*, OpRunner*) { c->xq = PerAxis({0.1f, 0.2f}, 1); }},
      {"per-axis output", [](ConvCase*, QuantInfo* yq, OpRunner*) { *yq = PerAxis({0.1f, 0.1f, 0.1f}, 1); }},
      {"weight without quant params", [](ConvCase* c, QuantInfo*, OpRunner*) { c->wq = QuantInfo(); }},
      {"asymmetric per-tensor weight", [](ConvCase* c, QuantInfo*, OpRunner*) { c->wq = PerTensor(0.01f, 3); }},
      {"asymmetric per-channel weight",
       [](ConvCase* c, QuantInfo*, OpRunner*) { c->wq.zero_point = {0, -1, 0}; }},
      {"weight quantized along axis 1", [](ConvCase* c, QuantInfo*, OpRunner*) { c->wq = PerAxis({0.1f, 0.1f}, 1); }},
      {"zero input scale", [](ConvCase* c, QuantInfo*, OpRunner*) { c->xq = PerTensor(0.0f, 0); }},
  };
  for (const Bad& b : cases) {
    const Status status = RunValidCaseWith(b.mutate);
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
}

// Builds the valid case by hand so single inputs can change type, constness or quant.
struct ManualConv {
  OpRunner op{"Conv"};
  ManualConv(DataType x_type, DataType w_type, DataType b_type, bool w_constant = true) {
    const ConvCase c = ValidCase();
    if (x_type == DataType::kInt8) {
      op.AddInput<int8_t>(c.xs, c.x, x_type);
    } else {
      op.AddFloatInput(c.xs, std::vector<float>(32, 0.5f));
    }
    op.SetInputQuant(0, c.xq);
    if (w_type == DataType::kInt8) {
      op.AddInput<int8_t>(c.ws, c.w, w_type, w_constant);
    } else {
      op.AddFloatInput(c.ws, std::vector<float>(54, 0.5f), w_constant);
    }
    op.SetInputQuant(1, c.wq);
    if (b_type == DataType::kInt32) {
      op.AddInput<int32_t>({3}, c.bias, b_type, true);
    } else if (b_type == DataType::kFloat32) {
      op.AddFloatInput({3}, {1, 2, 3}, true);
    } else {
      op.AddInput<int8_t>({3}, {1, 2, 3}, b_type, true);
    }
    op.SetOutputQuant(0, PerTensor(0.05f, -1));
  }
};

TEST(ConvInt8, RejectsMixedTypesAndNonConstantWeights) {
  struct Bad {
    const char* what;
    DataType x, w, b;
    bool w_constant;
  };
  const std::vector<Bad> cases = {
      {"int8 input, float weight", DataType::kInt8, DataType::kFloat32, DataType::kInt32, true},
      {"float input, int8 weight", DataType::kFloat32, DataType::kInt8, DataType::kFloat32, true},
      {"float bias", DataType::kInt8, DataType::kInt8, DataType::kFloat32, true},
      {"int8 bias", DataType::kInt8, DataType::kInt8, DataType::kInt8, true},
      {"non-constant weight", DataType::kInt8, DataType::kInt8, DataType::kInt32, false},
  };
  for (const Bad& b : cases) {
    ManualConv m(b.x, b.w, b.b, b.w_constant);
    const Status status = m.op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
  ManualConv ok(DataType::kInt8, DataType::kInt8, DataType::kInt32);
  EXPECT_TRUE(ok.op.Run().ok());
}

TEST(ConvInt8, ChecksTheBiasQuantization) {
  // Input scale 0.1 x weight scales 0.01 0.02 0.03 = 0.001 0.002 0.003.
  {
    ManualConv m(DataType::kInt8, DataType::kInt8, DataType::kInt32);
    m.op.SetInputQuant(2, PerAxis({0.001f, 0.002f, 0.003f}, 0));
    EXPECT_TRUE(m.op.Run().ok());
  }
  {
    ManualConv m(DataType::kInt8, DataType::kInt8, DataType::kInt32);
    m.op.SetInputQuant(2, PerAxis({0.001f, 0.002f, 0.0031f}, 0));  // off by 3 %
    const Status status = m.op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << status.message();
    EXPECT_NE(status.message().find("bias"), std::string::npos) << status.message();
  }
  {
    ManualConv m(DataType::kInt8, DataType::kInt8, DataType::kInt32);
    m.op.SetInputQuant(2, PerTensor(0.001f));  // one scale for channels that need three
    EXPECT_EQ(m.op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    ManualConv m(DataType::kInt8, DataType::kInt8, DataType::kInt32);
    QuantInfo q = PerAxis({0.001f, 0.002f, 0.003f}, 0);
    q.zero_point = {0, 5, 0};
    m.op.SetInputQuant(2, q);
    EXPECT_EQ(m.op.Run().code(), StatusCode::kModelInvalid);
  }
}

TEST(ConvInt8, RejectsAccumulatorsThatCanOverflowInt32) {
  {
    // 70000 taps of weight 127 with |x - zp| up to 255: 2.27e9 > 2^31 - 1.
    OpRunner op("Conv");
    op.AddInput<int8_t>({1, 1, 70000}, std::vector<int8_t>(70000, 0), DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f, -128));
    op.AddInput<int8_t>({1, 1, 70000}, std::vector<int8_t>(70000, 127), DataType::kInt8, true);
    op.SetInputQuant(1, PerTensor(1.0f));
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << status.message();
    EXPECT_NE(status.message().find("overflow"), std::string::npos) << status.message();
  }
  {
    // A bias at the edge of the int32 range plus one tap.
    OpRunner op("Conv");
    op.AddInput<int8_t>({1, 1, 1}, {0}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInput<int8_t>({1, 1, 1}, {1}, DataType::kInt8, true);
    op.SetInputQuant(1, PerTensor(1.0f));
    op.AddInput<int32_t>({1}, {std::numeric_limits<int32_t>::max() - 10}, DataType::kInt32, true);
    op.SetOutputQuant(0, PerTensor(1.0f));
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
