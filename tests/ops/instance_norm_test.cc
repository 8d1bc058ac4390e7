// InstanceNormalization, GroupNormalization, MeanVarianceNormalization, LpNormalization and LRN
// against values computed by hand (numpy, double precision) and their errors.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

const std::vector<float> kTwoChannels = {1, 2, 3, 4, 2, 4, 6, 8};  // [1, 2, 4]

TEST(InstanceNormOp, PerSampleChannelStatistics) {
  OpRunner op("InstanceNormalization");
  op.AddFloatInput({1, 2, 4}, kTwoChannels);
  op.AddFloatInput({2}, {1, 2}, true);
  op.AddFloatInput({2}, {0, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(),
                {-1.34163542f, -0.44721181f, 0.44721181f, 1.34163542f, -1.68327889f, 0.1055737f, 1.8944263f,
                 3.68327889f},
                1e-5f);
}

TEST(InstanceNormOp, GroupNormalizationPerGroupAndPerChannelAffine) {
  OpRunner op("GroupNormalization");  // one group over both channels, opset 18's per-group scale and bias
  op.attrs().SetInt("num_groups", 1);
  op.AddFloatInput({1, 2, 4}, kTwoChannels);
  op.AddFloatInput({1}, {0.5f}, true);
  op.AddFloatInput({1}, {1}, true);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(),
                {0.36491538f, 0.59585524f, 0.8267951f, 1.05773497f, 0.59585524f, 1.05773497f, 1.51961469f,
                 1.98149441f},
                1e-5f);

  // Groups of one channel with per-channel affine (opset 21's form) equal InstanceNormalization.
  OpRunner groups("GroupNormalization");
  groups.attrs().SetInt("num_groups", 2);
  groups.AddFloatInput({1, 2, 4}, kTwoChannels);
  groups.AddFloatInput({2}, {1, 2}, true);
  groups.AddFloatInput({2}, {0, 1}, true);
  ASSERT_TRUE(groups.Run().ok());
  ExpectAllNear(groups.FloatOutput(),
                {-1.34163542f, -0.44721181f, 0.44721181f, 1.34163542f, -1.68327889f, 0.1055737f, 1.8944263f,
                 3.68327889f},
                1e-5f);
}

TEST(InstanceNormOp, MeanVarianceOverChosenAxes) {
  OpRunner op("MeanVarianceNormalization");
  op.attrs().SetInts("axes", {0, 2});
  op.AddFloatInput({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {-1.22474487f, 0, 1.22474487f, -1.22474487f, 0, 1.22474487f}, 1e-5f);

  OpRunner by_default("MeanVarianceNormalization");  // axes [0, 2, 3]: per channel of NCHW
  by_default.AddFloatInput({1, 2, 1, 3}, {1, 2, 3, 40, 50, 60});
  ASSERT_TRUE(by_default.Run().ok());
  ExpectAllNear(by_default.FloatOutput(), {-1.22474487f, 0, 1.22474487f, -1.22474487f, 0, 1.22474487f}, 1e-5f);
}

TEST(InstanceNormOp, LpNormalizationL1AndL2) {
  OpRunner l2("LpNormalization");  // default axis -1, p 2
  l2.AddFloatInput({2, 2}, {3, 4, 1, -1});
  ASSERT_TRUE(l2.Run().ok());
  ExpectAllNear(l2.FloatOutput(), {0.6f, 0.8f, 0.70710678f, -0.70710678f}, 1e-6f);

  OpRunner l1("LpNormalization");
  l1.attrs().SetInt("axis", 0);
  l1.attrs().SetInt("p", 1);
  l1.AddFloatInput({2, 2}, {3, 4, 1, -1});
  ASSERT_TRUE(l1.Run().ok());
  ExpectAllNear(l1.FloatOutput(), {0.75f, 0.8f, 0.25f, -0.2f}, 1e-6f);
}

TEST(InstanceNormOp, LrnAcrossChannels) {
  OpRunner op("LRN");
  op.attrs().SetInt("size", 3);
  op.AddFloatInput({1, 3, 1, 1}, {1, 2, 3});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {0.999875018f, 1.999300286f, 2.99902537f}, 1e-6f);

  OpRunner custom("LRN");
  custom.attrs().SetInt("size", 3);
  custom.attrs().SetFloat("alpha", 0.5f);
  custom.attrs().SetFloat("beta", 0.5f);
  custom.attrs().SetFloat("bias", 2.0f);
  custom.AddFloatInput({1, 3, 1, 1}, {1, 2, 3});
  ASSERT_TRUE(custom.Run().ok());
  ExpectAllNear(custom.FloatOutput(), {0.594088526f, 0.960768923f, 1.469693846f}, 1e-6f);

  // An even size: floor((size - 1) / 2) = 0 channels before, ceil((size - 1) / 2) = 1 after.
  OpRunner even("LRN");
  even.attrs().SetInt("size", 2);
  even.attrs().SetFloat("alpha", 1.0f);
  even.attrs().SetFloat("beta", 1.0f);
  even.AddFloatInput({1, 3, 1, 1}, {1, 2, 3});
  ASSERT_TRUE(even.Run().ok());
  ExpectAllNear(even.FloatOutput(), {1 / 3.5f, 2 / 7.5f, 3 / 5.5f}, 1e-6f);
}

TEST(InstanceNormOp, RejectsBadModels) {
  OpRunner groups("GroupNormalization");
  groups.attrs().SetInt("num_groups", 3);  // does not divide 2 channels
  groups.AddFloatInput({1, 2, 4}, kTwoChannels);
  groups.AddFloatInput({3}, {1, 1, 1}, true);
  groups.AddFloatInput({3}, {0, 0, 0}, true);
  EXPECT_EQ(groups.Run().code(), StatusCode::kModelInvalid);

  OpRunner scale("InstanceNormalization");
  scale.AddFloatInput({1, 2, 4}, kTwoChannels);
  scale.AddFloatInput({3}, {1, 1, 1}, true);
  scale.AddFloatInput({2}, {0, 0}, true);
  EXPECT_EQ(scale.Run().code(), StatusCode::kModelInvalid);

  OpRunner rank("InstanceNormalization");
  rank.AddFloatInput({4}, {1, 2, 3, 4});
  rank.AddFloatInput({4}, {1, 1, 1, 1}, true);
  rank.AddFloatInput({4}, {0, 0, 0, 0}, true);
  EXPECT_EQ(rank.Run().code(), StatusCode::kModelInvalid);

  OpRunner p("LpNormalization");
  p.attrs().SetInt("p", 3);
  p.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(p.Run().code(), StatusCode::kModelInvalid);

  OpRunner size("LRN");
  size.AddFloatInput({1, 2, 1, 1}, {1, 2});  // size is required
  EXPECT_EQ(size.Run().code(), StatusCode::kModelInvalid);

  OpRunner axes("MeanVarianceNormalization");
  axes.attrs().SetInts("axes", {1, 1});
  axes.AddFloatInput({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(axes.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
