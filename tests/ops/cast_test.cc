#include <gtest/gtest.h>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(CastOp, FloatToInt32TruncatesTowardZero) {
  OpRunner op("Cast");
  op.attrs().SetInt("dtype", static_cast<int>(DataType::kInt32));
  op.AddFloatInput({5}, {1.9f, -1.9f, 0.5f, -0.5f, 3.0f});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int32_t>(), (std::vector<int32_t>{1, -1, 0, 0, 3}));
}

TEST(CastOp, FloatToHalfRoundsToNearestEven) {
  OpRunner op("Cast");
  op.attrs().SetInt("dtype", static_cast<int>(DataType::kFloat16));
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even -> 1.0 (0x3c00).
  op.AddFloatInput({4}, {1.0f, 1.0f + 1.0f / 2048, 65504.0f, 1e6f});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0x3c00, 0x7bff, 0x7c00}));
}

TEST(CastOp, Int64ToBoolAndFloat) {
  OpRunner to_bool("Cast");
  to_bool.attrs().SetInt("dtype", static_cast<int>(DataType::kBool));
  to_bool.AddInt64Input({3}, {0, 7, -1}, false);
  ASSERT_TRUE(to_bool.Run().ok());
  EXPECT_EQ(to_bool.OutputValues<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));

  OpRunner to_float("Cast");
  to_float.attrs().SetInt("dtype", static_cast<int>(DataType::kFloat32));
  to_float.AddInt64Input({2}, {-3, 16777216}, false);
  ASSERT_TRUE(to_float.Run().ok());
  EXPECT_EQ(to_float.FloatOutput(), (std::vector<float>{-3.0f, 16777216.0f}));
}

TEST(CastOp, RejectsUnknownTargetType) {
  OpRunner op("Cast");
  op.attrs().SetInt("dtype", 42);
  op.AddFloatInput({1}, {1.0f});
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
