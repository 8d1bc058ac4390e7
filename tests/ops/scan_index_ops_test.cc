// Mod, CumSum, EyeLike, ReverseSequence: hand-computed values (signs of remainders, exclusive and
// reverse sums, diagonals, per-sequence lengths) and rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(ModOp, IntegerRemainderTakesTheDivisorsSign) {
  OpRunner op("Mod");
  op.AddInt64Input({4}, {7, -7, 7, -7}, false);
  op.AddInt64Input({4}, {3, 3, -3, -3}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{1, 2, -2, -1}));  // Python: 7 % -3 == -2

  OpRunner fmod("Mod");  // C's fmod: the dividend's sign
  fmod.attrs().SetInt("fmod", 1);
  fmod.AddInput<int32_t>({4}, {7, -7, 7, -7}, DataType::kInt32);
  fmod.AddInput<int32_t>({1}, {3}, DataType::kInt32);
  ASSERT_TRUE(fmod.Run().ok());
  EXPECT_EQ(fmod.OutputValues<int32_t>(), (std::vector<int32_t>{1, -1, 1, -1}));

  OpRunner edges("Mod");  // x mod 0 and INT_MIN mod -1 are 0, not a trap
  edges.AddInt64Input({2}, {5, std::numeric_limits<int64_t>::min()}, false);
  edges.AddInt64Input({2}, {0, -1}, false);
  ASSERT_TRUE(edges.Run().ok());
  EXPECT_EQ(edges.OutputValues<int64_t>(), (std::vector<int64_t>{0, 0}));
}

TEST(ModOp, FloatsNeedFmod) {
  OpRunner op("Mod");
  op.attrs().SetInt("fmod", 1);
  op.AddFloatInput({3}, {5.5f, -5.5f, 1});
  op.AddFloatInput({3}, {2, 2, 0});
  ASSERT_TRUE(op.Run().ok());
  const std::vector<float> y = op.FloatOutput();
  EXPECT_EQ(y[0], 1.5f);
  EXPECT_EQ(y[1], -1.5f);
  EXPECT_TRUE(std::isnan(y[2]));

  OpRunner no_fmod("Mod");
  no_fmod.AddFloatInput({1}, {1});
  no_fmod.AddFloatInput({1}, {2});
  EXPECT_EQ(no_fmod.Run().code(), StatusCode::kModelInvalid);
}

TEST(CumSumOp, ExclusiveAndReverse) {
  auto run = [](int exclusive, int reverse) {
    OpRunner op("CumSum");
    op.attrs().SetInt("exclusive", exclusive);
    op.attrs().SetInt("reverse", reverse);
    op.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
    op.AddInt64Input({}, {1});
    EXPECT_TRUE(op.Run().ok());
    return op.FloatOutput();
  };
  EXPECT_EQ(run(0, 0), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(run(1, 0), (std::vector<float>{0, 1, 3, 0, 4, 9}));
  EXPECT_EQ(run(0, 1), (std::vector<float>{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(run(1, 1), (std::vector<float>{5, 3, 0, 11, 6, 0}));

  OpRunner columns("CumSum");  // axis -2 given at run time, int32 values
  columns.AddInput<int32_t>({2, 2}, {1, 2, 3, 4}, DataType::kInt32);
  columns.AddInput<int32_t>({1}, {-2}, DataType::kInt32, false);
  ASSERT_TRUE(columns.Run().ok());
  EXPECT_EQ(columns.OutputValues<int32_t>(), (std::vector<int32_t>{1, 2, 4, 6}));

  OpRunner bad_axis("CumSum");
  bad_axis.AddFloatInput({2}, {1, 2});
  bad_axis.AddInt64Input({}, {1});
  EXPECT_EQ(bad_axis.Run().code(), StatusCode::kModelInvalid);
}

TEST(EyeLikeOp, DiagonalsAndTypes) {
  OpRunner op("EyeLike");
  op.AddFloatInput({2, 3}, std::vector<float>(6, 7.0f));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 0, 0, 0, 1, 0}));

  OpRunner above("EyeLike");
  above.attrs().SetInt("k", 1);
  above.attrs().SetInt("dtype", static_cast<int64_t>(DataType::kInt32));
  above.AddFloatInput({3, 3}, std::vector<float>(9));
  ASSERT_TRUE(above.Run().ok());
  EXPECT_EQ(above.output().dtype, DataType::kInt32);
  EXPECT_EQ(above.OutputValues<int32_t>(), (std::vector<int32_t>{0, 1, 0, 0, 0, 1, 0, 0, 0}));

  OpRunner below("EyeLike");
  below.attrs().SetInt("k", -2);
  below.AddInt64Input({3, 2}, std::vector<int64_t>(6), false);
  ASSERT_TRUE(below.Run().ok());
  EXPECT_EQ(below.OutputValues<int64_t>(), (std::vector<int64_t>{0, 0, 0, 0, 1, 0}));

  OpRunner rank("EyeLike");
  rank.AddFloatInput({3}, {0, 0, 0});
  EXPECT_EQ(rank.Run().code(), StatusCode::kModelInvalid);
}

TEST(ReverseSequenceOp, ReversesEachSequencesLeadingSteps) {
  // Time-major [time 4, batch 2, 1]: sequence 0 reversed over 3 steps, sequence 1 over 4.
  OpRunner op("ReverseSequence");
  op.AddFloatInput({4, 2, 1}, {0, 10, 1, 11, 2, 12, 3, 13});
  op.AddInt64Input({2}, {3, 4}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{2, 13, 1, 12, 0, 11, 3, 10}));

  OpRunner batch_major("ReverseSequence");
  batch_major.attrs().SetInt("batch_axis", 0);
  batch_major.attrs().SetInt("time_axis", 1);
  batch_major.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  batch_major.AddInt64Input({2}, {2, 0}, false);
  ASSERT_TRUE(batch_major.Run().ok());
  EXPECT_EQ(batch_major.FloatOutput(), (std::vector<float>{2, 1, 3, 4, 5, 6}));

  OpRunner too_long("ReverseSequence");
  too_long.AddFloatInput({2, 1}, {1, 2});
  too_long.AddInt64Input({1}, {3}, false);
  EXPECT_EQ(too_long.Run().code(), StatusCode::kFail);

  OpRunner axes("ReverseSequence");
  axes.attrs().SetInt("batch_axis", 1);
  axes.attrs().SetInt("time_axis", 1);
  axes.AddFloatInput({2, 2}, {1, 2, 3, 4});
  axes.AddInt64Input({2}, {1, 1}, false);
  EXPECT_EQ(axes.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
