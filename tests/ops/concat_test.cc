#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(ConcatOp, InnerAxisFloat) {
  OpRunner op("Concat");
  op.attrs().SetInt("axis", 1);
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddFloatInput({2, 3}, {5, 6, 7, 8, 9, 10});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 5}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 2, 5, 6, 7, 3, 4, 8, 9, 10}));
}

TEST(ConcatOp, NegativeAxisWithZeroSizeInputInt8) {
  OpRunner op("Concat");
  op.attrs().SetInt("axis", -2);
  op.AddInput<int8_t>({1, 1, 2}, {1, 2}, DataType::kInt8);
  op.AddInput<int8_t>({1, 0, 2}, {}, DataType::kInt8);
  op.AddInput<int8_t>({1, 2, 2}, {-3, -4, -5, -6}, DataType::kInt8);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 3, 2}));
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{1, 2, -3, -4, -5, -6}));
}

TEST(ConcatOp, OuterAxisInt64) {
  OpRunner op("Concat");
  op.attrs().SetInt("axis", 0);
  op.AddInt64Input({1, 2}, {int64_t{1} << 40, -1}, false);
  op.AddInt64Input({2, 2}, {3, 4, 5, 6}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 2}));
  EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{int64_t{1} << 40, -1, 3, 4, 5, 6}));
}

TEST(ConcatOp, MiddleAxisMatchesIndependentLoop) {
  // [2,3,4] ++ [2,1,4] along axis 1, checked against a direct index formula.
  std::vector<uint16_t> a(24), b(8);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint16_t>(i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint16_t>(100 + i);
  OpRunner op("Concat");
  op.attrs().SetInt("axis", 1);
  op.AddInput<uint16_t>({2, 3, 4}, a, DataType::kFloat16);
  op.AddInput<uint16_t>({2, 1, 4}, b, DataType::kFloat16);
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.OutputShape(), (Shape{2, 4, 4}));
  std::vector<uint16_t> expected;
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 4; ++c) {
      for (int w = 0; w < 4; ++w) expected.push_back(c < 3 ? a[(n * 3 + c) * 4 + w] : b[n * 4 + w]);
    }
  }
  EXPECT_EQ(op.OutputValues<uint16_t>(), expected);
}

TEST(ConcatOp, SingleInputAndAllEmpty) {
  OpRunner single("Concat");
  single.attrs().SetInt("axis", 0);
  single.AddFloatInput({3}, {1, 2, 3});
  ASSERT_TRUE(single.Run().ok());
  EXPECT_EQ(single.FloatOutput(), (std::vector<float>{1, 2, 3}));

  OpRunner empty("Concat");
  empty.attrs().SetInt("axis", 1);
  empty.AddFloatInput({2, 0}, {});
  empty.AddFloatInput({2, 0}, {});
  ASSERT_TRUE(empty.Run().ok());
  EXPECT_EQ(empty.OutputShape(), (Shape{2, 0}));
}

TEST(ConcatOp, RejectsBadModels) {
  {
    OpRunner op("Concat");  // axis is required
    op.AddFloatInput({2}, {1, 2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 2);
    op.AddFloatInput({2, 2}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");  // dims differ outside the axis
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({1, 2}, {1, 2});
    op.AddFloatInput({1, 3}, {1, 2, 3});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");  // rank differs
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({2}, {1, 2});
    op.AddFloatInput({1, 2}, {1, 2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");  // types differ
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({2}, {1, 2});
    op.AddInt64Input({2}, {1, 2}, false);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");  // scalars cannot be concatenated
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({}, {1});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({2}, {1, 2});
    op.AddAbsentInput();
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Concat");  // the output dim overflows
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({INT64_MAX}, {});
    op.AddFloatInput({INT64_MAX}, {});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
