// Int8 unary activations (runtime/kernels/ref/unary.h): one 256-entry table per
// op, built from the float formula. Hand-computed cases, the float oracle over
// every input code, error paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::OracleInput;
using testing::OracleStats;
using testing::PerTensor;
using testing::RandomCodes;
using testing::RandomQuant;

TEST(UnaryInt8, ReluRequantizesToTheOutputParameters) {
  OpRunner op("Relu");
  // scale 0.5, zp 10: -128 9 10 11 127 -> real -69 -0.5 0 0.5 58.5 -> relu 0 0 0 0.5 58.5
  op.AddInput<int8_t>({5}, {-128, 9, 10, 11, 127}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 10));
  // output scale 0.5, zp -128: 0 -> -128, 0.5 -> 1 - 128 = -127, 58.5 -> 117 - 128 = -11
  op.SetOutputQuant(0, PerTensor(0.5f, -128));
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-128, -128, -128, -127, -11}));
}

TEST(UnaryInt8, SigmoidSaturatesAtBothEnds) {
  OpRunner op("Sigmoid");
  // scale 1/16, zp 0: 0 16 -16 127 -128 -> real 0 1 -1 7.9375 -8
  op.AddInput<int8_t>({5}, {0, 16, -16, 127, -128}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.0625f, 0));
  // sigmoid = 0.5 0.731059 0.268941 0.999643 0.000335; output scale 1/256, zp -128:
  //   * 256 = 128 187.151 68.849 255.909 0.086 -> 128 187 69 256 0 -> - 128 = 0 59 -59 128 (saturates: 127) -128
  op.SetOutputQuant(0, PerTensor(1.0f / 256.0f, -128));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{0, 59, -59, 127, -128}));
}

TEST(UnaryInt8, ClipWithFloatAndInt8ConstantBounds) {
  OpRunner op("Clip");
  // scale 0.5, zp 0: -10 -2 0 3 10 -> real -5 -1 0 1.5 5
  op.AddInput<int8_t>({5}, {-10, -2, 0, 3, 10}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 0));
  op.AddFloatInput({}, {-1.0f}, true);                   // min: real -1
  op.AddInput<int8_t>({}, {8}, DataType::kInt8, true);  // max: code 8, scale 0.25 -> real 2
  op.SetInputQuant(2, PerTensor(0.25f, 0));
  op.SetOutputQuant(0, PerTensor(0.5f, 0));
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  // clip = -1 -1 0 1.5 2 -> / 0.5 = -2 -2 0 3 4
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-2, -2, 0, 3, 4}));
}

TEST(UnaryInt8, LogOutsideTheDomainGivesTheZeroPointAndZeroGivesTheMinimum) {
  OpRunner op("Log");
  // scale 1, zp 0: -1 0 1 -> real -1 0 1 -> log NaN -inf 0
  op.AddInput<int8_t>({3}, {-1, 0, 1}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, 0));
  op.SetOutputQuant(0, PerTensor(0.1f, 7));
  ASSERT_TRUE(op.Run().ok());
  // NaN quantizes as 0.0 (zp 7), -inf saturates to -128, 0 -> 7
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{7, -128, 7}));
}

struct UnaryCase {
  const char* op;
  void (*set_attrs)(Attributes*);
  float min_scale, max_scale;  // input scale range keeping the function's interesting part in range
};

TEST(UnaryInt8, MatchesFloatOracleOnEveryCode) {
  // The table holds exactly "dequantize, the float formula, QuantizeValue" for
  // every code, which is what the oracle computes per element: the outputs must
  // be equal bit for bit. Each case feeds all 256 codes plus a random tail.
  const std::vector<UnaryCase> cases = {
      {"Relu", nullptr, 0.002f, 0.5f},
      {"Clip", [](Attributes* a) {
         a->SetFloat("min", -0.75f);
         a->SetFloat("max", 3.0f);
       }, 0.002f, 0.1f},
      {"LeakyRelu", [](Attributes* a) { a->SetFloat("alpha", 0.1f); }, 0.002f, 0.5f},
      {"Sigmoid", nullptr, 0.01f, 0.2f},
      {"HardSigmoid", [](Attributes* a) {
         a->SetFloat("alpha", 0.3f);
         a->SetFloat("beta", 0.4f);
       }, 0.01f, 0.2f},
      {"HardSwish", nullptr, 0.01f, 0.2f},
      {"Tanh", nullptr, 0.005f, 0.1f},
      {"Exp", nullptr, 0.005f, 0.05f},
      {"Log", nullptr, 0.01f, 0.5f},
      {"Sqrt", nullptr, 0.01f, 0.5f},
      {"Erf", nullptr, 0.005f, 0.05f},
      {"Sin", nullptr, 0.01f, 0.1f},
      {"Cos", nullptr, 0.01f, 0.1f},
      {"Atan", nullptr, 0.01f, 0.1f},
      {"Elu", [](Attributes* a) { a->SetFloat("alpha", 0.7f); }, 0.005f, 0.05f},
      {"Selu", nullptr, 0.005f, 0.05f},
      {"Softplus", nullptr, 0.005f, 0.1f},
      {"Softsign", nullptr, 0.01f, 0.2f},
      {"Mish", nullptr, 0.005f, 0.1f},
      {"Abs", nullptr, 0.002f, 0.5f},
      {"Floor", nullptr, 0.01f, 0.1f},
      {"Round", nullptr, 0.01f, 0.1f},
      {"Sign", nullptr, 0.002f, 0.5f},
  };
  std::mt19937 rng(7767517);
  std::uniform_int_distribution<int> tail(1, 40);
  for (const UnaryCase& c : cases) {
    OracleStats stats;
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<int8_t> codes;
      for (int q = -128; q <= 127; ++q) codes.push_back(static_cast<int8_t>(q));
      const std::vector<int8_t> extra = RandomCodes(&rng, tail(rng));
      codes.insert(codes.end(), extra.begin(), extra.end());
      Attributes attrs;
      if (c.set_attrs != nullptr) c.set_attrs(&attrs);
      const Shape shape = {1, static_cast<int64_t>(codes.size())};
      const OracleInput x = OracleInput::Int8(shape, codes, RandomQuant(&rng, c.min_scale, c.max_scale));
      testing::RunAgainstFloatOracle(c.op, attrs, {x}, {RandomQuant(&rng, 0.004f, 0.1f)}, &stats);
    }
    SCOPED_TRACE(c.op);
    stats.Expect(1.0);
  }
}

TEST(UnaryInt8, ClipWithConstantInputBoundsMatchesTheOracle) {
  std::mt19937 rng(42);
  OracleStats stats;
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<int8_t> codes;
    for (int q = -128; q <= 127; ++q) codes.push_back(static_cast<int8_t>(q));
    std::uniform_real_distribution<float> bound(-2.0f, 2.0f);
    const float lo = bound(rng), hi = bound(rng);  // lo > hi gives hi everywhere, like the float op
    testing::RunAgainstFloatOracle("Clip", Attributes(),
                                   {OracleInput::Int8({256}, codes, RandomQuant(&rng, 0.005f, 0.05f)),
                                    OracleInput::Float({}, {lo}), OracleInput::Float({}, {hi})},
                                   {RandomQuant(&rng, 0.005f, 0.05f)}, &stats);
  }
  stats.Expect(1.0);
}

TEST(UnaryInt8, ClipRebuildsItsTableFromRunTimeBounds) {
  // Prepare and eval by hand, so the bound can change between runs as a computed tensor does.
  const OpDef* def = FindOp("Clip");
  ASSERT_NE(def, nullptr);
  std::vector<int8_t> xv = {-10, -2, 0, 3, 10};  // scale 0.5: real -5 -1 0 1.5 5
  std::vector<int8_t> yv(5);
  float lo_value = 100.0f;  // whatever the buffer holds at prepare
  Tensor x, lo, y;
  x.name = "x";
  x.shape = {5};
  x.dtype = DataType::kInt8;
  x.data = xv.data();
  x.bytes = xv.size();
  x.quant = PerTensor(0.5f, 0);
  lo.name = "lo";
  lo.dtype = DataType::kFloat32;
  lo.data = &lo_value;
  lo.bytes = sizeof(float);
  y = x;
  y.name = "y";
  y.data = yv.data();
  OpNode node;
  node.def = def;
  node.inputs = {&x, &lo};
  node.outputs = {&y};
  const Status s = def->prepare(&node);
  ASSERT_TRUE(s.ok()) << s.message();
  lo_value = -1.0f;  // clip -> -1 -1 0 1.5 5 -> codes -2 -2 0 3 10
  ASSERT_TRUE(def->eval(&node).ok());
  EXPECT_EQ(yv, (std::vector<int8_t>{-2, -2, 0, 3, 10}));
  lo_value = 1.0f;  // clip -> 1 1 1 1.5 5 -> codes 2 2 2 3 10
  ASSERT_TRUE(def->eval(&node).ok());
  EXPECT_EQ(yv, (std::vector<int8_t>{2, 2, 2, 3, 10}));
}

TEST(UnaryInt8, ReluAndClipTakePlainIntegers) {
  // No quantization parameters anywhere: ONNX integer semantics (scale 1, zero point 0).
  OpRunner relu("Relu");
  relu.AddInput<int8_t>({3}, {-128, -1, 127}, DataType::kInt8);
  ASSERT_TRUE(relu.Run().ok());
  EXPECT_EQ(relu.OutputValues<int8_t>(), (std::vector<int8_t>{0, 0, 127}));

  OpRunner clip("Clip");  // min as a computed int8 input, as in the ONNX test test_clip_default_int8_min
  clip.AddInput<int8_t>({4}, {-128, -6, 0, 127}, DataType::kInt8);
  clip.AddInput<int8_t>({}, {-5}, DataType::kInt8, /*constant=*/false);
  const Status s = clip.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(clip.OutputValues<int8_t>(), (std::vector<int8_t>{-5, -5, 0, 127}));

  OpRunner tanh("Tanh");  // not an order-only op: parameters are required
  tanh.AddInput<int8_t>({1}, {1}, DataType::kInt8);
  EXPECT_EQ(tanh.Run().code(), StatusCode::kModelInvalid);
}

// ---------------------------------------------------------------- errors

TEST(UnaryInt8, RejectsMissingQuantizationAndUnquantizedBounds) {
  {
    OpRunner op("Tanh");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Tanh: input 'in0' is INT8 but has no quantization parameters"), std::string::npos)
        << s.message();
  }
  {
    OpRunner op("Sigmoid");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Sigmoid: output"), std::string::npos) << s.message();
  }
  {  // an int8 bound without quantization parameters
    OpRunner op("Clip");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddAbsentInput();
    op.AddInput<int8_t>({}, {3}, DataType::kInt8, true);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Clip: max"), std::string::npos) << s.message();
  }
  {  // an int8 bound on a float input
    OpRunner op("Clip");
    op.AddFloatInput({2}, {1, 2});
    op.AddInput<int8_t>({}, {3}, DataType::kInt8, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Exp");
    op.AddInput<uint8_t>({2}, {1, 2}, DataType::kUint8);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
