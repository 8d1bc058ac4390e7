#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "runtime/kernels/dispatch.h"
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

// The requantization form, QuantizeLinear(x codes, y_scale, y_zp, x_scale, x_zp): by hand.
TEST(QuantizeLinearOp, RequantizesInt16Codes) {
  OpRunner op("QuantizeLinear");
  op.AddInput<int16_t>({6}, {-300, 0, 7, 1000, -32768, 32767}, DataType::kInt16);
  op.AddFloatInput({}, {0.05f}, true);
  op.AddInput<int8_t>({}, {-3}, DataType::kInt8, true);
  op.AddFloatInput({}, {0.01f}, true);
  op.AddInput<int16_t>({}, {10}, DataType::kInt16, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  // (x - 10) * 0.01 = -3.1, -0.1, -0.03, 9.9, -327.78, 327.57; / 0.05 = -62, -2, -0.6, 198, ...; rounded, - 3,
  // saturated.
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-65, -5, -4, 127, -128, 127}));
}

// Bit for bit DequantizeLinear then QuantizeLinear, under every CPU target, across blocks, tails and threads.
TEST(QuantizeLinearOp, RequantizationIsDequantizeThenQuantize) {
  std::mt19937 rng(0x5e9);
  for (DataType from : {DataType::kInt16, DataType::kInt8}) {
    for (int64_t n : {1, 7, 1024, 3001}) {
      std::vector<int16_t> x16(static_cast<size_t>(n));
      std::vector<int8_t> x8(static_cast<size_t>(n));
      const bool wide = from == DataType::kInt16;
      std::uniform_int_distribution<int> codes(wide ? -32768 : -128, wide ? 32767 : 127);
      for (size_t i = 0; i < x16.size(); ++i) {
        x16[i] = static_cast<int16_t>(codes(rng));
        x8[i] = static_cast<int8_t>(codes(rng));
      }
      const float x_scale = from == DataType::kInt16 ? 0.00137f : 0.0371f, y_scale = 0.0413f;
      auto add_x = [&](OpRunner* op) {
        if (from == DataType::kInt16) {
          op->AddInput<int16_t>({n}, x16, DataType::kInt16);
        } else {
          op->AddInput<int8_t>({n}, x8, DataType::kInt8);
        }
      };
      auto add_x_zp = [&](OpRunner* op) {
        if (from == DataType::kInt16) {
          op->AddInput<int16_t>({}, {-1234}, DataType::kInt16, true);
        } else {
          op->AddInput<int8_t>({}, {17}, DataType::kInt8, true);
        }
      };
      // The reference, AVX2 (two passes over a block) and AVX-512 (requantize_codes__avx512) where they run.
      for (CpuTarget target : {CpuTarget::kRef, std::min(CpuTarget::kAvx2, ActiveCpuTarget()), ActiveCpuTarget()}) {
        const ScopedCpuTargetCap cap(target);
        OpRunner dq("DequantizeLinear");
        add_x(&dq);
        dq.AddFloatInput({}, {x_scale}, true);
        add_x_zp(&dq);
        ASSERT_TRUE(dq.Run().ok());
        OpRunner q("QuantizeLinear");
        q.AddFloatInput({n}, dq.FloatOutput());
        q.AddFloatInput({}, {y_scale}, true);
        q.AddInput<int8_t>({}, {-9}, DataType::kInt8, true);
        ASSERT_TRUE(q.Run().ok());
        OpRunner rq("QuantizeLinear");
        rq.set_threads(n > 1000 ? 2 : 1);
        add_x(&rq);
        rq.AddFloatInput({}, {y_scale}, true);
        rq.AddInput<int8_t>({}, {-9}, DataType::kInt8, true);
        rq.AddFloatInput({}, {x_scale}, true);
        add_x_zp(&rq);
        ASSERT_TRUE(rq.Run().ok());
        EXPECT_EQ(rq.OutputValues<int8_t>(), q.OutputValues<int8_t>()) << DataTypeName(from) << " n=" << n;
      }
    }
  }
}

TEST(QuantizeLinearOp, RejectsBadRequantization) {
  {
    OpRunner op("QuantizeLinear");  // float input with an input scale
    op.AddFloatInput({2}, {1.0f, 2.0f});
    op.AddFloatInput({}, {1.0f}, true);
    op.AddInput<int8_t>({}, {0}, DataType::kInt8, true);
    op.AddFloatInput({}, {1.0f}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("QuantizeLinear");  // per-axis output scales
    op.AddInput<int16_t>({1, 2}, {1, 2}, DataType::kInt16);
    op.AddFloatInput({2}, {1.0f, 0.5f}, true);
    op.AddInput<int8_t>({2}, {0, 0}, DataType::kInt8, true);
    op.AddFloatInput({}, {1.0f}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("QuantizeLinear");  // the input's zero point of another type
    op.AddInput<int16_t>({2}, {1, 2}, DataType::kInt16);
    op.AddFloatInput({}, {1.0f}, true);
    op.AddInput<int8_t>({}, {0}, DataType::kInt8, true);
    op.AddFloatInput({}, {1.0f}, true);
    op.AddInput<int8_t>({}, {0}, DataType::kInt8, true);
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
