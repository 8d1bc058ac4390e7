#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

const std::vector<float> kSix = {1, 2, 3, 4, 5, 6};

TEST(ReshapeOp, ZeroCopiesAndMinusOneInfers) {
  OpRunner op("Reshape");
  op.AddFloatInput({2, 3, 1}, kSix);
  op.AddInt64Input({3}, {0, -1, 1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3, 1}));
  EXPECT_EQ(op.FloatOutput(), kSix);

  OpRunner flat("Reshape");
  flat.AddInput<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}, DataType::kInt32);
  flat.AddInput<int32_t>({1}, {-1}, DataType::kInt32, true);
  ASSERT_TRUE(flat.Run().ok());
  EXPECT_EQ(flat.OutputShape(), (Shape{6}));
  EXPECT_EQ(flat.OutputValues<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ReshapeOp, AllowZeroKeepsZeroDims) {
  OpRunner op("Reshape");
  op.attrs().SetInt("allowzero", 1);
  op.AddFloatInput({0, 4}, {});
  op.AddInt64Input({3}, {4, 0, 2});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{4, 0, 2}));

  OpRunner copying("Reshape");  // without allowzero, 0 copies the input dim
  copying.AddFloatInput({2, 3, 1}, kSix);
  copying.AddInt64Input({2}, {0, 3});
  ASSERT_TRUE(copying.Run().ok());
  EXPECT_EQ(copying.OutputShape(), (Shape{2, 3}));
}

TEST(ReshapeOp, ShapeAttributeBeforeOpset5) {
  OpRunner op("Reshape");
  op.attrs().SetInts("shape", {3, -1});
  op.AddFloatInput({6}, kSix);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 2}));
}

TEST(ReshapeOp, RejectsBadShapes) {
  auto run = [](Shape in, std::vector<int64_t> shape, int64_t allowzero) {
    OpRunner op("Reshape");
    op.attrs().SetInt("allowzero", allowzero);
    op.AddFloatInput(in, std::vector<float>(static_cast<size_t>(NumElements(in))));
    op.AddInt64Input({static_cast<int64_t>(shape.size())}, shape);
    return op.Run().code();
  };
  EXPECT_EQ(run({2, 3}, {4, 2}, 0), StatusCode::kModelInvalid);    // element count
  EXPECT_EQ(run({2, 3}, {-1, -1}, 0), StatusCode::kModelInvalid);  // two -1
  EXPECT_EQ(run({2, 3}, {-2, -3}, 0), StatusCode::kModelInvalid);  // negative dims
  EXPECT_EQ(run({2, 3}, {4, -1}, 0), StatusCode::kModelInvalid);   // not divisible
  EXPECT_EQ(run({6}, {1, 0}, 0), StatusCode::kModelInvalid);       // 0 past the input rank
  EXPECT_EQ(run({0, 3}, {0, -1}, 1), StatusCode::kModelInvalid);   // -1 beside a kept 0
  EXPECT_EQ(run({2, 3}, {INT64_MAX, INT64_MAX}, 0), StatusCode::kModelInvalid);

  OpRunner runtime_shape("Reshape");
  runtime_shape.AddFloatInput({6}, kSix);
  runtime_shape.AddInt64Input({1}, {6}, false);
  EXPECT_EQ(runtime_shape.Run().code(), StatusCode::kModelInvalid);
}

TEST(FlattenOp, AxisVariants) {
  struct Case {
    int64_t axis;
    Shape expected;
  };
  for (const Case& c :
       {Case{1, {2, 12}}, Case{0, {1, 24}}, Case{3, {24, 1}}, Case{-1, {6, 4}}, Case{-3, {1, 24}}, Case{2, {6, 4}}}) {
    OpRunner op("Flatten");
    op.attrs().SetInt("axis", c.axis);
    std::vector<float> v(24);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    op.AddFloatInput({2, 3, 4}, v);
    ASSERT_TRUE(op.Run().ok()) << c.axis;
    EXPECT_EQ(op.OutputShape(), c.expected) << c.axis;
    EXPECT_EQ(op.FloatOutput(), v);
  }
  OpRunner defaults("Flatten");
  defaults.AddInput<uint8_t>({2, 1, 2}, {1, 2, 3, 4}, DataType::kUint8);
  ASSERT_TRUE(defaults.Run().ok());
  EXPECT_EQ(defaults.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(defaults.OutputValues<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4}));

  for (int64_t bad : {4, -4}) {
    OpRunner op("Flatten");
    op.attrs().SetInt("axis", bad);
    op.AddFloatInput({1, 2, 3}, kSix);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid) << bad;
  }
}

TEST(SqueezeOp, AxesFromAttributeInputOrAllOnes) {
  OpRunner attr("Squeeze");
  attr.attrs().SetInts("axes", {0, -1});
  attr.AddFloatInput({1, 3, 1, 2, 1}, kSix);
  ASSERT_TRUE(attr.Run().ok());
  EXPECT_EQ(attr.OutputShape(), (Shape{3, 1, 2}));
  EXPECT_EQ(attr.FloatOutput(), kSix);

  OpRunner input("Squeeze");
  input.AddFloatInput({1, 3, 1, 2, 1}, kSix);
  input.AddInt64Input({1}, {2});
  ASSERT_TRUE(input.Run().ok());
  EXPECT_EQ(input.OutputShape(), (Shape{1, 3, 2, 1}));

  OpRunner all("Squeeze");
  all.AddFloatInput({1, 3, 1, 2, 1}, kSix);
  ASSERT_TRUE(all.Run().ok());
  EXPECT_EQ(all.OutputShape(), (Shape{3, 2}));

  OpRunner to_scalar("Squeeze");
  to_scalar.AddInt64Input({1, 1}, {42}, false);
  ASSERT_TRUE(to_scalar.Run().ok());
  EXPECT_EQ(to_scalar.OutputShape(), Shape{});
  EXPECT_EQ(to_scalar.OutputValues<int64_t>(), (std::vector<int64_t>{42}));
}

TEST(SqueezeOp, RejectsBadAxes) {
  for (std::vector<int64_t> axes : std::vector<std::vector<int64_t>>{{1}, {0, 0}, {0, -3}, {3}, {-4}}) {
    OpRunner op("Squeeze");
    op.attrs().SetInts("axes", axes);
    op.AddFloatInput({1, 3, 1}, {1, 2, 3});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid) << axes[0];
  }
}

TEST(UnsqueezeOp, AxesRelativeToOutputRank) {
  OpRunner attr("Unsqueeze");
  attr.attrs().SetInts("axes", {0, 3});
  attr.AddFloatInput({2, 3}, kSix);
  ASSERT_TRUE(attr.Run().ok());
  EXPECT_EQ(attr.OutputShape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(attr.FloatOutput(), kSix);

  OpRunner negative("Unsqueeze");  // -1 is the last dim of the 4-D output
  negative.AddFloatInput({2, 3}, kSix);
  negative.AddInt64Input({2}, {-1, 1});
  ASSERT_TRUE(negative.Run().ok());
  EXPECT_EQ(negative.OutputShape(), (Shape{2, 1, 3, 1}));

  OpRunner scalar("Unsqueeze");
  scalar.attrs().SetInts("axes", {0});
  scalar.AddInput<int8_t>({}, {-7}, DataType::kInt8);
  ASSERT_TRUE(scalar.Run().ok());
  EXPECT_EQ(scalar.OutputShape(), (Shape{1}));
  EXPECT_EQ(scalar.OutputValues<int8_t>(), (std::vector<int8_t>{-7}));
}

TEST(UnsqueezeOp, RejectsBadAxes) {
  for (std::vector<int64_t> axes : std::vector<std::vector<int64_t>>{{4}, {-5}, {1, 1}, {0, -4}}) {
    OpRunner op("Unsqueeze");
    op.attrs().SetInts("axes", axes);
    op.AddFloatInput({2, 3}, kSix);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid) << axes[0];
  }
  OpRunner missing("Unsqueeze");
  missing.AddFloatInput({2, 3}, kSix);
  EXPECT_EQ(missing.Run().code(), StatusCode::kModelInvalid);
}

TEST(IdentityOp, CopiesAnyType) {
  OpRunner op("Identity");
  op.AddInput<uint8_t>({2, 2}, {1, 0, 1, 1}, DataType::kBool);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.output().dtype, DataType::kBool);
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.OutputValues<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(IdentityOp, SameBufferIsLeftAlone) {
  // The planner may alias input and output; eval must not memcpy onto itself.
  std::vector<float> buffer = {1, 2, 3};
  Tensor t;
  t.shape = {3};
  t.data = buffer.data();
  t.bytes = 12;
  OpNode node;
  node.def = FindOp("Identity");
  ASSERT_NE(node.def, nullptr);
  node.inputs = {&t};
  node.outputs = {&t};
  ASSERT_TRUE(node.def->eval(&node).ok());
  EXPECT_EQ(buffer, (std::vector<float>{1, 2, 3}));
}

}  // namespace
}  // namespace npurt
