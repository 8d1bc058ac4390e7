#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(GatherOp, Axis0RowsWithInt64Indices) {
  OpRunner op("Gather");
  op.AddFloatInput({3, 2}, {1, 2, 3, 4, 5, 6});
  op.AddInt64Input({2, 2}, {0, 2, -1, 1}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 2, 5, 6, 5, 6, 3, 4}));
}

TEST(GatherOp, InnerAxisInt32IndicesInt16Data) {
  OpRunner op("Gather");
  op.attrs().SetInt("axis", -1);
  op.AddInput<int16_t>({2, 3}, {10, 11, 12, 20, 21, 22}, DataType::kInt16);
  op.AddInput<int32_t>({3}, {2, -3, 2}, DataType::kInt32, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(op.OutputValues<int16_t>(), (std::vector<int16_t>{12, 10, 12, 22, 20, 22}));
}

TEST(GatherOp, ScalarIndexDropsTheAxis) {
  OpRunner op("Gather");
  op.attrs().SetInt("axis", 1);
  op.AddInput<int64_t>({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, DataType::kInt64, false);
  op.AddInt64Input({}, {1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{2, 3, 8, 9}));
}

TEST(GatherOp, MiddleAxisMatchesIndependentLoop) {
  std::vector<float> data(2 * 4 * 3);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  const std::vector<int64_t> indices = {3, 0, -2, 1, 1};
  OpRunner op("Gather");
  op.attrs().SetInt("axis", 1);
  op.AddFloatInput({2, 4, 3}, data);
  op.AddInt64Input({5}, indices, false);
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.OutputShape(), (Shape{2, 5, 3}));
  std::vector<float> expected;
  for (int a = 0; a < 2; ++a) {
    for (int64_t idx : indices) {
      const int64_t row = idx < 0 ? idx + 4 : idx;
      for (int c = 0; c < 3; ++c) expected.push_back(data[(a * 4 + row) * 3 + c]);
    }
  }
  EXPECT_EQ(op.FloatOutput(), expected);
}

TEST(GatherOp, EmptyIndices) {
  OpRunner op("Gather");
  op.AddFloatInput({3, 2}, {1, 2, 3, 4, 5, 6});
  op.AddInt64Input({0}, {}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{0, 2}));
}

TEST(GatherOp, RuntimeIndexOutOfRangeFailsEval) {
  for (int64_t bad : std::vector<int64_t>{3, -4, INT64_MAX, INT64_MIN}) {
    OpRunner op("Gather");
    op.AddFloatInput({3}, {1, 2, 3});
    op.AddInt64Input({2}, {0, bad}, false);
    EXPECT_EQ(op.Run().code(), StatusCode::kFail) << bad;
  }
  OpRunner int32("Gather");
  int32.AddFloatInput({3}, {1, 2, 3});
  int32.AddInput<int32_t>({1}, {-4}, DataType::kInt32, false);
  EXPECT_EQ(int32.Run().code(), StatusCode::kFail);
}

TEST(GatherOp, RejectsBadModels) {
  {
    OpRunner op("Gather");  // constant index out of range is caught at infer
    op.AddFloatInput({3}, {1, 2, 3});
    op.AddInt64Input({1}, {3});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Gather");
    op.attrs().SetInt("axis", 2);
    op.AddFloatInput({3, 1}, {1, 2, 3});
    op.AddInt64Input({1}, {0});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Gather");  // float indices
    op.AddFloatInput({3}, {1, 2, 3});
    op.AddFloatInput({1}, {0}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Gather");  // scalar data
    op.AddFloatInput({}, {1});
    op.AddInt64Input({}, {0});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Gather");
    op.AddFloatInput({3}, {1, 2, 3});
    op.AddAbsentInput();
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt

namespace npurt {
namespace {

TEST(GatherElementsOp, PicksAlongTheAxis) {
  // The ONNX example: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]], axis 1 -> [[1, 1], [4, 3]].
  testing::OpRunner op("GatherElements");
  op.attrs().SetInt("axis", 1);
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddInt64Input({2, 2}, {0, 0, 1, 0}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 1, 4, 3}));

  // Axis 0, negative indices, indices smaller than the data on the other dim, int32 indices.
  testing::OpRunner rows("GatherElements");
  rows.AddFloatInput({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  rows.AddInput<int32_t>({2, 2}, {-1, 0, 1, 2}, DataType::kInt32);
  ASSERT_TRUE(rows.Run().ok());
  EXPECT_EQ(rows.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(rows.FloatOutput(), (std::vector<float>{7, 2, 4, 8}));
}

TEST(GatherElementsOp, RejectsBadIndices) {
  testing::OpRunner constant("GatherElements");
  constant.AddFloatInput({2}, {1, 2});
  constant.AddInt64Input({1}, {2});
  EXPECT_EQ(constant.Run().code(), StatusCode::kModelInvalid);

  testing::OpRunner runtime("GatherElements");  // computed indices fail eval
  runtime.AddFloatInput({2}, {1, 2});
  runtime.AddInt64Input({1}, {-3}, false);
  EXPECT_EQ(runtime.Run().code(), StatusCode::kFail);

  testing::OpRunner rank("GatherElements");
  rank.AddFloatInput({2, 2}, {1, 2, 3, 4});
  rank.AddInt64Input({2}, {0, 1}, false);
  EXPECT_EQ(rank.Run().code(), StatusCode::kModelInvalid);

  testing::OpRunner wide("GatherElements");  // indices wider than the data off the axis
  wide.AddFloatInput({2, 2}, {1, 2, 3, 4});
  wide.AddInt64Input({1, 3}, {0, 0, 0}, false);
  EXPECT_EQ(wide.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
