#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

void AddBatchNormParams(OpRunner* op, const std::vector<float>& scale, const std::vector<float>& bias,
                        const std::vector<float>& mean, const std::vector<float>& var) {
  const Shape c = {static_cast<int64_t>(scale.size())};
  op->AddFloatInput(c, scale, true);
  op->AddFloatInput(c, bias, true);
  op->AddFloatInput(c, mean, true);
  op->AddFloatInput(c, var, true);
}

TEST(BatchNormOp, Nchw) {
  OpRunner op("BatchNormalization");
  op.attrs().SetFloat("epsilon", 0.0f);
  // [N=2, C=2, 1, 2]; channel 0: (x - 1) / 2 * 3 + 1, channel 1: (x + 1) / 1 * -1 + 0.
  op.AddFloatInput({2, 2, 1, 2}, {1, 3, 0, 1, 5, -1, 2, -2});
  AddBatchNormParams(&op, {3, -1}, {1, 0}, {1, -1}, {4, 1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2, 1, 2}));
  ExpectAllNear(op.FloatOutput(), {1, 4, -1, -2, 7, -2, -3, 1}, 1e-6f);
}

TEST(BatchNormOp, Rank2AndDefaultEpsilon) {
  OpRunner op("BatchNormalization");
  op.AddFloatInput({2, 3}, {0, 1, 2, 3, 4, 5});
  AddBatchNormParams(&op, {1, 1, 2}, {0, 0, 0}, {0, 1, 2}, {1, 0, 4});
  ASSERT_TRUE(op.Run().ok());
  // var + 1e-5 in the denominator; channel 1 has var 0.
  const float s1 = 1.0f / std::sqrt(1e-5f);
  const float s0 = 1.0f / std::sqrt(1.0f + 1e-5f), s2 = 2.0f / std::sqrt(4.0f + 1e-5f);
  ExpectAllNear(op.FloatOutput(), {0, 0, 0, 3 * s0, 3 * s1, 3 * s2}, 1e-4f);
}

TEST(BatchNormOp, Rank3) {
  OpRunner op("BatchNormalization");
  op.attrs().SetFloat("epsilon", 0.0f);
  op.AddFloatInput({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  AddBatchNormParams(&op, {1, 0.5f}, {10, 20}, {2, 5}, {1, 1});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {9, 10, 11, 19.5f, 20, 20.5f}, 1e-6f);
}

TEST(BatchNormOp, RejectsBadModels) {
  auto make = [](OpRunner* op, Shape x_shape, Shape mean_shape) {
    const int64_t n = NumElements(x_shape) > 0 ? NumElements(x_shape) : 0;
    op->AddFloatInput(std::move(x_shape), std::vector<float>(static_cast<size_t>(n), 1.0f));
    op->AddFloatInput({2}, {1, 1}, true);
    op->AddFloatInput({2}, {0, 0}, true);
    const int64_t m = NumElements(mean_shape) > 0 ? NumElements(mean_shape) : 0;
    op->AddFloatInput(std::move(mean_shape), std::vector<float>(static_cast<size_t>(m), 0.0f), true);
    op->AddFloatInput({2}, {1, 1}, true);
  };
  {
    OpRunner op("BatchNormalization");
    make(&op, {2}, {2});  // rank 1
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    make(&op, {1, 2, 2}, {3});  // mean has the wrong length
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    make(&op, {1, 3, 2}, {3});  // scale, B, var have 2 values for 3 channels
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    make(&op, {1, 2}, {2});
    EXPECT_EQ(op.Run(3).code(), StatusCode::kModelInvalid);  // training outputs
  }
  {
    OpRunner op("BatchNormalization");
    op.attrs().SetInt("training_mode", 1);
    make(&op, {1, 2}, {2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    op.attrs().SetInt("spatial", 0);
    make(&op, {1, 2}, {2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    op.attrs().SetFloat("epsilon", -1.0f);
    make(&op, {1, 2}, {2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("BatchNormalization");
    op.AddFloatInput({1, 2}, {1, 1});
    op.AddFloatInput({2}, {1, 1}, true);
    op.AddFloatInput({2}, {0, 0}, true);
    op.AddFloatInput({2}, {0, 0}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);  // var missing
  }
}

// Naive layer norm of rows of length `size` with full-size scale and optional bias.
std::vector<float> NaiveLayerNorm(const std::vector<float>& x, size_t size, const std::vector<float>& scale,
                                  const std::vector<float>& bias, double eps) {
  std::vector<float> y(x.size());
  for (size_t r = 0; r < x.size() / size; ++r) {
    double mean = 0, sq = 0;
    for (size_t i = 0; i < size; ++i) mean += x[r * size + i];
    mean /= size;
    for (size_t i = 0; i < size; ++i) sq += (x[r * size + i] - mean) * (x[r * size + i] - mean);
    const double sd = std::sqrt(sq / size + eps);
    for (size_t i = 0; i < size; ++i) {
      const double s = scale.size() == 1 ? scale[0] : scale[i];
      const double b = bias.empty() ? 0.0 : (bias.size() == 1 ? bias[0] : bias[i]);
      y[r * size + i] = static_cast<float>((x[r * size + i] - mean) / sd * s + b);
    }
  }
  return y;
}

TEST(LayerNormOp, LastAxisWithoutBias) {
  OpRunner op("LayerNormalization");
  op.AddFloatInput({2, 3}, {1, 2, 3, -1, -1, 5});
  op.AddFloatInput({3}, {1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  // Row 0: mean 2, var 2/3 -> +-sqrt(3/2); row 1: mean 1, var 8 -> (-2, -2, 4) / sqrt(8).
  const float a = std::sqrt(1.5f) * std::sqrt((2.0f / 3) / (2.0f / 3 + 1e-5f));
  const float b = 1.0f / std::sqrt(8.0f + 1e-5f);
  ExpectAllNear(op.FloatOutput(), {-a, 0, a, -2 * b, -2 * b, 4 * b}, 1e-5f);
}

TEST(LayerNormOp, AxisOneWithScaleAndBias) {
  const std::vector<float> x = {0.5f, -1, 2, 3, 1, 1, -4, 0.25f};
  const std::vector<float> scale = {1, 2, -1, 0.5f}, bias = {0, 1, 2, 3};
  OpRunner op("LayerNormalization");
  op.attrs().SetInt("axis", 1);
  op.attrs().SetFloat("epsilon", 1e-3f);
  op.AddFloatInput({2, 2, 2}, x);
  op.AddFloatInput({2, 2}, scale, true);
  op.AddFloatInput({2, 2}, bias, true);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), NaiveLayerNorm(x, 4, scale, bias, 1e-3), 1e-5f);
}

TEST(LayerNormOp, NegativeAxisSingleValueScaleLeadingOnesBias) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 9, 8, 6, 4, 2};
  OpRunner op("LayerNormalization");
  op.attrs().SetInt("axis", -2);
  op.AddFloatInput({2, 2, 3}, x);
  op.AddFloatInput({1}, {2}, true);
  op.AddFloatInput({1, 2, 3}, {0, 0, 0, 1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), NaiveLayerNorm(x, 6, {2}, {0, 0, 0, 1, 1, 1}, 1e-5), 1e-5f);
}

TEST(LayerNormOp, AbsentBiasInput) {
  OpRunner op("LayerNormalization");
  op.AddFloatInput({1, 2}, {1, 3});
  op.AddFloatInput({2}, {1, 2}, true);
  op.AddAbsentInput();
  op.attrs().SetFloat("epsilon", 0.0f);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {-1, 2}, 1e-6f);
}

TEST(LayerNormOp, RejectsBadModels) {
  {
    OpRunner op("LayerNormalization");
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddFloatInput({2}, {1, 1}, true);
    EXPECT_EQ(op.Run(3).code(), StatusCode::kModelInvalid);  // Mean, InvStdDev outputs
  }
  {
    OpRunner op("LayerNormalization");
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddFloatInput({3}, {1, 1, 1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("LayerNormalization");  // partial broadcast over normalized dims
    op.attrs().SetInt("axis", 0);
    op.AddFloatInput({2, 2}, {1, 2, 3, 4});
    op.AddFloatInput({2, 1}, {1, 1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("LayerNormalization");
    op.attrs().SetInt("axis", 2);
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddFloatInput({2}, {1, 1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("LayerNormalization");
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddFloatInput({2}, {1, 1}, true);
    op.AddFloatInput({3}, {1, 1, 1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);  // B shape
  }
  {
    OpRunner op("LayerNormalization");
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddAbsentInput();  // Scale is required
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("LayerNormalization");
    op.attrs().SetFloat("epsilon", std::nanf(""));
    op.AddFloatInput({1, 2}, {1, 3});
    op.AddFloatInput({2}, {1, 1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("LayerNormalization");
    op.AddFloatInput({}, {1});
    op.AddFloatInput({}, {1}, true);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);  // rank 0 has no axis
  }
}

}  // namespace
}  // namespace npurt
