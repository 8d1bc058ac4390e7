#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

std::vector<float> RunUnary(OpRunner* op, const std::vector<float>& x) {
  op->AddFloatInput({static_cast<int64_t>(x.size())}, x);
  Status s = op->Run();
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? op->FloatOutput() : std::vector<float>();
}

std::vector<float> RunUnary(const std::string& name, const std::vector<float>& x) {
  OpRunner op(name);
  return RunUnary(&op, x);
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(UnaryOp, ReluKeepsShapeAndNan) {
  OpRunner op("Relu");
  op.AddFloatInput({2, 2}, {-1.5f, 0.0f, 2.5f, std::numeric_limits<float>::quiet_NaN()});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  const std::vector<float> y = op.FloatOutput();
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], 2.5f);
  EXPECT_TRUE(std::isnan(y[3]));
}

TEST(UnaryOp, LeakyReluDefaultAndCustomAlpha) {
  EXPECT_EQ(RunUnary("LeakyRelu", {-2, 3}), (std::vector<float>{-0.02f, 3}));
  OpRunner op("LeakyRelu");
  op.attrs().SetFloat("alpha", 0.5f);
  EXPECT_EQ(RunUnary(&op, {-2, 0, 3}), (std::vector<float>{-1, 0, 3}));
}

TEST(UnaryOp, SigmoidIsStableAtExtremes) {
  ExpectNear(RunUnary("Sigmoid", {0, 2, -2, 100, -100, -1000}),
             {0.5f, 0.880797078f, 0.119202922f, 1.0f, 3.72e-44f, 0.0f}, 1e-7f);
}

TEST(UnaryOp, HardSigmoidDefaultsAndAttributes) {
  // alpha 0.2, beta 0.5: saturates at |x| >= 2.5.
  ExpectNear(RunUnary("HardSigmoid", {-3, -1, 0, 1, 3}), {0, 0.3f, 0.5f, 0.7f, 1}, 1e-7f);
  OpRunner op("HardSigmoid");
  op.attrs().SetFloat("alpha", 0.5f);
  op.attrs().SetFloat("beta", 0.25f);
  ExpectNear(RunUnary(&op, {-1, 0, 1, 2}), {0, 0.25f, 0.75f, 1}, 1e-7f);
}

TEST(UnaryOp, HardSwish) {
  ExpectNear(RunUnary("HardSwish", {-4, -3, -1, 0, 1, 3, 4}),
             {0, 0, -1.0f / 3, 0, 2.0f / 3, 3, 4}, 1e-6f);
}

TEST(UnaryOp, TranscendentalFunctions) {
  ExpectNear(RunUnary("Tanh", {0, 1, -1, 20}), {0, 0.761594156f, -0.761594156f, 1}, 1e-6f);
  ExpectNear(RunUnary("Exp", {0, 1, -1}), {1, 2.718281828f, 0.367879441f}, 1e-6f);
  ExpectNear(RunUnary("Log", {1, 2.718281828f, 0.5f}), {0, 1, -0.693147181f}, 1e-6f);
  ExpectNear(RunUnary("Sqrt", {0, 4, 2}), {0, 2, 1.414213562f}, 1e-6f);
  ExpectNear(RunUnary("Erf", {0, 1, -0.5f, 3}), {0, 0.842700793f, -0.520499878f, 0.999977910f}, 1e-6f);
}

TEST(UnaryOp, Trigonometry) {
  ExpectNear(RunUnary("Sin", {0, 1.570796327f, -1}), {0, 1, -0.841470985f}, 1e-6f);
  ExpectNear(RunUnary("Cos", {0, 3.141592654f, 1}), {1, -1, 0.540302306f}, 1e-6f);
  ExpectNear(RunUnary("Tan", {0, 0.5f}), {0, 0.546302490f}, 1e-6f);
  ExpectNear(RunUnary("Asin", {0.5f, -1}), {0.523598776f, -1.570796327f}, 1e-6f);
  ExpectNear(RunUnary("Acos", {0.5f, 1}), {1.047197551f, 0}, 1e-6f);
  ExpectNear(RunUnary("Atan", {1, -1}), {0.785398163f, -0.785398163f}, 1e-6f);
  ExpectNear(RunUnary("Sinh", {1, 0}), {1.175201194f, 0}, 1e-6f);
  ExpectNear(RunUnary("Cosh", {1, 0}), {1.543080635f, 1}, 1e-6f);
  ExpectNear(RunUnary("Asinh", {1}), {0.881373587f}, 1e-6f);
  ExpectNear(RunUnary("Acosh", {2, 1}), {1.316957897f, 0}, 1e-6f);
  ExpectNear(RunUnary("Atanh", {0.5f, 0}), {0.549306144f, 0}, 1e-6f);
  EXPECT_TRUE(std::isnan(RunUnary("Asin", {2})[0]));
  EXPECT_TRUE(std::isnan(RunUnary("Acosh", {0.5f})[0]));
}

TEST(UnaryOp, ExponentialLinearUnitsDefaultsAndAttributes) {
  ExpectNear(RunUnary("Elu", {-1, 0, 2}), {-0.632120559f, 0, 2}, 1e-6f);
  OpRunner elu("Elu");
  elu.attrs().SetFloat("alpha", 2.0f);
  ExpectNear(RunUnary(&elu, {-1, 3}), {-1.264241118f, 3}, 1e-6f);

  ExpectNear(RunUnary("Selu", {-1, 0, 2}), {-1.111330738f, 0, 2.101401975f}, 1e-6f);
  OpRunner selu("Selu");
  selu.attrs().SetFloat("alpha", 2.0f);
  selu.attrs().SetFloat("gamma", 3.0f);
  ExpectNear(RunUnary(&selu, {-1, 1}), {3 * 2 * -0.632120559f, 3}, 1e-6f);

  ExpectNear(RunUnary("Celu", {-1, 3}), {-0.632120559f, 3}, 1e-6f);
  OpRunner celu("Celu");
  celu.attrs().SetFloat("alpha", 2.0f);
  ExpectNear(RunUnary(&celu, {-1, 3}), {-0.786938681f, 3}, 1e-6f);
  OpRunner zero("Celu");
  zero.attrs().SetFloat("alpha", 0.0f);
  zero.AddFloatInput({1}, {1});
  EXPECT_EQ(zero.Run().code(), StatusCode::kModelInvalid);

  EXPECT_EQ(RunUnary("ThresholdedRelu", {0.5f, 1, 2, -3}), (std::vector<float>{0, 0, 2, 0}));
  OpRunner thresholded("ThresholdedRelu");
  thresholded.attrs().SetFloat("alpha", 0.25f);
  EXPECT_EQ(RunUnary(&thresholded, {0.5f, 0.25f}), (std::vector<float>{0.5f, 0}));
}

TEST(UnaryOp, SoftplusSoftsignMishStayFiniteAtExtremes) {
  ExpectNear(RunUnary("Softplus", {0, 2, -2, 100, -100}), {0.693147181f, 2.126928011f, 0.126928011f, 100, 3.8e-44f},
             1e-6f);
  EXPECT_EQ(RunUnary("Softplus", {1000})[0], 1000.0f);  // log(1 + e^1000) without overflow
  ExpectNear(RunUnary("Softsign", {1, -3, 0}), {0.5f, -0.75f, 0}, 1e-7f);
  ExpectNear(RunUnary("Mish", {1, -1, 0, 50, -200}), {0.865098388f, -0.303401461f, 0, 50, 0}, 1e-6f);
}

TEST(UnaryOp, RoundingAndSign) {
  EXPECT_EQ(RunUnary("Abs", {-2.5f, 0, 3}), (std::vector<float>{2.5f, 0, 3}));
  EXPECT_EQ(RunUnary("Floor", {-1.5f, 1.5f, 2}), (std::vector<float>{-2, 1, 2}));
  EXPECT_EQ(RunUnary("Ceil", {-1.5f, 1.2f, 2}), (std::vector<float>{-1, 2, 2}));
  // Halves to even, as ONNX Round.
  EXPECT_EQ(RunUnary("Round", {0.5f, 1.5f, 2.5f, -2.5f, -1.4f, 2.6f}), (std::vector<float>{0, 2, 2, -2, -1, 3}));
  const std::vector<float> sign = RunUnary("Sign", {-3, 0, 2, std::numeric_limits<float>::quiet_NaN()});
  EXPECT_EQ(sign[0], -1.0f);
  EXPECT_EQ(sign[1], 0.0f);
  EXPECT_EQ(sign[2], 1.0f);
  EXPECT_TRUE(std::isnan(sign[3]));
}

TEST(UnaryOp, LogAndSqrtOutsideDomain) {
  const std::vector<float> log = RunUnary("Log", {0, -1});
  EXPECT_TRUE(std::isinf(log[0]) && log[0] < 0);
  EXPECT_TRUE(std::isnan(log[1]));
  EXPECT_TRUE(std::isnan(RunUnary("Sqrt", {-1})[0]));
}

TEST(UnaryOp, ClipAttributes) {
  OpRunner op("Clip");
  op.attrs().SetFloat("min", -1.0f);
  op.attrs().SetFloat("max", 2.0f);
  EXPECT_EQ(RunUnary(&op, {-5, -1, 0, 2, 7}), (std::vector<float>{-1, -1, 0, 2, 2}));
}

TEST(UnaryOp, ClipWithoutBoundsIsIdentity) {
  EXPECT_EQ(RunUnary("Clip", {-1e30f, 0, 1e30f}), (std::vector<float>{-1e30f, 0, 1e30f}));
}

TEST(UnaryOp, ClipInputs) {
  OpRunner both("Clip");
  both.AddFloatInput({4}, {-5, 0, 5, 10});
  both.AddFloatInput({}, {0}, true);
  both.AddFloatInput({1}, {6}, true);
  ASSERT_TRUE(both.Run().ok());
  EXPECT_EQ(both.FloatOutput(), (std::vector<float>{0, 0, 5, 6}));

  // ReLU6 exported as Clip(x, "", max).
  OpRunner max_only("Clip");
  max_only.AddFloatInput({3}, {-5, 3, 9});
  max_only.AddAbsentInput();
  max_only.AddFloatInput({}, {6}, true);
  ASSERT_TRUE(max_only.Run().ok());
  EXPECT_EQ(max_only.FloatOutput(), (std::vector<float>{-5, 3, 6}));

  // Bounds computed at run time are read at eval.
  OpRunner dynamic("Clip");
  dynamic.AddFloatInput({3}, {-5, 3, 9});
  dynamic.AddFloatInput({}, {-1}, false);
  ASSERT_TRUE(dynamic.Run().ok());
  EXPECT_EQ(dynamic.FloatOutput(), (std::vector<float>{-1, 3, 9}));
}

TEST(UnaryOp, ClipMinAboveMaxGivesMax) {
  OpRunner op("Clip");
  op.attrs().SetFloat("min", 3.0f);
  op.attrs().SetFloat("max", 1.0f);
  EXPECT_EQ(RunUnary(&op, {0, 2, 4}), (std::vector<float>{1, 1, 1}));
}

TEST(UnaryOp, ClipRejectsBadBounds) {
  OpRunner twice("Clip");
  twice.attrs().SetFloat("min", 0.0f);
  twice.AddFloatInput({1}, {1});
  twice.AddFloatInput({}, {0}, true);
  EXPECT_EQ(twice.Run().code(), StatusCode::kModelInvalid);

  OpRunner vector_bound("Clip");
  vector_bound.AddFloatInput({2}, {1, 2});
  vector_bound.AddFloatInput({2}, {0, 0}, true);
  EXPECT_EQ(vector_bound.Run().code(), StatusCode::kModelInvalid);

  OpRunner int_bound("Clip");
  int_bound.AddFloatInput({1}, {1});
  int_bound.AddInt64Input({}, {0});
  EXPECT_EQ(int_bound.Run().code(), StatusCode::kModelInvalid);

  OpRunner int_attr("Clip");
  int_attr.attrs().SetInt("max", 6);
  int_attr.AddFloatInput({1}, {1});
  EXPECT_EQ(int_attr.Run().code(), StatusCode::kModelInvalid);
}

TEST(UnaryOp, RejectsNonFloatInputAndBadShape) {
  OpRunner ints("Relu");
  ints.AddInput<int32_t>({1}, {1}, DataType::kInt32);
  EXPECT_EQ(ints.Run().code(), StatusCode::kModelInvalid);

  OpRunner neg("Exp");
  neg.AddFloatInput({2, -3}, {});
  EXPECT_EQ(neg.Run().code(), StatusCode::kModelInvalid);

  OpRunner missing("Tanh");
  missing.AddAbsentInput();
  EXPECT_EQ(missing.Run().code(), StatusCode::kModelInvalid);

  OpRunner extra("Sigmoid");
  extra.AddFloatInput({1}, {1});
  extra.AddFloatInput({1}, {1});
  EXPECT_EQ(extra.Run().code(), StatusCode::kModelInvalid);

  OpRunner bad_alpha("LeakyRelu");
  bad_alpha.attrs().SetString("alpha", "x");
  bad_alpha.AddFloatInput({1}, {1});
  EXPECT_EQ(bad_alpha.Run().code(), StatusCode::kModelInvalid);
}

TEST(UnaryOp, ScalarAndEmptyInputs) {
  OpRunner scalar("Sqrt");
  scalar.AddFloatInput({}, {9});
  ASSERT_TRUE(scalar.Run().ok());
  EXPECT_EQ(scalar.OutputShape(), Shape{});
  EXPECT_EQ(scalar.FloatOutput(), (std::vector<float>{3}));

  OpRunner empty("Erf");
  empty.AddFloatInput({0, 4}, {});
  ASSERT_TRUE(empty.Run().ok());
  EXPECT_EQ(empty.OutputShape(), (Shape{0, 4}));
}

}  // namespace
}  // namespace npurt
