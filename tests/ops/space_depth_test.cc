// DepthToSpace / SpaceToDepth (runtime/ops/space_depth.cc) against hand-computed layouts and the
// ONNX definitions' reshape-transpose-reshape written as index loops.
#include <gtest/gtest.h>

#include <numeric>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

TEST(SpaceDepthOp, DepthToSpaceDcrAndCrdByHand) {
  // One pixel of 4 channels, blocksize 2: DCR takes channel (by, bx) = 2 by + bx; CRD the same for one
  // output channel; they differ with 2 output channels (below).
  OpRunner dcr("DepthToSpace");
  dcr.attrs().SetInt("blocksize", 2);
  dcr.AddFloatInput({1, 8, 1, 1}, Iota(8));
  ASSERT_TRUE(dcr.Run().ok());
  EXPECT_EQ(dcr.OutputShape(), (Shape{1, 2, 2, 2}));
  // DCR: output channel c, (by, bx) reads input channel (by * 2 + bx) * 2 + c.
  EXPECT_EQ(dcr.FloatOutput(), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));

  OpRunner crd("DepthToSpace");
  crd.attrs().SetInt("blocksize", 2);
  crd.attrs().SetString("mode", "CRD");
  crd.AddFloatInput({1, 8, 1, 1}, Iota(8));
  ASSERT_TRUE(crd.Run().ok());
  // CRD: output channel c, (by, bx) reads input channel c * 4 + by * 2 + bx.
  EXPECT_EQ(crd.FloatOutput(), Iota(8));
}

TEST(SpaceDepthOp, RoundTripsOnRandomShapes) {
  const Shape shape = {2, 3, 4, 6};  // N, C, H, W
  const std::vector<float> x = Iota(NumElements(shape));
  OpRunner s2d("SpaceToDepth");
  s2d.attrs().SetInt("blocksize", 2);
  s2d.AddFloatInput(shape, x);
  ASSERT_TRUE(s2d.Run().ok());
  EXPECT_EQ(s2d.OutputShape(), (Shape{2, 12, 2, 3}));
  // SpaceToDepth: output channel (by * 2 + bx) * C + c at (h, w) is input (c, 2h + by, 2w + bx).
  const std::vector<float> y = s2d.FloatOutput();
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t oc = 0; oc < 12; ++oc) {
      for (int64_t h = 0; h < 2; ++h) {
        for (int64_t w = 0; w < 3; ++w) {
          const int64_t c = oc % 3, by = oc / 3 / 2, bx = oc / 3 % 2;
          const float want = x[static_cast<size_t>(((n * 3 + c) * 4 + 2 * h + by) * 6 + 2 * w + bx)];
          ASSERT_EQ(y[static_cast<size_t>(((n * 12 + oc) * 2 + h) * 3 + w)], want) << n << " " << oc << " " << h << " " << w;
        }
      }
    }
  }
  OpRunner d2s("DepthToSpace");  // DCR inverts SpaceToDepth
  d2s.attrs().SetInt("blocksize", 2);
  d2s.AddFloatInput({2, 12, 2, 3}, y);
  ASSERT_TRUE(d2s.Run().ok());
  EXPECT_EQ(d2s.OutputShape(), shape);
  EXPECT_EQ(d2s.FloatOutput(), x);
}

TEST(SpaceDepthOp, QuantizedCodesKeepTheirParameters) {
  OpRunner op("DepthToSpace");
  op.attrs().SetInt("blocksize", 2);
  op.AddInput<int8_t>({1, 4, 1, 1}, {-3, 5, 7, -128}, DataType::kInt8);
  op.SetInputQuant(0, testing::PerTensor(0.1f, 2));
  op.SetOutputQuant(0, testing::PerTensor(0.1f, 2));
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-3, 5, 7, -128}));
}

TEST(SpaceDepthOp, RejectsBadModels) {
  auto code = [](const char* op, Shape shape, int64_t blocksize, const char* mode) {
    OpRunner r(op);
    if (blocksize != 0) r.attrs().SetInt("blocksize", blocksize);
    if (mode != nullptr) r.attrs().SetString("mode", mode);
    r.AddFloatInput(shape, std::vector<float>(static_cast<size_t>(NumElements(shape))));
    return r.Run().code();
  };
  EXPECT_EQ(code("DepthToSpace", {1, 6, 2, 2}, 2, nullptr), StatusCode::kModelInvalid);  // 6 % 4
  EXPECT_EQ(code("DepthToSpace", {1, 4, 2, 2}, 2, "XYZ"), StatusCode::kModelInvalid);
  EXPECT_EQ(code("DepthToSpace", {1, 4, 2, 2}, 0, nullptr), StatusCode::kModelInvalid);  // no blocksize
  EXPECT_EQ(code("SpaceToDepth", {1, 1, 3, 4}, 2, nullptr), StatusCode::kModelInvalid);  // 3 % 2
  EXPECT_EQ(code("SpaceToDepth", {1, 4, 4}, 2, nullptr), StatusCode::kModelInvalid);     // rank 3
  EXPECT_EQ(code("SpaceToDepth", {1, 1, 4, 4}, -1, nullptr), StatusCode::kModelInvalid);
}

TEST(TileOp, RepeatsEachDim) {
  OpRunner op("Tile");
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddInt64Input({2}, {2, 3});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{4, 6}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                                                  1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));

  OpRunner zero("Tile");  // a zero repeat empties the dim
  zero.AddInt64Input({3}, {7, 8, 9}, false);
  zero.AddInt64Input({1}, {0});
  ASSERT_TRUE(zero.Run().ok());
  EXPECT_EQ(zero.OutputShape(), (Shape{0}));

  OpRunner ones("Tile");
  ones.AddInput<int8_t>({1, 3}, {4, -5, 6}, DataType::kInt8);
  ones.AddInt64Input({2}, {2, 1});
  ASSERT_TRUE(ones.Run().ok());
  EXPECT_EQ(ones.OutputValues<int8_t>(), (std::vector<int8_t>{4, -5, 6, 4, -5, 6}));
}

TEST(TileOp, RejectsBadRepeats) {
  OpRunner count("Tile");
  count.AddFloatInput({2, 2}, {1, 2, 3, 4});
  count.AddInt64Input({1}, {2});
  EXPECT_EQ(count.Run().code(), StatusCode::kModelInvalid);

  OpRunner negative("Tile");
  negative.AddFloatInput({2}, {1, 2});
  negative.AddInt64Input({1}, {-1});
  EXPECT_EQ(negative.Run().code(), StatusCode::kModelInvalid);

  OpRunner runtime("Tile");
  runtime.AddFloatInput({2}, {1, 2});
  runtime.AddInt64Input({1}, {2}, false);
  EXPECT_EQ(runtime.Run().code(), StatusCode::kModelInvalid);

  OpRunner huge("Tile");
  huge.AddFloatInput({2}, {1, 2});
  huge.AddInt64Input({1}, {INT64_MAX});
  EXPECT_EQ(huge.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
