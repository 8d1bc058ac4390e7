// Int8 Softmax (runtime/kernels/ref/softmax.h): a hand-computed case, the float
// oracle on random shapes and axes, error paths.
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

TEST(SoftmaxInt8, HandComputedRows) {
  OpRunner op("Softmax");
  // scale ln 2, zp 0. Row 0: codes 0 1 2 -> real 0 ln2 2ln2 -> exp 1 2 4 -> 1/7 2/7 4/7
  //   = 0.142857 0.285714 0.571429 -> output scale 1/256, zp -128: 36.57 73.14 146.29 -> 37 73 146 -> -91 -55 18
  // Row 1: codes -128 127 127 -> exp(-255 ln2) ~ 0, 1, 1 -> 0 0.5 0.5 -> 0 128 128 -> -128 0 0
  op.AddInput<int8_t>({2, 3}, {0, 1, 2, -128, 127, 127}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.6931472f, 0));
  op.SetOutputQuant(0, PerTensor(1.0f / 256.0f, -128));
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-91, -55, 18, -128, 0, 0}));
}

TEST(SoftmaxInt8, MatchesFloatOracleOnRandomShapesAndAxes) {
  // The reference runs the float softmax's own arithmetic on the dequantized
  // values (same exponentials, same double sum, same final product), so it
  // equals the oracle bit for bit.
  std::mt19937 rng(31337);
  std::uniform_int_distribution<int> rank_dist(1, 4), dim_dist(1, 11), coin(0, 1);
  OracleStats stats;
  for (int trial = 0; trial < 120; ++trial) {
    Shape shape(static_cast<size_t>(rank_dist(rng)));
    for (int64_t& d : shape) d = dim_dist(rng);
    const int rank = static_cast<int>(shape.size());
    std::uniform_int_distribution<int> axis_dist(-rank, rank - 1);
    Attributes attrs;
    attrs.SetInt("axis", axis_dist(rng));
    if (coin(rng) == 0) attrs.SetInt("opset", 11);  // normalize over everything from the axis on
    const OracleInput x =
        OracleInput::Int8(shape, RandomCodes(&rng, NumElements(shape)), RandomQuant(&rng, 0.01f, 0.2f));
    // Outputs in [0, 1]: typical scales 1/256 with zp -128, plus random ones.
    const QuantInfo out = coin(rng) == 0 ? PerTensor(1.0f / 256.0f, -128) : RandomQuant(&rng, 0.002f, 0.01f);
    testing::RunAgainstFloatOracle("Softmax", attrs, {x}, {out}, &stats);
  }
  stats.Expect(1.0);
}

TEST(SoftmaxInt8, LogSoftmaxMatchesFloatOracle) {
  std::mt19937 rng(2718);
  std::uniform_int_distribution<int> rank_dist(1, 3), dim_dist(1, 9), coin(0, 1);
  OracleStats stats;
  for (int trial = 0; trial < 60; ++trial) {
    Shape shape(static_cast<size_t>(rank_dist(rng)));
    for (int64_t& d : shape) d = dim_dist(rng);
    const int rank = static_cast<int>(shape.size());
    std::uniform_int_distribution<int> axis_dist(-rank, rank - 1);
    Attributes attrs;
    attrs.SetInt("axis", axis_dist(rng));
    if (coin(rng) == 0) attrs.SetInt("opset", 11);
    const OracleInput x =
        OracleInput::Int8(shape, RandomCodes(&rng, NumElements(shape)), RandomQuant(&rng, 0.01f, 0.2f));
    // Outputs <= 0: a zero point near the top of the range.
    const QuantInfo out = PerTensor(std::uniform_real_distribution<float>(0.02f, 0.1f)(rng), 120);
    testing::RunAgainstFloatOracle("LogSoftmax", attrs, {x}, {out}, &stats);
  }
  stats.Expect(1.0);
}

TEST(SoftmaxInt8, RejectsMissingQuantization) {
  OpRunner op("Softmax");
  op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.1f));
  const Status s = op.Run();
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("Softmax: output '' is INT8 but has no quantization parameters"), std::string::npos)
      << s.message();

  OpRunner u8("Softmax");
  u8.AddInput<uint8_t>({2}, {1, 2}, DataType::kUint8);
  EXPECT_EQ(u8.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
