#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

// Softmax of `n` elements of `x` starting at `base`, `stride` apart, in double.
void NaiveSoftmax(const std::vector<float>& x, size_t base, size_t n, size_t stride, std::vector<float>* y) {
  double sum = 0;
  for (size_t k = 0; k < n; ++k) sum += std::exp(static_cast<double>(x[base + k * stride]));
  for (size_t k = 0; k < n; ++k) (*y)[base + k * stride] = static_cast<float>(std::exp(x[base + k * stride]) / sum);
}

const std::vector<float> kX12 = {0.1f, -1.2f, 2.0f, 0.5f, 3.3f, -0.7f, 1.1f, 0.0f, -2.5f, 1.9f, 0.4f, -0.3f};

TEST(SoftmaxOp, DefaultIsLastAxis) {
  OpRunner op("Softmax");
  op.AddFloatInput({2, 3}, {1, 2, 3, 0, 0, 0});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  ExpectAllNear(op.FloatOutput(), {0.090030573f, 0.244728471f, 0.665240956f, 1 / 3.0f, 1 / 3.0f, 1 / 3.0f}, 1e-7f);
}

TEST(SoftmaxOp, LogSoftmaxIsShiftedLogits) {
  // log(softmax(x)) = x - max - log(sum exp(x - max)): for {1, 2, 3}, log(e^-2 + e^-1 + 1) = 0.407605964.
  OpRunner op("LogSoftmax");
  op.AddFloatInput({2, 3}, {1, 2, 3, 1000, 0, -1000});
  ASSERT_TRUE(op.Run().ok());
  // Where softmax rounds to 0 the log stays finite (-1000 and -2000), not -inf.
  ExpectAllNear(op.FloatOutput(), {-2.407605964f, -1.407605964f, -0.407605964f, 0, -1000, -2000}, 1e-5f);

  OpRunner coerced("LogSoftmax");  // opset 11: over everything from axis 1 on
  coerced.attrs().SetInt("opset", 11);
  coerced.AddFloatInput({1, 2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE(coerced.Run().ok());
  ExpectAllNear(coerced.FloatOutput(), std::vector<float>(4, -1.386294361f), 1e-6f);

  OpRunner bad_axis("LogSoftmax");
  bad_axis.attrs().SetInt("axis", 2);
  bad_axis.AddFloatInput({2, 3}, std::vector<float>(6));
  const Status s = bad_axis.Run();
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("LogSoftmax"), std::string::npos) << s.message();
}

TEST(SoftmaxOp, LargeInputsDoNotOverflow) {
  OpRunner op("Softmax");
  op.AddFloatInput({3}, {1000, 1001, -1000});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {0.268941421f, 0.731058579f, 0.0f}, 1e-7f);
}

TEST(SoftmaxOp, Opset13MiddleAxisIsStrided) {
  OpRunner op("Softmax");
  op.attrs().SetInt("opset", 13);
  op.attrs().SetInt("axis", 1);
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  std::vector<float> want(12);
  for (size_t o = 0; o < 2; ++o) {
    for (size_t i = 0; i < 2; ++i) NaiveSoftmax(kX12, o * 6 + i, 3, 2, &want);
  }
  ExpectAllNear(op.FloatOutput(), want, 1e-6f);
}

TEST(SoftmaxOp, Opset13NegativeAxisZero) {
  OpRunner op("Softmax");
  op.attrs().SetInt("axis", -3);
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  std::vector<float> want(12);
  for (size_t i = 0; i < 6; ++i) NaiveSoftmax(kX12, i, 2, 6, &want);
  ExpectAllNear(op.FloatOutput(), want, 1e-6f);
}

TEST(SoftmaxOp, Opset11CoercesTo2dAtDefaultAxis) {
  // Opset <= 12, axis 1 on [2,3,2]: each batch row of 6 sums to 1.
  OpRunner op("Softmax");
  op.attrs().SetInt("opset", 11);
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  std::vector<float> want(12);
  NaiveSoftmax(kX12, 0, 6, 1, &want);
  NaiveSoftmax(kX12, 6, 6, 1, &want);
  ExpectAllNear(op.FloatOutput(), want, 1e-6f);
}

TEST(SoftmaxOp, Opset12LastAxisMatchesOpset13) {
  OpRunner op("Softmax");
  op.attrs().SetInt("opset", 12);
  op.attrs().SetInt("axis", -1);
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  std::vector<float> want(12);
  for (size_t r = 0; r < 6; ++r) NaiveSoftmax(kX12, r * 2, 2, 1, &want);
  ExpectAllNear(op.FloatOutput(), want, 1e-6f);
}

TEST(SoftmaxOp, Opset1AxisZeroIsWholeTensor) {
  OpRunner op("Softmax");
  op.attrs().SetInt("opset", 1);
  op.attrs().SetInt("axis", 0);
  op.AddFloatInput({2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {0.25f, 0.25f, 0.25f, 0.25f}, 1e-7f);
}

TEST(SoftmaxOp, RejectsBadAxisRankTypeOpset) {
  OpRunner axis("Softmax");
  axis.attrs().SetInt("axis", 2);
  axis.AddFloatInput({2, 2}, {0, 0, 0, 0});
  EXPECT_EQ(axis.Run().code(), StatusCode::kModelInvalid);

  OpRunner neg_axis("Softmax");
  neg_axis.attrs().SetInt("axis", -3);
  neg_axis.AddFloatInput({2, 2}, {0, 0, 0, 0});
  EXPECT_EQ(neg_axis.Run().code(), StatusCode::kModelInvalid);

  OpRunner legacy_rank1("Softmax");  // default axis 1 does not exist in rank 1
  legacy_rank1.attrs().SetInt("opset", 11);
  legacy_rank1.AddFloatInput({3}, {0, 0, 0});
  EXPECT_EQ(legacy_rank1.Run().code(), StatusCode::kModelInvalid);

  OpRunner scalar("Softmax");
  scalar.AddFloatInput({}, {1});
  EXPECT_EQ(scalar.Run().code(), StatusCode::kModelInvalid);

  OpRunner ints("Softmax");
  ints.AddInt64Input({2}, {1, 2}, false);
  EXPECT_EQ(ints.Run().code(), StatusCode::kModelInvalid);

  OpRunner opset("Softmax");
  opset.attrs().SetInt("opset", -5);
  opset.AddFloatInput({2}, {0, 0});
  EXPECT_EQ(opset.Run().code(), StatusCode::kModelInvalid);

  OpRunner huge_axis("Softmax");
  huge_axis.attrs().SetInt("axis", int64_t{1} << 40);
  huge_axis.AddFloatInput({2}, {0, 0});
  EXPECT_EQ(huge_axis.Run().code(), StatusCode::kModelInvalid);
}

TEST(SoftmaxOp, EmptyTensor) {
  OpRunner op("Softmax");
  op.AddFloatInput({0, 3}, {});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{0, 3}));
}

}  // namespace
}  // namespace npurt
