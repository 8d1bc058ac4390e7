// RoiAlign, MaxRoiPool, MaxUnpool and MaxPool's Indices: hand-computed values. On a plane whose
// value is linear in (y, x) bilinear sampling is exact, so each RoiAlign bin is the mean of its
// sample points' 4y + x.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

std::vector<float> Ramp(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

OpRunner RoiAlign(const std::string& transform, const std::string& mode, std::vector<float> box,
                  std::vector<int64_t> batch = {0}) {
  OpRunner op("RoiAlign");
  op.attrs().SetString("coordinate_transformation_mode", transform);
  op.attrs().SetString("mode", mode);
  op.attrs().SetInt("output_height", 2);
  op.attrs().SetInt("output_width", 2);
  op.attrs().SetInt("sampling_ratio", 2);
  op.AddFloatInput({1, 1, 4, 4}, Ramp(16));  // x[y][x] = 4y + x
  op.AddFloatInput({static_cast<int64_t>(box.size() / 4), 4}, box, true);
  op.AddInt64Input({static_cast<int64_t>(batch.size())}, batch);
  return op;
}

TEST(RoiAlignOp, AveragesBilinearSamplesInBothCoordinateModes) {
  // half_pixel: box [0, 4] starts at -0.5; bin 0 samples y, x in {0, 1}: mean 4 * 0.5 + 0.5.
  OpRunner half = RoiAlign("half_pixel", "avg", {0, 0, 4, 4});
  ASSERT_TRUE(half.Run().ok());
  EXPECT_EQ(half.OutputShape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(half.FloatOutput(), (std::vector<float>{2.5f, 4.5f, 10.5f, 12.5f}));
  // output_half_pixel (opset 10): samples at 0.5, 1.5 | 2.5, 3.5 (clamped to the last row, 3).
  OpRunner output_half = RoiAlign("output_half_pixel", "avg", {0, 0, 4, 4});
  ASSERT_TRUE(output_half.Run().ok());
  EXPECT_EQ(output_half.FloatOutput(), (std::vector<float>{5.0f, 6.75f, 12.0f, 13.75f}));
}

TEST(RoiAlignOp, MaxModeTakesTheLargestWeightedCorner) {
  // ONNX Runtime's max: the largest of w_i * v_i over the four corners of each sample. A sample in
  // the middle of four ones weighs each 0.25.
  OpRunner op("RoiAlign");
  op.attrs().SetString("mode", "max");
  op.attrs().SetInt("sampling_ratio", 1);
  op.AddFloatInput({1, 1, 2, 2}, {1, 1, 1, 1});
  op.AddFloatInput({1, 4}, {0, 0, 2, 2}, true);
  op.AddInt64Input({1}, {0});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{0.25f}));
}

TEST(RoiAlignOp, BadBoxesAndIndicesAreErrors) {
  OpRunner batch = RoiAlign("half_pixel", "avg", {0, 0, 4, 4}, {1});  // one image only
  EXPECT_EQ(batch.Run().code(), StatusCode::kFail);
  OpRunner mode = RoiAlign("half_pixel", "median", {0, 0, 4, 4});
  EXPECT_EQ(mode.Run().code(), StatusCode::kModelInvalid);
  OpRunner rois("RoiAlign");
  rois.AddFloatInput({1, 1, 4, 4}, Ramp(16));
  rois.AddFloatInput({1, 5}, {0, 0, 0, 4, 4}, true);
  rois.AddInt64Input({1}, {0});
  EXPECT_EQ(rois.Run().code(), StatusCode::kModelInvalid);
}

TEST(MaxRoiPoolOp, TakesEachBinsMaximumAndZeroForEmptyBins) {
  OpRunner op("MaxRoiPool");
  op.attrs().SetInts("pooled_shape", {2, 2});
  op.AddFloatInput({1, 1, 4, 4}, Ramp(16));
  // Box [0, 3]: 4 x 4 pixels, bins of 2. Box [2, 5]: bins past row / column 3 are empty.
  op.AddFloatInput({2, 5}, {0, 0, 0, 3, 3, 0, 2, 2, 5, 5}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 1, 2, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{5, 7, 13, 15, 15, 0, 0, 0}));

  OpRunner batch("MaxRoiPool");
  batch.attrs().SetInts("pooled_shape", {1, 1});
  batch.AddFloatInput({1, 1, 4, 4}, Ramp(16));
  batch.AddFloatInput({1, 5}, {1, 0, 0, 3, 3}, true);
  EXPECT_EQ(batch.Run().code(), StatusCode::kFail);
}

TEST(MaxPoolOp, IndicesCountTheWholeTensorInEitherStorageOrder) {
  // Two planes of [[1, 9, 2], [8, 3, 7], [4, 6, 5]] (the second plus 10), 2 x 2 windows, stride 1.
  std::vector<float> x = {1, 9, 2, 8, 3, 7, 4, 6, 5};
  for (int i = 0; i < 9; ++i) x.push_back(x[static_cast<size_t>(i)] + 10);
  for (int order : {0, 1}) {
    OpRunner op("MaxPool");
    op.attrs().SetInts("kernel_shape", {2, 2});
    op.attrs().SetInt("storage_order", order);
    op.AddFloatInput({1, 2, 3, 3}, x);
    ASSERT_TRUE(op.Run(2).ok());
    EXPECT_EQ(op.FloatOutput(0), (std::vector<float>{9, 9, 8, 7, 19, 19, 18, 17}));
    // Row-major: (0, 1) -> 1, (1, 0) -> 3, (1, 2) -> 5; column-major h + 3w; plane 1 adds 9.
    const std::vector<int64_t> want = order == 0 ? std::vector<int64_t>{1, 1, 3, 5, 10, 10, 12, 14}
                                                 : std::vector<int64_t>{3, 3, 1, 7, 12, 12, 10, 16};
    EXPECT_EQ(op.OutputValues<int64_t>(1), want) << "storage_order " << order;
  }
}

TEST(MaxPoolOp, IndicesOfQuantizedCodesKeepingTheirParameters) {
  // int8 codes with one scale and zero point in and out: the largest code is the largest value.
  OpRunner op("MaxPool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInts("strides", {2});
  op.AddInput<int8_t>({1, 1, 4}, {-100, 3, 127, -128}, DataType::kInt8);
  op.SetInputQuant(0, testing::PerTensor(0.1f, -5));
  op.SetOutputQuant(0, testing::PerTensor(0.1f, -5));
  ASSERT_TRUE(op.Run(2).ok());
  EXPECT_EQ(op.OutputValues<int8_t>(0), (std::vector<int8_t>{3, 127}));
  EXPECT_EQ(op.OutputValues<int64_t>(1), (std::vector<int64_t>{1, 2}));

  // Other output parameters would need a requantization the Indices path does not do.
  OpRunner requant("MaxPool");
  requant.attrs().SetInts("kernel_shape", {2});
  requant.AddInput<int8_t>({1, 1, 4}, {-100, 3, 127, -128}, DataType::kInt8);
  requant.SetInputQuant(0, testing::PerTensor(0.1f, -5));
  requant.SetOutputQuant(0, testing::PerTensor(0.2f, -5));
  EXPECT_EQ(requant.Run(2).code(), StatusCode::kModelInvalid);
}

TEST(MaxUnpoolOp, PlacesValuesAtTheirIndices) {
  OpRunner op("MaxUnpool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInts("strides", {2});
  op.AddFloatInput({1, 1, 2}, {5, 7});
  op.AddInt64Input({1, 1, 2}, {1, 2}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{0, 5, 7, 0}));

  // output_shape: the pooled input was 5 long (the default, (2 - 1) * 2 + 2, is 4).
  OpRunner shaped("MaxUnpool");
  shaped.attrs().SetInts("kernel_shape", {2});
  shaped.attrs().SetInts("strides", {2});
  shaped.AddFloatInput({1, 1, 2}, {5, 7});
  shaped.AddInt64Input({1, 1, 2}, {1, 4}, false);
  shaped.AddInt64Input({3}, {1, 1, 5});
  ASSERT_TRUE(shaped.Run().ok());
  EXPECT_EQ(shaped.FloatOutput(), (std::vector<float>{0, 5, 0, 0, 7}));

  OpRunner outside("MaxUnpool");
  outside.attrs().SetInts("kernel_shape", {2});
  outside.attrs().SetInts("strides", {2});
  outside.AddFloatInput({1, 1, 2}, {5, 7});
  outside.AddInt64Input({1, 1, 2}, {1, 4}, false);  // 4 is past the 4-element default output
  EXPECT_EQ(outside.Run().code(), StatusCode::kFail);

  OpRunner channels("MaxUnpool");
  channels.attrs().SetInts("kernel_shape", {2});
  channels.AddFloatInput({1, 1, 2}, {5, 7});
  channels.AddInt64Input({1, 1, 2}, {0, 1}, false);
  channels.AddInt64Input({3}, {1, 2, 5});  // output_shape may not change N or C
  EXPECT_EQ(channels.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
