#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(SplitOp, EqualSplitDefaultAxis) {
  OpRunner op("Split");
  op.AddFloatInput({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(op.Run(2).ok());
  EXPECT_EQ(op.OutputShape(0), (Shape{2, 2}));
  EXPECT_EQ(op.FloatOutput(0), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(op.FloatOutput(1), (std::vector<float>{5, 6, 7, 8}));
}

TEST(SplitOp, SizesFromAttributeOnInnerAxis) {
  OpRunner op("Split");
  op.attrs().SetInt("axis", -1);
  op.attrs().SetInts("split", {1, 0, 3});
  op.AddInput<int32_t>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}, DataType::kInt32);
  ASSERT_TRUE(op.Run(3).ok());
  EXPECT_EQ(op.OutputShape(0), (Shape{2, 1}));
  EXPECT_EQ(op.OutputShape(1), (Shape{2, 0}));
  EXPECT_EQ(op.OutputShape(2), (Shape{2, 3}));
  EXPECT_EQ(op.OutputValues<int32_t>(0), (std::vector<int32_t>{1, 5}));
  EXPECT_EQ(op.OutputValues<int32_t>(2), (std::vector<int32_t>{2, 3, 4, 6, 7, 8}));
}

TEST(SplitOp, SizesFromConstantInput) {
  OpRunner op("Split");
  op.attrs().SetInt("axis", 1);
  op.AddInput<uint8_t>({1, 5, 1}, {10, 11, 12, 13, 14}, DataType::kUint8);
  op.AddInt64Input({2}, {2, 3});
  ASSERT_TRUE(op.Run(2).ok());
  EXPECT_EQ(op.OutputShape(1), (Shape{1, 3, 1}));
  EXPECT_EQ(op.OutputValues<uint8_t>(0), (std::vector<uint8_t>{10, 11}));
  EXPECT_EQ(op.OutputValues<uint8_t>(1), (std::vector<uint8_t>{12, 13, 14}));
}

TEST(SplitOp, NumOutputsGivesSmallerLastChunk) {
  // Opset 18: 7 into 3 -> ceil(7/3) = 3, 3, 1.
  OpRunner op("Split");
  op.attrs().SetInt("num_outputs", 3);
  op.AddFloatInput({7}, {0, 1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(op.Run(3).ok());
  EXPECT_EQ(op.FloatOutput(0), (std::vector<float>{0, 1, 2}));
  EXPECT_EQ(op.FloatOutput(1), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(op.FloatOutput(2), (std::vector<float>{6}));
}

TEST(SplitOp, RejectsBadModels) {
  {
    OpRunner op("Split");  // 5 is not divisible by 2 without num_outputs
    op.AddFloatInput({5}, {1, 2, 3, 4, 5});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // sizes do not add up
    op.attrs().SetInts("split", {1, 2});
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // one size per output
    op.attrs().SetInts("split", {4});
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // negative size
    op.attrs().SetInts("split", {-1, 5});
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // huge sizes must not overflow the sum
    op.attrs().SetInts("split", {INT64_MAX, INT64_MAX, 2});
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(3).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // num_outputs disagrees with the node
    op.attrs().SetInt("num_outputs", 3);
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // 5 into 4 chunks of 2 leaves nothing for the last
    op.attrs().SetInt("num_outputs", 4);
    op.AddFloatInput({5}, {1, 2, 3, 4, 5});
    EXPECT_EQ(op.Run(4).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");
    op.attrs().SetInt("axis", 1);
    op.AddFloatInput({4}, {1, 2, 3, 4});
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Split");  // sizes must be constant
    op.AddFloatInput({4}, {1, 2, 3, 4});
    op.AddInt64Input({2}, {2, 2}, false);
    EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
