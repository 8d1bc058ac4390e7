// Int8 Concat (runtime/kernels/ref/concat.h): requantization of each input to
// the output's parameters, the float oracle on random shapes, error paths.
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

TEST(ConcatInt8, RequantizesInputsWhoseParametersDiffer) {
  OpRunner op("Concat");
  op.attrs().SetInt("axis", 1);
  // in0 [2, 2]: scale 0.5, zp 0 (the output's): copied as is.
  op.AddInput<int8_t>({2, 2}, {2, -4, 127, -128}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 0));
  // in1 [2, 1]: scale 0.25, zp 4: codes 10 5 -> real 1.5 0.25 -> / 0.5 = 3 0.5 -> 3 0 (half to even)
  op.AddInput<int8_t>({2, 1}, {10, 5}, DataType::kInt8);
  op.SetInputQuant(1, PerTensor(0.25f, 4));
  op.SetOutputQuant(0, PerTensor(0.5f, 0));
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{2, -4, 3, 127, -128, 0}));
}

TEST(ConcatInt8, EqualParametersOrNoneAreAPlainCopy) {
  for (bool quantized : {true, false}) {
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddInput<int8_t>({2}, {-128, 127}, DataType::kInt8);
    op.AddInput<int8_t>({0}, {}, DataType::kInt8);  // zero-size: contributes nothing
    op.AddInput<int8_t>({1}, {7}, DataType::kInt8);
    if (quantized) {
      for (size_t i = 0; i < 3; ++i) op.SetInputQuant(i, PerTensor(0.1f, -3));
      op.SetOutputQuant(0, PerTensor(0.1f, -3));
    }
    const Status s = op.Run();
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-128, 127, 7})) << "quantized " << quantized;
  }
}

TEST(ConcatInt8, MatchesFloatOracleOnRandomShapes) {
  // Requantizing a code is QuantizeValue(DequantizeValue(q)), which is what the
  // oracle does to the float copy: bit-exact.
  std::mt19937 rng(555);
  std::uniform_int_distribution<int> rank_dist(1, 4), dim_dist(1, 7), count_dist(1, 4), coin(0, 2);
  OracleStats stats;
  for (int trial = 0; trial < 100; ++trial) {
    Shape base(static_cast<size_t>(rank_dist(rng)));
    for (int64_t& d : base) d = dim_dist(rng);
    const int rank = static_cast<int>(base.size());
    std::uniform_int_distribution<int> axis_dist(-rank, rank - 1);
    const int axis_attr = axis_dist(rng);
    const size_t axis = static_cast<size_t>(axis_attr < 0 ? axis_attr + rank : axis_attr);
    Attributes attrs;
    attrs.SetInt("axis", axis_attr);
    const QuantInfo out_q = RandomQuant(&rng);
    std::vector<OracleInput> inputs;
    const int n = count_dist(rng);
    for (int i = 0; i < n; ++i) {
      Shape s = base;
      s[axis] = dim_dist(rng) - 1;  // 0 .. 6 along the axis
      const QuantInfo q = coin(rng) == 0 ? out_q : RandomQuant(&rng);
      inputs.push_back(OracleInput::Int8(s, RandomCodes(&rng, NumElements(s)), q));
    }
    testing::RunAgainstFloatOracle("Concat", attrs, inputs, {out_q}, &stats);
  }
  stats.Expect(1.0);
}

TEST(ConcatInt8, RejectsMissingOrPerAxisQuantizationAndMixedTypes) {
  {  // input 1 lacks parameters while the others have them
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddInput<int8_t>({1}, {1}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddInput<int8_t>({1}, {1}, DataType::kInt8);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Concat: input 1 'in1' is INT8 but has no quantization parameters"),
              std::string::npos)
        << s.message();
  }
  {  // the output lacks parameters
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddInput<int8_t>({1}, {1}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Concat: output"), std::string::npos) << s.message();
  }
  {  // per-axis parameters
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    QuantInfo q;
    q.scale = {1.0f, 2.0f};
    q.axis = 0;
    op.SetInputQuant(0, q);
    op.SetOutputQuant(0, PerTensor(1.0f));
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {  // int8 with float
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddInput<int8_t>({1}, {1}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    op.AddFloatInput({1}, {1.0f});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
