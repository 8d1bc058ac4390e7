#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(QuantizeLinearOp, RoundsHalfToEvenAndSaturatesToInt8) {
  OpRunner op("QuantizeLinear");
  // scale 0.5: x / scale = 0.5, 1.5, 2.5, -0.5, -1.5, 300, -300, 7.2
  op.AddFloatInput({8}, {0.25f, 0.75f, 1.25f, -0.25f, -0.75f, 150.0f, -150.0f, 3.6f});
  op.AddFloatInput({}, {0.5f}, true);
  op.AddInput<int8_t>({}, {3}, DataType::kInt8, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  // round(0.5)=0, round(1.5)=2, round(2.5)=2, round(-0.5)=0, round(-1.5)=-2, then +3, saturated.
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{3, 5, 5, 3, 1, 127, -128, 10}));
}

TEST(QuantizeLinearOp, WithoutZeroPointGivesUint8) {
  OpRunner op("QuantizeLinear");
  op.AddFloatInput({4}, {-1.0f, 0.0f, 2.0f, 1000.0f});
  op.AddFloatInput({}, {2.0f}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kUint8);
  EXPECT_EQ(op.OutputValues<uint8_t>(), (std::vector<uint8_t>{0, 0, 1, 255}));
}

TEST(QuantizeLinearOp, PerAxisScalesAndZeroPoints) {
  OpRunner op("QuantizeLinear");
  op.attrs().SetInt("axis", 1);
  // x [1, 2, 2]: channel 0 scale 1 zp 0, channel 1 scale 0.1 zp -10.
  op.AddFloatInput({1, 2, 2}, {1.0f, -2.0f, 0.3f, -0.7f});
  op.AddFloatInput({2}, {1.0f, 0.1f}, true);
  op.AddInput<int8_t>({2}, {0, -10}, DataType::kInt8, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{1, -2, -7, -17}));
}

TEST(QuantizeLinearOp, RejectsBadParameters) {
  {
    OpRunner op("QuantizeLinear");  // 3 scales for an axis of size 2
    op.AddFloatInput({1, 2}, {1.0f, 2.0f});
    op.AddFloatInput({3}, {1.0f, 1.0f, 1.0f}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("QuantizeLinear");  // an int32 zero point is not a quantized output type
    op.AddFloatInput({2}, {1.0f, 2.0f});
    op.AddFloatInput({}, {1.0f}, true);
    op.AddInput<int32_t>({}, {0}, DataType::kInt32, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("QuantizeLinear");  // the input must be float
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.AddFloatInput({}, {1.0f}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

TEST(DequantizeLinearOp, Uint8Int8AndInt32) {
  OpRunner u8("DequantizeLinear");
  u8.AddInput<uint8_t>({3}, {0, 128, 255}, DataType::kUint8);
  u8.AddFloatInput({}, {0.5f}, true);
  u8.AddInput<uint8_t>({}, {128}, DataType::kUint8, true);
  ASSERT_TRUE(u8.Run().ok());
  EXPECT_EQ(u8.FloatOutput(), (std::vector<float>{-64.0f, 0.0f, 63.5f}));

  OpRunner i8("DequantizeLinear");
  i8.attrs().SetInt("axis", 0);
  i8.AddInput<int8_t>({2, 2}, {-128, 127, -128, 127}, DataType::kInt8);
  i8.AddFloatInput({2}, {1.0f, 0.25f}, true);
  i8.AddInput<int8_t>({2}, {0, -1}, DataType::kInt8, true);
  ASSERT_TRUE(i8.Run().ok());
  EXPECT_EQ(i8.FloatOutput(), (std::vector<float>{-128.0f, 127.0f, -31.75f, 32.0f}));

  OpRunner i32("DequantizeLinear");  // int32 biases: no zero point
  i32.AddInput<int32_t>({2}, {-1000000, 3}, DataType::kInt32);
  i32.AddFloatInput({}, {0.125f}, true);
  ASSERT_TRUE(i32.Run().ok());
  EXPECT_EQ(i32.FloatOutput(), (std::vector<float>{-125000.0f, 0.375f}));
}

TEST(DequantizeLinearOp, RejectsMismatchedZeroPointType) {
  OpRunner op("DequantizeLinear");
  op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
  op.AddFloatInput({}, {1.0f}, true);
  op.AddInput<uint8_t>({}, {0}, DataType::kUint8, true);
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

TEST(Requantize, RoundsHalfToEvenAddsZeroPointAndSaturates) {
  const FusedActivationParams none;
  // acc * 0.25 / 0.5: 3 -> 1.5 -> 2; 5 -> 2.5 -> 2; -3 -> -1.5 -> -2; then + 10.
  EXPECT_EQ(Requantize(3, 0.25f, none, 0.5f, 10, -128, 127), 12);
  EXPECT_EQ(Requantize(5, 0.25f, none, 0.5f, 10, -128, 127), 12);
  EXPECT_EQ(Requantize(-3, 0.25f, none, 0.5f, 10, -128, 127), 8);
  EXPECT_EQ(Requantize(1000, 0.25f, none, 0.5f, 10, -128, 127), 127);
  EXPECT_EQ(Requantize(-1000, 0.25f, none, 0.5f, 10, -128, 127), -128);
  // Beyond the int32 range the value still saturates instead of overflowing.
  EXPECT_EQ(Requantize(INT32_MAX, 1000.0f, none, 1e-3f, 0, -128, 127), 127);
  EXPECT_EQ(Requantize(INT32_MIN, 1000.0f, none, 1e-3f, -5, -128, 127), -128);
}

TEST(Requantize, AppliesTheFusedActivationToTheRealValue) {
  FusedActivationParams relu6;
  relu6.kind = FusedActivation::kClip;
  relu6.a = 0.0f;
  relu6.b = 6.0f;
  // real = acc * 0.5: -4 -> -2 -> 0; 10 -> 5; 20 -> 10 -> 6. Output scale 0.5, zero point -128.
  EXPECT_EQ(Requantize(-4, 0.5f, relu6, 0.5f, -128, -128, 127), -128);
  EXPECT_EQ(Requantize(10, 0.5f, relu6, 0.5f, -128, -128, 127), -118);
  EXPECT_EQ(Requantize(20, 0.5f, relu6, 0.5f, -128, -128, 127), -116);
  FusedActivationParams leaky;
  leaky.kind = FusedActivation::kLeakyRelu;
  leaky.a = 0.1f;
  // real -20 -> -2 -> q -4 (scale 0.5, zero point 0).
  EXPECT_EQ(Requantize(-40, 0.5f, leaky, 0.5f, 0, -128, 127), -4);
}

TEST(QuantizeValue, NanQuantizesAsZero) {
  EXPECT_EQ(QuantizeValue(NAN, 0.1f, 7, -128, 127), 7);
  EXPECT_EQ(DequantizeValue(-128, 0.5f, -128), 0.0f);
  EXPECT_EQ(DequantizeValue(127, 0.5f, -128), 127.5f);
}

}  // namespace
}  // namespace npurt
