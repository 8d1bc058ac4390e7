// Int8 Add, Sub, Mul, Div, Max, Min, Pow, PRelu (runtime/kernels/ref/binary.h):
// hand-computed cases, the float oracle on random broadcast shapes, error paths.
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

// a: scale 0.125, zero point 0: codes 8 -16 40 127 1 127 -> real 1 -2 5 15.875 0.125 15.875
// b: scale 0.25, zero point 10: codes 14 10 30 -128 10 127 -> real 1 0 5 -34.5 0 29.25
// a + b = 2 -2 10 -18.625 0.125 45.125; output scale 0.25, zero point -20:
//   / 0.25 = 8 -8 40 -74.5 0.5 180.5 -> round half to even 8 -8 40 -74 0 180
//   + zp   = -12 -28 20 -94 -20 160 -> saturate -12 -28 20 -94 -20 127
void AddHandInputs(OpRunner* op) {
  op->AddInput<int8_t>({6}, {8, -16, 40, 127, 1, 127}, DataType::kInt8);
  op->SetInputQuant(0, PerTensor(0.125f, 0));
  op->AddInput<int8_t>({6}, {14, 10, 30, -128, 10, 127}, DataType::kInt8);
  op->SetInputQuant(1, PerTensor(0.25f, 10));
  op->SetOutputQuant(0, PerTensor(0.25f, -20));
}

TEST(BinaryInt8, AddRescalesEachOperandRoundsHalfToEvenAndSaturates) {
  OpRunner op("Add");
  AddHandInputs(&op);
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-12, -28, 20, -94, -20, 127}));
}

TEST(BinaryInt8, AddFusedReluActsOnTheRealSum) {
  OpRunner op("Add");
  op.attrs().SetString("activation", "Relu");
  AddHandInputs(&op);
  ASSERT_TRUE(op.Run().ok());
  // relu(a + b) = 2 0 10 0 0.125 45.125 -> / 0.25 = 8 0 40 0 0.5 180.5 -> 8 0 40 0 0 180
  //   + zp = -12 -20 20 -20 -20 160 -> saturate ... 127
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-12, -20, 20, -20, -20, 127}));
}

TEST(BinaryInt8, SubAndMulBroadcast) {
  // a [2, 3]: scale 0.5, zp 0: 2 4 6 -2 -4 -6 -> real 1 2 3 -1 -2 -3
  // b [3]: scale 1, zp 1: 3 1 -1 -> real 2 0 -2
  const std::vector<int8_t> a = {2, 4, 6, -2, -4, -6};
  const std::vector<int8_t> b = {3, 1, -1};
  OpRunner mul("Mul");
  mul.AddInput<int8_t>({2, 3}, a, DataType::kInt8);
  mul.SetInputQuant(0, PerTensor(0.5f, 0));
  mul.AddInput<int8_t>({3}, b, DataType::kInt8);
  mul.SetInputQuant(1, PerTensor(1.0f, 1));
  mul.SetOutputQuant(0, PerTensor(0.5f, 5));
  ASSERT_TRUE(mul.Run().ok());
  EXPECT_EQ(mul.OutputShape(), (Shape{2, 3}));
  // a * b = 2 0 -6 -2 0 6 -> / 0.5 = 4 0 -12 -4 0 12 -> + 5 = 9 5 -7 1 5 17
  EXPECT_EQ(mul.OutputValues<int8_t>(), (std::vector<int8_t>{9, 5, -7, 1, 5, 17}));

  OpRunner sub("Sub");
  sub.AddInput<int8_t>({2, 3}, a, DataType::kInt8);
  sub.SetInputQuant(0, PerTensor(0.5f, 0));
  sub.AddInput<int8_t>({3}, b, DataType::kInt8);
  sub.SetInputQuant(1, PerTensor(1.0f, 1));
  sub.SetOutputQuant(0, PerTensor(0.5f, 5));
  ASSERT_TRUE(sub.Run().ok());
  // a - b = -1 2 5 -3 -2 -1 -> / 0.5 = -2 4 10 -6 -4 -2 -> + 5 = 3 9 15 -1 1 3
  EXPECT_EQ(sub.OutputValues<int8_t>(), (std::vector<int8_t>{3, 9, 15, -1, 1, 3}));
}

TEST(BinaryInt8, DivByRealZeroSaturatesAndZeroByZeroGivesTheZeroPoint) {
  OpRunner op("Div");
  // a: scale 1, zp 0: 6 6 0 -> real 6 6 0; b: scale 0.5, zp 3: 7 3 3 -> real 2 0 0
  op.AddInput<int8_t>({3}, {6, 6, 0}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, 0));
  op.AddInput<int8_t>({3}, {7, 3, 3}, DataType::kInt8);
  op.SetInputQuant(1, PerTensor(0.5f, 3));
  op.SetOutputQuant(0, PerTensor(0.5f, -1));
  ASSERT_TRUE(op.Run().ok());
  // 6 / 2 = 3 -> 6 - 1 = 5; 6 / 0 = +inf -> 127; 0 / 0 = NaN -> quantized as 0.0 -> zp -1
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{5, 127, -1}));
}

TEST(BinaryInt8, VariadicMaxAndMin) {
  // x0: scale 1, zp 0: 1 5 -> real 1 5; x1: scale 0.5, zp 0: 3 2 -> real 1.5 1;
  // x2: scale 1, zp -128: -128 -120 -> real 0 8
  auto add_inputs = [](OpRunner* op) {
    op->AddInput<int8_t>({2}, {1, 5}, DataType::kInt8);
    op->SetInputQuant(0, PerTensor(1.0f, 0));
    op->AddInput<int8_t>({2}, {3, 2}, DataType::kInt8);
    op->SetInputQuant(1, PerTensor(0.5f, 0));
    op->AddInput<int8_t>({2}, {-128, -120}, DataType::kInt8);
    op->SetInputQuant(2, PerTensor(1.0f, -128));
    op->SetOutputQuant(0, PerTensor(0.5f, 0));
  };
  OpRunner max("Max");
  add_inputs(&max);
  ASSERT_TRUE(max.Run().ok());
  // max = 1.5 8 -> / 0.5 = 3 16
  EXPECT_EQ(max.OutputValues<int8_t>(), (std::vector<int8_t>{3, 16}));
  OpRunner min("Min");
  add_inputs(&min);
  ASSERT_TRUE(min.Run().ok());
  // min = 0 1 -> 0 2
  EXPECT_EQ(min.OutputValues<int8_t>(), (std::vector<int8_t>{0, 2}));

  // One input: a requantization. real 1 5 -> scale 2, zp 1: 0.5 -> 0 (even), 2.5 -> 2 (even); + 1
  OpRunner one("Max");
  one.AddInput<int8_t>({2}, {1, 5}, DataType::kInt8);
  one.SetInputQuant(0, PerTensor(1.0f, 0));
  one.SetOutputQuant(0, PerTensor(2.0f, 1));
  ASSERT_TRUE(one.Run().ok());
  EXPECT_EQ(one.OutputValues<int8_t>(), (std::vector<int8_t>{1, 3}));
}

TEST(BinaryInt8, PReluWithFloatOrInt8SlopeAndPowWithFloatExponent) {
  // x: scale 0.5, zp 0: -4 4 -> real -2 2; slope 0.25 -> -0.5 2 -> scale 0.25: -2 8
  for (bool int8_slope : {false, true}) {
    OpRunner op("PRelu");
    op.AddInput<int8_t>({2}, {-4, 4}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(0.5f, 0));
    if (int8_slope) {
      op.AddInput<int8_t>({1}, {2}, DataType::kInt8, true);  // scale 0.125: real 0.25
      op.SetInputQuant(1, PerTensor(0.125f, 0));
    } else {
      op.AddFloatInput({1}, {0.25f}, true);
    }
    op.SetOutputQuant(0, PerTensor(0.25f, 0));
    const Status s = op.Run();
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-2, 8})) << "int8 slope " << int8_slope;
  }
  // Pow: x real -2 3, exponent 2 -> 4 9 -> scale 0.25: 16 36
  OpRunner pow("Pow");
  pow.AddInput<int8_t>({2}, {-4, 6}, DataType::kInt8);
  pow.SetInputQuant(0, PerTensor(0.5f, 0));
  pow.AddFloatInput({}, {2.0f}, true);
  pow.SetOutputQuant(0, PerTensor(0.25f, 0));
  ASSERT_TRUE(pow.Run().ok());
  EXPECT_EQ(pow.OutputValues<int8_t>(), (std::vector<int8_t>{16, 36}));
}

// Random broadcast-compatible shapes: an output of rank 1..4 with dims 1..9
// (odd sizes, tails); each operand keeps or drops leading dims and keeps or
// sets to 1 each remaining dim.
Shape RandomOperandShape(std::mt19937* rng, const Shape& out) {
  std::uniform_int_distribution<int> coin(0, 2);
  std::uniform_int_distribution<size_t> drop(0, out.size());
  const size_t lead = coin(*rng) == 0 ? drop(*rng) : 0;
  Shape s(out.begin() + static_cast<std::ptrdiff_t>(lead), out.end());
  for (int64_t& d : s) d = coin(*rng) == 0 ? 1 : d;
  return s;
}

TEST(BinaryInt8, MatchesFloatOracleOnRandomBroadcasts) {
  // The int8 reference computes each element exactly as the oracle does
  // (dequantize, the same float formula, QuantizeValue), so every element must
  // match bit for bit. (An optimized fixed-point kernel would be held to one step.)
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> rank_dist(1, 4), dim_dist(1, 9), coin(0, 1);
  const std::vector<std::string> ops = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "PRelu"};
  for (const std::string& name : ops) {
    OracleStats stats;
    for (int trial = 0; trial < 40; ++trial) {
      Shape out(static_cast<size_t>(rank_dist(rng)));
      for (int64_t& d : out) d = dim_dist(rng);
      Attributes attrs;
      std::vector<OracleInput> inputs;
      const Shape sa = name == "PRelu" ? out : RandomOperandShape(&rng, out);
      const Shape sb = RandomOperandShape(&rng, out);
      inputs.push_back(OracleInput::Int8(sa, RandomCodes(&rng, NumElements(sa)), RandomQuant(&rng)));
      if (name == "Pow") {
        // Small exponents keep most results in range; negative bases with
        // fractional exponents give NaN, quantized to the zero point on both sides.
        inputs.push_back(OracleInput::Int8(sb, RandomCodes(&rng, NumElements(sb)), RandomQuant(&rng, 0.005f, 0.02f)));
      } else if (name == "PRelu" && coin(rng) == 0) {
        std::vector<float> slope(static_cast<size_t>(NumElements(sb)));
        std::uniform_real_distribution<float> u(-0.5f, 1.0f);
        for (float& v : slope) v = u(rng);
        inputs.push_back(OracleInput::Float(sb, slope));
      } else {
        inputs.push_back(OracleInput::Int8(sb, RandomCodes(&rng, NumElements(sb)), RandomQuant(&rng)));
      }
      if ((name == "Max" || name == "Min") && coin(rng) == 0) {
        const Shape sc = RandomOperandShape(&rng, out);
        inputs.push_back(OracleInput::Int8(sc, RandomCodes(&rng, NumElements(sc)), RandomQuant(&rng)));
      }
      if (name == "Add" && coin(rng) == 0) attrs.SetString("activation", "Relu");
      // With a broadcast operand shorter than `out`, the inferred output can be
      // smaller than `out`; the oracle compares whatever both infer.
      testing::RunAgainstFloatOracle(name, attrs, inputs, {RandomQuant(&rng, 0.01f, 1.0f)}, &stats);
    }
    SCOPED_TRACE(name);
    stats.Expect(1.0);
  }
}

TEST(BinaryInt8, MaxAndMinTakePlainIntegersOthersDoNot) {
  // No quantization parameters anywhere: ONNX integer semantics (as test_max_int8 / test_min_int8).
  OpRunner max("Max");
  max.AddInput<int8_t>({3}, {-128, 5, 127}, DataType::kInt8);
  max.AddInput<int8_t>({3}, {3, -7, 126}, DataType::kInt8);
  const Status s = max.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(max.OutputValues<int8_t>(), (std::vector<int8_t>{3, 5, 127}));
  OpRunner min("Min");
  min.AddInput<int8_t>({3}, {-128, 5, 127}, DataType::kInt8);
  min.AddInput<int8_t>({1}, {0}, DataType::kInt8);
  ASSERT_TRUE(min.Run().ok());
  EXPECT_EQ(min.OutputValues<int8_t>(), (std::vector<int8_t>{-128, 0, 0}));

  // Integer Add wraps in ONNX; npurt's int8 Add is the quantized one and needs parameters.
  OpRunner add("Add");
  add.AddInput<int8_t>({1}, {100}, DataType::kInt8);
  add.AddInput<int8_t>({1}, {100}, DataType::kInt8);
  const Status a = add.Run();
  EXPECT_EQ(a.code(), StatusCode::kModelInvalid);
  EXPECT_NE(a.message().find("Add: output '' is INT8 but has no quantization parameters"), std::string::npos)
      << a.message();
}

TEST(BinaryInt8, FloatSecondOperandIsUsedAsRealValues) {
  // The compiler keeps constant scales and biases in float: a = [1, 2] at scale 0.5 is [0.5, 1];
  // + [1, 2] = [1.5, 3]; at output scale 0.5, zero point 1: codes [4, 7].
  OpRunner op("Add");
  op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f));
  op.AddFloatInput({2}, {1.0f, 2.0f}, true);
  op.SetOutputQuant(0, PerTensor(0.5f, 1));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{4, 7}));
}

// ---------------------------------------------------------------- errors

TEST(BinaryInt8, RejectsMixedTypesAndMissingOrPerAxisQuantization) {
  {  // Max compares codes: a float operand has no place there
    OpRunner op("Max");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddFloatInput({2}, {1, 2});
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Max: input 1 has type FP32"), std::string::npos) << s.message();
  }
  {  // float + int8
    OpRunner op("Mul");
    op.AddFloatInput({2}, {1, 2});
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {  // an input without quantization parameters
    OpRunner op("Sub");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Sub: input 1 'in1' is INT8 but has no quantization parameters"), std::string::npos)
        << s.message();
  }
  {  // an output without quantization parameters
    OpRunner op("Add");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(1, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Add: output"), std::string::npos) << s.message();
  }
  {  // per-axis parameters on an activation
    OpRunner op("Max");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    QuantInfo q;
    q.scale = {1.0f, 2.0f};
    q.zero_point = {0, 0};
    q.axis = 0;
    op.SetInputQuant(0, q);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("per-axis"), std::string::npos) << s.message();
  }
  {  // an integer exponent with an int8 base
    OpRunner op("Pow");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInt64Input({}, {2});
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Pow: input 1 has type INT64"), std::string::npos) << s.message();
  }
  {  // uint8 activations are not an npurt quantized type
    OpRunner op("Add");
    op.AddInput<uint8_t>({2}, {1, 2}, DataType::kUint8);
    op.AddInput<uint8_t>({2}, {1, 2}, DataType::kUint8);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {  // a fused activation other than Relu
    OpRunner op("Add");
    op.attrs().SetString("activation", "Clip");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(1, PerTensor(1.0f));
    op.SetOutputQuant(0, PerTensor(1.0f));
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
