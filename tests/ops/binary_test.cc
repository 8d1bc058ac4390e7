#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/broadcast.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

std::vector<float> Iota(int64_t n, float start, float step) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

// Naive numpy broadcast read: the element of `shape` (right-aligned against
// `out`) seen at output linear index `i`. Written independently of broadcast.h.
int64_t SourceIndex(const Shape& out, const Shape& shape, int64_t i) {
  int64_t src = 0, stride = 1;
  for (int d = static_cast<int>(out.size()) - 1; d >= 0; --d) {
    const int64_t coord = i % out[d];
    i /= out[d];
    const int sd = d - static_cast<int>(out.size() - shape.size());
    if (sd < 0) continue;
    if (shape[sd] != 1) src += coord * stride;
    stride *= shape[sd];
  }
  return src;
}

TEST(BroadcastPlan, MergesDimsWithTheSamePattern) {
  const Shape out = {2, 3, 4}, a = {2, 3, 4}, b = {3, 4};
  const Shape* operands[2] = {&a, &b};
  BroadcastPlan plan;
  ASSERT_TRUE(MakeBroadcastPlan(out, operands, 2, &plan));
  ASSERT_EQ(plan.rank, 2);
  EXPECT_EQ(plan.dims[0], 2);
  EXPECT_EQ(plan.dims[1], 12);
  EXPECT_EQ(plan.strides[0][0], 12);
  EXPECT_EQ(plan.strides[0][1], 1);
  EXPECT_EQ(plan.strides[1][0], 0);
  EXPECT_EQ(plan.strides[1][1], 1);
}

TEST(BroadcastPlan, DropsUnitDimsAndRejectsMismatch) {
  const Shape out = {1, 5, 1, 3}, a = {5, 1, 1}, b = {2, 3};
  const Shape* good[1] = {&a};
  BroadcastPlan plan;
  ASSERT_TRUE(MakeBroadcastPlan(out, good, 1, &plan));
  ASSERT_EQ(plan.rank, 2);
  EXPECT_EQ(plan.dims[0], 5);
  EXPECT_EQ(plan.dims[1], 3);
  EXPECT_EQ(plan.strides[0][0], 1);
  EXPECT_EQ(plan.strides[0][1], 0);
  const Shape* bad[1] = {&b};
  EXPECT_FALSE(MakeBroadcastPlan(out, bad, 1, &plan));
  Shape joined;
  EXPECT_FALSE(BroadcastShapes({2, 3}, {3, 2}, &joined));
  ASSERT_TRUE(BroadcastShapes({4, 1, 3}, {2, 1}, &joined));
  EXPECT_EQ(joined, (Shape{4, 2, 3}));
}

TEST(BinaryOp, AddSameShape) {
  OpRunner op("Add");
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddFloatInput({2, 2}, {10, 20, 30, 40});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{11, 22, 33, 44}));
}

TEST(BinaryOp, AddColumnPlusRowBroadcastsBothWays) {
  OpRunner op("Add");
  op.AddFloatInput({2, 1}, {10, 20});
  op.AddFloatInput({3}, {1, 2, 3});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST(BinaryOp, SubAndDivKeepOperandOrderUnderBroadcast) {
  OpRunner sub("Sub");
  sub.AddFloatInput({}, {10});
  sub.AddFloatInput({3}, {1, 2, 3});
  ASSERT_TRUE(sub.Run().ok());
  EXPECT_EQ(sub.OutputShape(), (Shape{3}));
  EXPECT_EQ(sub.FloatOutput(), (std::vector<float>{9, 8, 7}));

  OpRunner div("Div");
  div.AddFloatInput({2, 2}, {1, 2, 3, 4});
  div.AddFloatInput({2, 1}, {2, 4});
  ASSERT_TRUE(div.Run().ok());
  EXPECT_EQ(div.FloatOutput(), (std::vector<float>{0.5f, 1.0f, 0.75f, 1.0f}));
}

// Mixed broadcasting patterns on rank 5 against the naive index computation.
TEST(BinaryOp, MulRank5MatchesNaiveBroadcast) {
  const Shape sa = {2, 1, 3, 1, 5}, sb = {4, 1, 2, 1}, out = {2, 4, 3, 2, 5};
  const std::vector<float> a = Iota(NumElements(sa), -3.0f, 0.25f);
  const std::vector<float> b = Iota(NumElements(sb), 1.0f, 0.5f);
  OpRunner op("Mul");
  op.AddFloatInput(sa, a);
  op.AddFloatInput(sb, b);
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.OutputShape(), out);
  const std::vector<float> got = op.FloatOutput();
  ASSERT_EQ(static_cast<int64_t>(got.size()), NumElements(out));
  for (int64_t i = 0; i < NumElements(out); ++i) {
    EXPECT_EQ(got[i], a[SourceIndex(out, sa, i)] * b[SourceIndex(out, sb, i)]) << i;
  }
}

TEST(BinaryOp, ChannelBiasOnNchw) {
  // [1,2,2,2] + [2,1,1]: the usual per-channel bias pattern.
  OpRunner op("Add");
  op.AddFloatInput({1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  op.AddFloatInput({2, 1, 1}, {100, 200});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{100, 101, 102, 103, 204, 205, 206, 207}));
}

TEST(BinaryOp, Int32DivTruncatesAndNeverTraps) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  OpRunner op("Div");
  op.AddInput<int32_t>({6}, {7, -7, 7, -7, 5, kMin}, DataType::kInt32);
  op.AddInput<int32_t>({6}, {2, 2, -2, -2, 0, -1}, DataType::kInt32);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kInt32);
  // x / 0 is 0 and INT_MIN / -1 wraps to INT_MIN (both undefined in C).
  EXPECT_EQ(op.OutputValues<int32_t>(), (std::vector<int32_t>{3, -3, -3, 3, 0, kMin}));
}

TEST(BinaryOp, Int64ArithmeticWithBroadcastAndWrap) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  OpRunner add("Add");
  add.AddInt64Input({3}, {1, kMax, -5}, false);
  add.AddInt64Input({}, {1}, false);
  ASSERT_TRUE(add.Run().ok());
  EXPECT_EQ(add.OutputValues<int64_t>(), (std::vector<int64_t>{2, std::numeric_limits<int64_t>::min(), -4}));

  OpRunner mul("Mul");
  mul.AddInt64Input({2, 1}, {3, -2}, false);
  mul.AddInt64Input({2}, {5, 7}, false);
  ASSERT_TRUE(mul.Run().ok());
  EXPECT_EQ(mul.OutputValues<int64_t>(), (std::vector<int64_t>{15, 21, -10, -14}));

  OpRunner sub("Sub");
  sub.AddInput<int32_t>({2}, {1, 2}, DataType::kInt32);
  sub.AddInput<int32_t>({2, 1}, {10, 20}, DataType::kInt32);
  ASSERT_TRUE(sub.Run().ok());
  EXPECT_EQ(sub.OutputValues<int32_t>(), (std::vector<int32_t>{-9, -8, -19, -18}));
}

TEST(BinaryOp, MaxIsVariadicWithBroadcast) {
  OpRunner op("Max");
  op.AddFloatInput({3}, {1, 5, 3});
  op.AddFloatInput({2, 1}, {2, 4});
  op.AddFloatInput({}, {3.5f});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{3.5f, 5, 3.5f, 4, 5, 4}));
}

TEST(BinaryOp, MinFourInputsAndSingleInput) {
  OpRunner four("Min");
  four.AddInput<int64_t>({2}, {5, 5}, DataType::kInt64);
  four.AddInput<int64_t>({2}, {4, 9}, DataType::kInt64);
  four.AddInput<int64_t>({1}, {7}, DataType::kInt64);
  four.AddInput<int64_t>({2, 1}, {6, -1}, DataType::kInt64);
  ASSERT_TRUE(four.Run().ok());
  EXPECT_EQ(four.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(four.OutputValues<int64_t>(), (std::vector<int64_t>{4, 5, -1, -1}));

  OpRunner one("Min");
  one.AddFloatInput({3}, {3, -1, 2});
  ASSERT_TRUE(one.Run().ok());
  EXPECT_EQ(one.FloatOutput(), (std::vector<float>{3, -1, 2}));
}

TEST(BinaryOp, MaxMinPropagateNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpRunner max("Max");
  max.AddFloatInput({3}, {nan, 1, 2});
  max.AddFloatInput({3}, {0, nan, 1});
  ASSERT_TRUE(max.Run().ok());
  const std::vector<float> m = max.FloatOutput();
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_TRUE(std::isnan(m[1]));
  EXPECT_EQ(m[2], 2.0f);

  OpRunner min("Min");
  min.AddFloatInput({2}, {1, nan});
  min.AddFloatInput({2}, {nan, 0});
  ASSERT_TRUE(min.Run().ok());
  EXPECT_TRUE(std::isnan(min.FloatOutput()[0]));
  EXPECT_TRUE(std::isnan(min.FloatOutput()[1]));
}

TEST(BinaryOp, PowWithFloatAndIntegerExponents) {
  OpRunner f("Pow");
  f.AddFloatInput({3}, {4, 2, -2});
  f.AddFloatInput({3}, {0.5f, -1, 3});
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.FloatOutput(), (std::vector<float>{2, 0.5f, -8}));

  OpRunner i32("Pow");
  i32.AddFloatInput({2, 2}, {1, 2, 3, 4});
  i32.AddInput<int32_t>({2}, {2, 3}, DataType::kInt32);
  ASSERT_TRUE(i32.Run().ok());
  EXPECT_EQ(i32.output().dtype, DataType::kFloat32);
  EXPECT_EQ(i32.FloatOutput(), (std::vector<float>{1, 8, 9, 64}));

  OpRunner i64("Pow");
  i64.AddFloatInput({2}, {-3, 2});
  i64.AddInt64Input({}, {2}, false);
  ASSERT_TRUE(i64.Run().ok());
  EXPECT_EQ(i64.FloatOutput(), (std::vector<float>{9, 4}));

  OpRunner nan("Pow");  // negative base, fractional exponent
  nan.AddFloatInput({1}, {-8});
  nan.AddFloatInput({1}, {1.0f / 3});
  ASSERT_TRUE(nan.Run().ok());
  EXPECT_TRUE(std::isnan(nan.FloatOutput()[0]));
}

TEST(BinaryOp, PReluPerChannelSlope) {
  OpRunner op("PRelu");
  op.AddFloatInput({1, 2, 1, 3}, {-1, 0, 2, -4, 5, -6});
  op.AddFloatInput({2, 1, 1}, {0.5f, 0.25f}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 2, 1, 3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{-0.5f, 0, 2, -1, 5, -1.5f}));
}

TEST(BinaryOp, PReluSlopeMustNotGrowX) {
  OpRunner op("PRelu");
  op.AddFloatInput({3}, {1, 2, 3});
  op.AddFloatInput({2, 3}, {1, 1, 1, 1, 1, 1});
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

TEST(BinaryOp, AddFusedRelu) {
  OpRunner op("Add");
  op.attrs().SetString("activation", "Relu");
  op.AddFloatInput({4}, {-3, -1, 1, 3});
  op.AddFloatInput({1}, {1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{0, 0, 2, 4}));
}

TEST(BinaryOp, RejectsUnknownOrMisplacedActivation) {
  OpRunner add("Add");
  add.attrs().SetString("activation", "Gelu");
  add.AddFloatInput({1}, {1});
  add.AddFloatInput({1}, {1});
  EXPECT_EQ(add.Run().code(), StatusCode::kModelInvalid);

  OpRunner mul("Mul");
  mul.attrs().SetString("activation", "Relu");
  mul.AddFloatInput({1}, {1});
  mul.AddFloatInput({1}, {1});
  EXPECT_EQ(mul.Run().code(), StatusCode::kModelInvalid);

  OpRunner typed("Add");
  typed.attrs().SetInt("activation", 1);
  typed.AddFloatInput({1}, {1});
  typed.AddFloatInput({1}, {1});
  EXPECT_EQ(typed.Run().code(), StatusCode::kModelInvalid);
}

TEST(BinaryOp, EmptyOutputIsFine) {
  OpRunner op("Add");
  op.AddFloatInput({0, 3}, {});
  op.AddFloatInput({3}, {1, 2, 3});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{0, 3}));
  EXPECT_TRUE(op.FloatOutput().empty());
}

TEST(BinaryOp, RejectsIncompatibleShapes) {
  OpRunner op("Add");
  op.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  op.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);

  OpRunner zero("Mul");  // 0 and 2 do not broadcast
  zero.AddFloatInput({0}, {});
  zero.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(zero.Run().code(), StatusCode::kModelInvalid);

  OpRunner max("Max");
  max.AddFloatInput({2}, {1, 2});
  max.AddFloatInput({2}, {1, 2});
  max.AddFloatInput({3}, {1, 2, 3});
  EXPECT_EQ(max.Run().code(), StatusCode::kModelInvalid);
}

TEST(BinaryOp, RejectsBadTypesAndShapes) {
  OpRunner mixed("Add");
  mixed.AddFloatInput({1}, {1});
  mixed.AddInput<int32_t>({1}, {1}, DataType::kInt32);
  EXPECT_EQ(mixed.Run().code(), StatusCode::kModelInvalid);

  OpRunner u8("Mul");
  u8.AddInput<uint8_t>({1}, {1}, DataType::kUint8);
  u8.AddInput<uint8_t>({1}, {1}, DataType::kUint8);
  EXPECT_EQ(u8.Run().code(), StatusCode::kModelInvalid);

  OpRunner int_base("Pow");
  int_base.AddInput<int32_t>({1}, {2}, DataType::kInt32);
  int_base.AddInput<int32_t>({1}, {2}, DataType::kInt32);
  EXPECT_EQ(int_base.Run().code(), StatusCode::kModelInvalid);

  OpRunner int_prelu("PRelu");
  int_prelu.AddInput<int32_t>({1}, {2}, DataType::kInt32);
  int_prelu.AddInput<int32_t>({1}, {2}, DataType::kInt32);
  EXPECT_EQ(int_prelu.Run().code(), StatusCode::kModelInvalid);

  OpRunner negative("Sub");
  negative.AddFloatInput({-1}, {});
  negative.AddFloatInput({1}, {1});
  EXPECT_EQ(negative.Run().code(), StatusCode::kModelInvalid);

  OpRunner missing("Div");
  missing.AddFloatInput({1}, {1});
  missing.AddAbsentInput();
  EXPECT_EQ(missing.Run().code(), StatusCode::kModelInvalid);

  OpRunner one_input("Add");
  one_input.AddFloatInput({1}, {1});
  EXPECT_EQ(one_input.Run().code(), StatusCode::kModelInvalid);
}

TEST(BinaryOp, RejectsOverflowingBroadcast) {
  OpRunner op("Add");
  op.AddFloatInput({int64_t{1} << 40, 1}, {});
  op.AddFloatInput({1, int64_t{1} << 40}, {});
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
