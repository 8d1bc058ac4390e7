#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected, float tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tol) << "at " << i;
}

// Opset 11+ layout: X, roi (absent), scales, sizes; exactly one of the last two.
void AddScales(OpRunner* op, const std::vector<float>& scales) {
  op->AddAbsentInput();
  op->AddFloatInput({static_cast<int64_t>(scales.size())}, scales, true);
}
void AddSizes(OpRunner* op, const std::vector<int64_t>& sizes) {
  op->AddAbsentInput();
  op->AddAbsentInput();
  op->AddInt64Input({static_cast<int64_t>(sizes.size())}, sizes);
}

// The 3x5 input used for the torch.nn.functional.interpolate cross-checks.
const std::vector<float> kGrid = {-4, -2.5, -1, 0.5, 2, 3.5, 5, 10, 8, 9.5, 11, 12.5, 14, 15.5, 17};

TEST(ResizeOp, NearestUpsampleDefaults) {
  // half_pixel + round_prefer_floor: x = (o + 0.5) / 2 - 0.5 -> 0, 0, 1, 1.
  OpRunner op("Resize");
  op.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});
  AddScales(&op, {1, 1, 2, 2});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4, 4}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(ResizeOp, NearestDownsampleScalesFloorTheSize) {
  // ONNX resize_downsample_scales_nearest: 2x4 * 0.6 -> 1x2 (floor 1.2, floor 2.4);
  // W: x = (o + 0.5) / 0.6 - 0.5 = 0.33, 2.0 -> columns 0 and 2.
  OpRunner op("Resize");
  op.AddFloatInput({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  AddScales(&op, {1, 1, 0.6f, 0.6f});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 1, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 3}));
}

TEST(ResizeOp, NearestModesOnTies) {
  // 2 -> 3 with half_pixel: x = -0.17, 0.5, 1.17; only the tie at 0.5 differs.
  struct Case {
    const char* mode;
    std::vector<float> expected;
  };
  for (const Case& c : {Case{"round_prefer_floor", {10, 10, 20}}, Case{"round_prefer_ceil", {10, 20, 20}},
                        Case{"floor", {10, 10, 20}}, Case{"ceil", {10, 20, 20}}}) {
    OpRunner op("Resize");
    op.attrs().SetString("nearest_mode", c.mode);
    op.AddFloatInput({2}, {10, 20});
    AddSizes(&op, {3});
    ASSERT_TRUE(op.Run().ok()) << c.mode;
    EXPECT_EQ(op.FloatOutput(), c.expected) << c.mode;
  }
}

TEST(ResizeOp, NearestAsymmetricFloorAndCeil) {
  // 4 -> 6: x = o / 1.5 = 0, 0.67, 1.33, 2, 2.67, 3.33.
  OpRunner floor_op("Resize");
  floor_op.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  floor_op.attrs().SetString("nearest_mode", "floor");
  floor_op.AddFloatInput({4}, {0, 1, 2, 3});
  AddSizes(&floor_op, {6});
  ASSERT_TRUE(floor_op.Run().ok());
  EXPECT_EQ(floor_op.FloatOutput(), (std::vector<float>{0, 0, 1, 2, 2, 3}));

  OpRunner ceil_op("Resize");  // ceil(3.33) = 4 clamps to the last index
  ceil_op.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  ceil_op.attrs().SetString("nearest_mode", "ceil");
  ceil_op.AddFloatInput({4}, {0, 1, 2, 3});
  AddSizes(&ceil_op, {6});
  ASSERT_TRUE(ceil_op.Run().ok());
  EXPECT_EQ(ceil_op.FloatOutput(), (std::vector<float>{0, 1, 2, 2, 3, 3}));
}

TEST(ResizeOp, NearestMatchesTorchNearest) {
  // torch "nearest" is asymmetric + floor. Values from F.interpolate(size=...).
  OpRunner up("Resize");
  up.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  up.attrs().SetString("nearest_mode", "floor");
  up.AddFloatInput({1, 1, 3, 5}, kGrid);
  AddSizes(&up, {1, 1, 7, 8});
  ASSERT_TRUE(up.Run().ok());
  const std::vector<float> r0 = {-4, -4, -2.5, -2.5, -1, 0.5, 0.5, 2};
  const std::vector<float> r1 = {3.5, 3.5, 5, 5, 10, 8, 8, 9.5};
  const std::vector<float> r2 = {11, 11, 12.5, 12.5, 14, 15.5, 15.5, 17};
  std::vector<float> expected;
  for (const auto* row : {&r0, &r0, &r0, &r1, &r1, &r2, &r2}) expected.insert(expected.end(), row->begin(), row->end());
  EXPECT_EQ(up.FloatOutput(), expected);

  OpRunner down("Resize");
  down.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  down.attrs().SetString("nearest_mode", "floor");
  down.AddFloatInput({1, 1, 3, 5}, kGrid);
  AddSizes(&down, {1, 1, 2, 3});
  ASSERT_TRUE(down.Run().ok());
  EXPECT_EQ(down.FloatOutput(), (std::vector<float>{-4, -2.5, 0.5, 3.5, 5, 8}));
}

TEST(ResizeOp, TfHalfPixelForNearest) {
  // x = (o + 0.5) / 2 = 0.25, 0.75, 1.25, 1.75 -> 0, 1, 1, 2 (clamped to 1).
  OpRunner op("Resize");
  op.attrs().SetString("coordinate_transformation_mode", "tf_half_pixel_for_nearest");
  op.AddFloatInput({2}, {5, 6});
  AddScales(&op, {2});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{5, 6, 6, 6}));
}

TEST(ResizeOp, Opset10TwoInputForm) {
  // (X, scales): asymmetric coordinates; onnxruntime truncates when upsampling
  // and takes the ceiling when downsampling.
  OpRunner up("Resize");
  up.AddFloatInput({2}, {5, 6});
  up.AddFloatInput({1}, {2}, true);
  ASSERT_TRUE(up.Run().ok());
  EXPECT_EQ(up.FloatOutput(), (std::vector<float>{5, 5, 6, 6}));

  OpRunner down("Resize");  // 5 * 0.6 -> 3; x = o / 0.6 = 0, 1.67, 3.33 -> 0, 2, 4
  down.AddFloatInput({5}, {0, 1, 2, 3, 4});
  down.AddFloatInput({1}, {0.6f}, true);
  ASSERT_TRUE(down.Run().ok());
  EXPECT_EQ(down.FloatOutput(), (std::vector<float>{0, 2, 4}));

  OpRunner linear("Resize");  // asymmetric linear: x = o / 2
  linear.attrs().SetString("mode", "linear");
  linear.AddFloatInput({2}, {1, 3});
  linear.AddFloatInput({1}, {2}, true);
  ASSERT_TRUE(linear.Run().ok());
  EXPECT_EQ(linear.FloatOutput(), (std::vector<float>{1, 2, 3, 3}));
}

TEST(ResizeOp, BilinearHalfPixelUpsample) {
  // ONNX resize_upsample_scales_linear.
  OpRunner op("Resize");
  op.attrs().SetString("mode", "linear");
  op.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});
  AddScales(&op, {1, 1, 2, 2});
  ASSERT_TRUE(op.Run().ok());
  ExpectNear(op.FloatOutput(),
             {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4}, 1e-6f);
}

TEST(ResizeOp, BilinearAlignCornersUpsample) {
  // ONNX resize_upsample_scales_linear_align_corners: x = o * (2 - 1) / (4 - 1).
  OpRunner op("Resize");
  op.attrs().SetString("mode", "linear");
  op.attrs().SetString("coordinate_transformation_mode", "align_corners");
  op.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});
  AddScales(&op, {1, 1, 2, 2});
  ASSERT_TRUE(op.Run().ok());
  const float t = 1.0f / 3, u = 2.0f / 3;
  ExpectNear(op.FloatOutput(), {1, 1 + t, 1 + u, 2, 1 + u, 2, 2 + t, 2 + u, 2 + t, 2 + u, 3, 3 + t, 3, 3 + t, 3 + u, 4},
             1e-6f);
}

TEST(ResizeOp, BilinearDownsample) {
  // ONNX resize_downsample_scales_linear: 2x4 * 0.6 -> 1x2.
  OpRunner op("Resize");
  op.attrs().SetString("mode", "linear");
  op.AddFloatInput({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  AddScales(&op, {1, 1, 0.6f, 0.6f});
  ASSERT_TRUE(op.Run().ok());
  ExpectNear(op.FloatOutput(), {2.6666665f, 4.3333331f}, 1e-5f);
}

TEST(ResizeOp, BilinearMatchesTorch) {
  // F.interpolate(x, size=(4, 7), mode="bilinear", align_corners=False / True).
  OpRunner hp("Resize");
  hp.attrs().SetString("mode", "linear");
  hp.attrs().SetString("coordinate_transformation_mode", "pytorch_half_pixel");
  hp.AddFloatInput({1, 1, 3, 5}, kGrid);
  AddSizes(&hp, {1, 1, 4, 7});
  ASSERT_TRUE(hp.Run().ok());
  ExpectNear(hp.FloatOutput(), {-4.0f,   -3.142857f, -2.071429f, -1.0f,  0.071429f,  1.142857f,  2.0f,
                                0.6875f, 1.544643f,  3.241072f,  5.875f, 5.383928f,  5.830357f,  6.6875f,
                                6.3125f, 7.169643f,  8.866072f,  11.5f,  11.008928f, 11.455358f, 12.3125f,
                                11.0f,   11.857142f, 12.928571f, 14.0f,  15.071428f, 16.142857f, 17.0f},
             2e-5f);

  OpRunner ac("Resize");
  ac.attrs().SetString("mode", "linear");
  ac.attrs().SetString("coordinate_transformation_mode", "align_corners");
  ac.AddFloatInput({1, 1, 3, 5}, kGrid);
  AddSizes(&ac, {1, 1, 4, 7});
  ASSERT_TRUE(ac.Run().ok());
  ExpectNear(ac.FloatOutput(),
             {-4, -3, -2,        -1,         0,          1,  2,  1,  2,  3.777778f, 6.333333f, 5.777778f, 6,  7,
              6,  7,  8.777779f, 11.333333f, 10.777778f, 11, 12, 11, 12, 13,        14,        15,        16, 17},
             2e-5f);

  OpRunner down("Resize");  // size=(2, 3)
  down.attrs().SetString("mode", "linear");
  down.AddFloatInput({1, 1, 3, 5}, kGrid);
  AddSizes(&down, {1, 1, 2, 3});
  ASSERT_TRUE(down.Run().ok());
  ExpectNear(down.FloatOutput(), {-1.625f, 1.75f, 3.375f, 9.625f, 13.0f, 14.625f}, 2e-5f);
}

TEST(ResizeOp, LinearLastDimAndTrilinearMatchTorch) {
  OpRunner linear("Resize");  // F.interpolate(size=7, mode="linear")
  linear.attrs().SetString("mode", "linear");
  linear.AddFloatInput({1, 1, 4}, {1, 4, 2, 8});
  AddSizes(&linear, {1, 1, 7});
  ASSERT_TRUE(linear.Run().ok());
  ExpectNear(linear.FloatOutput(), {1.0f, 2.0714288f, 3.7857144f, 3.0f, 2.4285722f, 5.8571439f, 8.0f}, 2e-5f);

  // F.interpolate(x ** 1.5, size=(3, 4, 3), mode="trilinear") with x = arange(12) as 2x3x2.
  std::vector<float> cube = {0.0f,       1.0f,       2.8284271f, 5.1961522f, 8.0f,       11.18034f,
                             14.696939f, 18.520260f, 22.627417f, 27.0f,      31.622776f, 36.482872f};
  OpRunner trilinear("Resize");
  trilinear.attrs().SetString("mode", "linear");
  trilinear.AddFloatInput({1, 1, 2, 3, 2}, cube);
  AddSizes(&trilinear, {1, 1, 3, 4, 3});
  ASSERT_TRUE(trilinear.Run().ok());
  ExpectNear(
      trilinear.FloatOutput(),
      {0.0f,       0.5f,       1.0f,       1.767767f,  2.695181f,  3.622595f,  4.767767f,  6.103995f,  7.440222f,
       8.0f,       9.59017f,   11.18034f,  7.348469f,  8.554299f,  9.76013f,   10.710628f, 12.215986f, 13.721345f,
       15.384222f, 17.191185f, 18.998148f, 19.811388f, 21.821497f, 23.831606f, 14.696939f, 16.608599f, 18.520258f,
       19.653486f, 21.736792f, 23.820095f, 26.000675f, 28.278376f, 30.556074f, 31.622776f, 34.052822f, 36.482868f},
      1e-4f);
}

TEST(ResizeOp, HalfPixelSymmetric) {
  // 3 * 1.5 -> 4: adjustment 4 / 4.5, offset 1.5 * (1 - 8/9) = 1/6, so
  // x = 1/6 + (o + 0.5) / 1.5 - 0.5 = 0, 2/3, 4/3, 2.
  OpRunner op("Resize");
  op.attrs().SetString("mode", "linear");
  op.attrs().SetString("coordinate_transformation_mode", "half_pixel_symmetric");
  op.AddFloatInput({3}, {0, 10, 20});
  AddScales(&op, {1.5f});
  ASSERT_TRUE(op.Run().ok());
  ExpectNear(op.FloatOutput(), {0, 20.0f / 3, 40.0f / 3, 20}, 1e-5f);
}

TEST(ResizeOp, EmptyTensorsCountAsAbsent) {
  // roi and scales given as 0-element tensors, sizes used.
  OpRunner op("Resize");
  op.AddFloatInput({1, 2}, {1, 2});
  op.AddFloatInput({0}, {}, true);
  op.AddFloatInput({0}, {}, true);
  op.AddInt64Input({2}, {2, 4});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 4}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2}));

  OpRunner axes("Resize");  // opset 18 axes: only the last dim is resized
  axes.attrs().SetInts("axes", {-1});
  axes.AddFloatInput({2, 1}, {3, 4});
  AddScales(&axes, {3});
  ASSERT_TRUE(axes.Run().ok());
  EXPECT_EQ(axes.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(axes.FloatOutput(), (std::vector<float>{3, 3, 3, 4, 4, 4}));
}

Status RunWithAttr(const char* name, const char* value) {
  OpRunner op("Resize");
  op.attrs().SetString(name, value);
  op.AddFloatInput({1, 1, 2, 2}, {1, 2, 3, 4});
  AddScales(&op, {1, 1, 2, 2});
  return op.Run();
}

TEST(ResizeOp, RejectsUnsupportedModesByName) {
  const Status cubic = RunWithAttr("mode", "cubic");
  EXPECT_EQ(cubic.code(), StatusCode::kModelInvalid);
  EXPECT_NE(cubic.message().find("cubic"), std::string::npos) << cubic.message();

  const Status crop = RunWithAttr("coordinate_transformation_mode", "tf_crop_and_resize");
  EXPECT_EQ(crop.code(), StatusCode::kModelInvalid);
  EXPECT_NE(crop.message().find("tf_crop_and_resize"), std::string::npos) << crop.message();

  EXPECT_EQ(RunWithAttr("mode", "bicubic").code(), StatusCode::kModelInvalid);
  EXPECT_EQ(RunWithAttr("nearest_mode", "nearest").code(), StatusCode::kModelInvalid);
  EXPECT_EQ(RunWithAttr("keep_aspect_ratio_policy", "not_larger").code(), StatusCode::kModelInvalid);
}

TEST(ResizeOp, RejectsBadInputs) {
  {
    OpRunner op("Resize");  // both scales and sizes
    op.AddFloatInput({2}, {1, 2});
    op.AddAbsentInput();
    op.AddFloatInput({1}, {2}, true);
    op.AddInt64Input({1}, {4});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Resize");  // neither
    op.AddFloatInput({2}, {1, 2});
    op.AddAbsentInput();
    op.AddAbsentInput();
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Resize");  // scales computed at run time
    op.AddFloatInput({2}, {1, 2});
    op.AddAbsentInput();
    op.AddFloatInput({1}, {2}, false);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  for (const std::vector<float>& scales :
       std::vector<std::vector<float>>{{2}, {1, 1, 2}, {1, 0}, {1, -2}, {1, 1e30f}}) {
    OpRunner op("Resize");
    op.AddFloatInput({1, 2}, {1, 2});
    AddScales(&op, scales);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid) << scales.size();
  }
  {
    OpRunner op("Resize");  // negative size
    op.AddFloatInput({1, 2}, {1, 2});
    AddSizes(&op, {1, -4});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Resize");  // float32 only
    op.AddInput<int32_t>({2}, {1, 2}, DataType::kInt32);
    AddScales(&op, {2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Resize");  // rank above the kernel limit
    op.AddFloatInput({1, 1, 1, 1, 1, 1, 1, 1, 2}, {1, 2});
    AddScales(&op, {1, 1, 1, 1, 1, 1, 1, 1, 2});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
  {
    OpRunner op("Resize");  // cannot grow an empty dim
    op.AddFloatInput({0}, {});
    AddSizes(&op, {3});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
