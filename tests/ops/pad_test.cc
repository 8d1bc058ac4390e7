#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(PadOp, ConstantFromInputs) {
  // [[1,2],[3,4]] with one row on top and one column on the right, value 9.
  OpRunner op("Pad");
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddInt64Input({4}, {1, 0, 0, 1});
  op.AddFloatInput({}, {9}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{9, 9, 9, 1, 2, 9, 3, 4, 9}));
}

TEST(PadOp, AttributesBeforeOpset11) {
  OpRunner op("Pad");
  op.attrs().SetInts("pads", {0, 2, 0, 1});
  op.attrs().SetFloat("value", 1.5f);
  op.AddFloatInput({1, 2}, {7, 8});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 5}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1.5f, 1.5f, 7, 8, 1.5f}));

  OpRunner zero("Pad");  // default value 0
  zero.attrs().SetInts("pads", {1, 1});
  zero.AddInput<int32_t>({1}, {5}, DataType::kInt32);
  ASSERT_TRUE(zero.Run().ok());
  EXPECT_EQ(zero.OutputValues<int32_t>(), (std::vector<int32_t>{0, 5, 0}));
}

TEST(PadOp, ReflectAndEdge1D) {
  OpRunner reflect("Pad");
  reflect.attrs().SetString("mode", "reflect");
  reflect.AddFloatInput({4}, {1, 2, 3, 4});
  reflect.AddInt64Input({2}, {2, 3});
  ASSERT_TRUE(reflect.Run().ok());
  EXPECT_EQ(reflect.FloatOutput(), (std::vector<float>{3, 2, 1, 2, 3, 4, 3, 2, 1}));

  OpRunner edge("Pad");
  edge.attrs().SetString("mode", "edge");
  edge.AddFloatInput({3}, {1, 2, 3});
  edge.AddInt64Input({2}, {2, 1});
  ASSERT_TRUE(edge.Run().ok());
  EXPECT_EQ(edge.FloatOutput(), (std::vector<float>{1, 1, 1, 2, 3, 3}));
}

TEST(PadOp, WrapOpset19RepeatsTheDimCyclically) {
  // numpy.pad(mode='wrap'): pads longer than the dim wrap more than once.
  OpRunner wrap("Pad");
  wrap.attrs().SetString("mode", "wrap");
  wrap.AddFloatInput({3}, {1, 2, 3});
  wrap.AddInt64Input({2}, {4, 2});
  ASSERT_TRUE(wrap.Run().ok());
  EXPECT_EQ(wrap.FloatOutput(), (std::vector<float>{3, 1, 2, 3, 1, 2, 3, 1, 2}));

  OpRunner wrap2d("Pad");
  wrap2d.attrs().SetString("mode", "wrap");
  wrap2d.AddFloatInput({2, 2}, {1, 2, 3, 4});
  wrap2d.AddInt64Input({4}, {1, 0, 0, 1});  // one row before, one column after
  ASSERT_TRUE(wrap2d.Run().ok());
  EXPECT_EQ(wrap2d.OutputShape(), (Shape{3, 3}));
  EXPECT_EQ(wrap2d.FloatOutput(), (std::vector<float>{3, 4, 3, 1, 2, 1, 3, 4, 3}));
}

TEST(PadOp, Reflect2D) {
  // numpy.pad([[1,2,3],[4,5,6]], ((1,1),(2,0)), mode="reflect")
  OpRunner op("Pad");
  op.attrs().SetString("mode", "reflect");
  op.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  op.AddInt64Input({4}, {1, 2, 1, 0});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{4, 5}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{6, 5, 4, 5, 6,  //
                                                  3, 2, 1, 2, 3,  //
                                                  6, 5, 4, 5, 6,  //
                                                  3, 2, 1, 2, 3}));
}

TEST(PadOp, Edge2DInt8) {
  OpRunner op("Pad");
  op.attrs().SetString("mode", "edge");
  op.AddInput<int8_t>({2, 2}, {1, 2, 3, 4}, DataType::kInt8);
  op.AddInt64Input({4}, {0, 1, 1, 1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 4}));
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(PadOp, NegativePadsCropFirst) {
  OpRunner constant("Pad");
  constant.AddFloatInput({5}, {1, 2, 3, 4, 5});
  constant.AddInt64Input({2}, {-1, 2});
  ASSERT_TRUE(constant.Run().ok());
  EXPECT_EQ(constant.FloatOutput(), (std::vector<float>{2, 3, 4, 5, 0, 0}));

  // Reflect mirrors the cropped region [2,3,4,5], as onnxruntime does.
  OpRunner reflect("Pad");
  reflect.attrs().SetString("mode", "reflect");
  reflect.AddFloatInput({5}, {1, 2, 3, 4, 5});
  reflect.AddInt64Input({2}, {-1, 2});
  ASSERT_TRUE(reflect.Run().ok());
  EXPECT_EQ(reflect.FloatOutput(), (std::vector<float>{2, 3, 4, 5, 4, 3}));

  OpRunner crop_2d("Pad");
  crop_2d.AddInput<int64_t>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, DataType::kInt64, false);
  crop_2d.AddInt64Input({4}, {-1, 0, 0, -2});
  ASSERT_TRUE(crop_2d.Run().ok());
  EXPECT_EQ(crop_2d.OutputShape(), (Shape{2, 1}));
  EXPECT_EQ(crop_2d.OutputValues<int64_t>(), (std::vector<int64_t>{4, 7}));

  OpRunner crop_all("Pad");  // crop to nothing, then pad with the constant
  crop_all.AddFloatInput({2}, {1, 2});
  crop_all.AddInt64Input({2}, {-2, 1});
  ASSERT_TRUE(crop_all.Run().ok());
  EXPECT_EQ(crop_all.FloatOutput(), (std::vector<float>{0}));
}

TEST(PadOp, AxesInputOpset18) {
  OpRunner op("Pad");
  op.AddInput<uint8_t>({2, 2}, {1, 2, 3, 4}, DataType::kUint8);
  op.AddInt64Input({2}, {1, 1});
  op.AddInput<uint8_t>({1}, {7}, DataType::kUint8, true);
  op.AddInt64Input({1}, {-1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 4}));
  EXPECT_EQ(op.OutputValues<uint8_t>(), (std::vector<uint8_t>{7, 1, 2, 7, 7, 3, 4, 7}));
}

TEST(PadOp, RuntimeConstantValueAndAbsentValue) {
  OpRunner runtime("Pad");  // constant_value computed by an earlier op: read at eval
  runtime.AddFloatInput({1}, {1});
  runtime.AddInt64Input({2}, {1, 0});
  runtime.AddFloatInput({1}, {-2}, false);
  ASSERT_TRUE(runtime.Run().ok());
  EXPECT_EQ(runtime.FloatOutput(), (std::vector<float>{-2, 1}));

  OpRunner absent("Pad");
  absent.AddFloatInput({1}, {1});
  absent.AddInt64Input({2}, {0, 1});
  absent.AddAbsentInput();
  ASSERT_TRUE(absent.Run().ok());
  EXPECT_EQ(absent.FloatOutput(), (std::vector<float>{1, 0}));
}

TEST(PadOp, Rank3MatchesIndependentLoop) {
  // Edge mode on [2,3,2] with pads (1,0,2) before and (0,2,1) after.
  std::vector<float> in(12);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  OpRunner op("Pad");
  op.attrs().SetString("mode", "edge");
  op.AddFloatInput({2, 3, 2}, in);
  op.AddInt64Input({6}, {1, 0, 2, 0, 2, 1});
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.OutputShape(), (Shape{3, 5, 5}));
  auto clamp = [](int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); };
  std::vector<float> expected;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 5; ++b) {
      for (int c = 0; c < 5; ++c) expected.push_back(in[(clamp(a - 1, 1) * 3 + clamp(b, 2)) * 2 + clamp(c - 2, 1)]);
    }
  }
  EXPECT_EQ(op.FloatOutput(), expected);
}

TEST(PadOp, RejectsBadModels) {
  auto run = [](const char* mode, Shape shape, std::vector<int64_t> pads) {
    OpRunner op("Pad");
    op.attrs().SetString("mode", mode);
    op.AddFloatInput(shape, std::vector<float>(static_cast<size_t>(NumElements(shape))));
    op.AddInt64Input({static_cast<int64_t>(pads.size())}, pads);
    return op.Run().code();
  };
  EXPECT_EQ(run("constant", {2, 2}, {1, 1}), StatusCode::kModelInvalid);  // pads length
  EXPECT_EQ(run("reflect", {3}, {3, 0}), StatusCode::kModelInvalid);      // reflect pad >= dim
  EXPECT_EQ(run("reflect", {1}, {1, 0}), StatusCode::kModelInvalid);
  EXPECT_EQ(run("edge", {2}, {-2, 1}), StatusCode::kModelInvalid);       // edge of nothing
  EXPECT_EQ(run("constant", {3}, {-2, -2}), StatusCode::kModelInvalid);  // crops more than dim
  EXPECT_EQ(run("constant", {3}, {INT64_MIN, 0}), StatusCode::kModelInvalid);
  EXPECT_EQ(run("constant", {3}, {INT64_MAX, INT64_MAX}), StatusCode::kModelInvalid);
  EXPECT_EQ(run("wrap", {2}, {-2, 1}), StatusCode::kModelInvalid);  // wrap of nothing
  EXPECT_EQ(run("circular", {3}, {1, 1}), StatusCode::kModelInvalid);

  OpRunner bad_value_type("Pad");
  bad_value_type.AddFloatInput({2}, {1, 2});
  bad_value_type.AddInt64Input({2}, {1, 1});
  bad_value_type.AddInt64Input({}, {3});
  EXPECT_EQ(bad_value_type.Run().code(), StatusCode::kModelInvalid);

  OpRunner vector_value("Pad");
  vector_value.AddFloatInput({2}, {1, 2});
  vector_value.AddInt64Input({2}, {1, 1});
  vector_value.AddFloatInput({2}, {3, 4}, true);
  EXPECT_EQ(vector_value.Run().code(), StatusCode::kModelInvalid);

  OpRunner repeated_axes("Pad");
  repeated_axes.AddFloatInput({2, 2}, {1, 2, 3, 4});
  repeated_axes.AddInt64Input({4}, {1, 1, 1, 1});
  repeated_axes.AddAbsentInput();
  repeated_axes.AddInt64Input({2}, {1, -1});
  EXPECT_EQ(repeated_axes.Run().code(), StatusCode::kModelInvalid);

  OpRunner runtime_pads("Pad");
  runtime_pads.AddFloatInput({2}, {1, 2});
  runtime_pads.AddInt64Input({2}, {1, 1}, false);
  EXPECT_EQ(runtime_pads.Run().code(), StatusCode::kModelInvalid);

  OpRunner no_pads("Pad");
  no_pads.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(no_pads.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
