// Int8 MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool
// (runtime/kernels/ref/pooling.h): hand-computed cases, the float oracle on
// random windows, error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::OracleInput;
using testing::OracleStats;
using testing::PerTensor;
using testing::RandomCodes;
using testing::RandomQuant;

// 4x4 codes -40 -35 ... 35 (row-major, step 5).
std::vector<int8_t> Ramp4x4() {
  std::vector<int8_t> v;
  for (int i = 0; i < 16; ++i) v.push_back(static_cast<int8_t>(i * 5 - 40));
  return v;
}

TEST(PoolingInt8, MaxPoolCopiesCodesWithEqualParametersAndRequantizesOtherwise) {
  // Rows: -40 -35 -30 -25 | -20 -15 -10 -5 | 0 5 10 15 | 20 25 30 35; 2x2 windows, stride 2:
  // maxima -15 -5 25 35.
  OpRunner same("MaxPool");
  same.attrs().SetInts("kernel_shape", {2, 2});
  same.attrs().SetInts("strides", {2, 2});
  same.AddInput<int8_t>({1, 1, 4, 4}, Ramp4x4(), DataType::kInt8);
  same.SetInputQuant(0, PerTensor(0.5f, -3));
  same.SetOutputQuant(0, PerTensor(0.5f, -3));
  const Status s = same.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(same.output().dtype, DataType::kInt8);
  EXPECT_EQ(same.OutputShape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(same.OutputValues<int8_t>(), (std::vector<int8_t>{-15, -5, 25, 35}));

  OpRunner other("MaxPool");
  other.attrs().SetInts("kernel_shape", {2, 2});
  other.attrs().SetInts("strides", {2, 2});
  other.AddInput<int8_t>({1, 1, 4, 4}, Ramp4x4(), DataType::kInt8);
  other.SetInputQuant(0, PerTensor(0.5f, -3));
  // real (scale 0.5, zp -3): -6 -1 14 19 -> scale 0.25, zp 50: -24 -4 56 76 -> 26 46 106 126
  other.SetOutputQuant(0, PerTensor(0.25f, 50));
  ASSERT_TRUE(other.Run().ok());
  EXPECT_EQ(other.OutputValues<int8_t>(), (std::vector<int8_t>{26, 46, 106, 126}));
}

TEST(PoolingInt8, AveragePoolPaddingIsRealZeroAndCountIncludePadChangesTheDivisor) {
  // x 3x3, scale 1, zp 10: codes 11..19 -> real 1..9. kernel 2x2, pads 1, stride 2 -> 2x2 windows:
  //   (0,0): {1}            sum 1,  1 tap inside
  //   (0,1): {2, 3}         sum 5,  2 taps
  //   (1,0): {4, 7}         sum 11, 2 taps
  //   (1,1): {5, 6, 8, 9}   sum 28, 4 taps
  // Output scale 0.5, zp 0.
  //   count_include_pad 0: means 1 2.5 5.5 7   -> / 0.5 = 2 5 11 14
  //   count_include_pad 1: means 0.25 1.25 2.75 7 -> / 0.5 = 0.5 2.5 5.5 14 -> half to even 0 2 6 14
  const std::vector<int8_t> x = {11, 12, 13, 14, 15, 16, 17, 18, 19};
  const std::vector<std::vector<int8_t>> want = {{2, 5, 11, 14}, {0, 2, 6, 14}};
  for (int include : {0, 1}) {
    OpRunner op("AveragePool");
    op.attrs().SetInts("kernel_shape", {2, 2});
    op.attrs().SetInts("strides", {2, 2});
    op.attrs().SetInts("pads", {1, 1, 1, 1});
    op.attrs().SetInt("count_include_pad", include);
    op.AddInput<int8_t>({1, 1, 3, 3}, x, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f, 10));
    op.SetOutputQuant(0, PerTensor(0.5f, 0));
    const Status s = op.Run();
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(op.OutputValues<int8_t>(), want[include]) << "count_include_pad " << include;
  }
}

TEST(PoolingInt8, GlobalPools) {
  // channel 0: codes 0 1 2 4 (scale 0.5, zp 0) -> real 0 0.5 1 2: mean 0.875, max 2
  // channel 1: codes -128 -128 127 127 -> real -64 -64 63.5 63.5: mean -0.25, max 63.5
  const std::vector<int8_t> x = {0, 1, 2, 4, -128, -128, 127, 127};
  OpRunner avg("GlobalAveragePool");
  avg.AddInput<int8_t>({1, 2, 2, 2}, x, DataType::kInt8);
  avg.SetInputQuant(0, PerTensor(0.5f, 0));
  avg.SetOutputQuant(0, PerTensor(0.25f, 0));
  const Status s = avg.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(avg.OutputShape(), (Shape{1, 2, 1, 1}));
  // 0.875 / 0.25 = 3.5 -> 4 (even); -0.25 / 0.25 = -1
  EXPECT_EQ(avg.OutputValues<int8_t>(), (std::vector<int8_t>{4, -1}));

  OpRunner max("GlobalMaxPool");
  max.AddInput<int8_t>({1, 2, 2, 2}, x, DataType::kInt8);
  max.SetInputQuant(0, PerTensor(0.5f, 0));
  max.SetOutputQuant(0, PerTensor(0.25f, 0));
  ASSERT_TRUE(max.Run().ok());
  // 2 / 0.25 = 8; 63.5 / 0.25 = 254 -> saturates at 127
  EXPECT_EQ(max.OutputValues<int8_t>(), (std::vector<int8_t>{8, 127}));
}

// A random valid MaxPool/AveragePool case of 1 to 3 spatial dims.
struct PoolCase {
  Attributes attrs;
  Shape shape;
};

PoolCase RandomPoolCase(std::mt19937* rng, bool max) {
  std::uniform_int_distribution<int> spatial_dist(1, 3), k_dist(1, 4), s_dist(1, 3), d_dist(1, 2), coin(0, 1),
      extra(0, 6), pad_mode(0, 5), n_dist(1, 2), c_dist(1, 5);
  const int spatial = spatial_dist(*rng);
  std::vector<int64_t> kernel, strides, dilations, pads_begin, pads_end;
  PoolCase c;
  c.shape = {n_dist(*rng), c_dist(*rng)};
  for (int i = 0; i < spatial; ++i) {
    const int64_t k = k_dist(*rng);
    const int64_t d = coin(*rng) == 0 ? 1 : d_dist(*rng);
    std::uniform_int_distribution<int64_t> pad(0, k - 1);
    kernel.push_back(k);
    strides.push_back(s_dist(*rng));
    dilations.push_back(d);
    pads_begin.push_back(pad(*rng));
    pads_end.push_back(pad(*rng));
    const int64_t extent = (k - 1) * d + 1;
    c.shape.push_back(std::max<int64_t>(1, extent - pads_begin.back() - pads_end.back() + extra(*rng)));
  }
  c.attrs.SetInts("kernel_shape", kernel);
  c.attrs.SetInts("strides", strides);
  c.attrs.SetInts("dilations", dilations);
  const int mode = pad_mode(*rng);
  if (mode == 0) {
    c.attrs.SetString("auto_pad", "SAME_UPPER");
  } else if (mode == 1) {
    c.attrs.SetString("auto_pad", "SAME_LOWER");
  } else {
    std::vector<int64_t> pads = pads_begin;
    pads.insert(pads.end(), pads_end.begin(), pads_end.end());
    c.attrs.SetInts("pads", pads);
    c.attrs.SetInt("ceil_mode", coin(*rng));
  }
  if (!max) c.attrs.SetInt("count_include_pad", coin(*rng));
  return c;
}

TEST(PoolingInt8, MatchesFloatOracleOnRandomWindows) {
  // MaxPool picks the same element as the float op and quantizes it the same
  // way: bit-exact. AveragePool sums the codes exactly in int64 and scales
  // once, while the oracle adds dequantized floats in float32 (each addition
  // rounds): a mean lying within float rounding of a .5 boundary can go either
  // way, hence the one-step tolerance on a small share of the averages.
  std::mt19937 rng(1234567);
  for (const char* op : {"MaxPool", "AveragePool"}) {
    const bool max = std::string(op) == "MaxPool";
    OracleStats stats;
    std::uniform_int_distribution<int> coin(0, 1);
    for (int trial = 0; trial < 150; ++trial) {
      PoolCase c = RandomPoolCase(&rng, max);
      const QuantInfo in_q = RandomQuant(&rng);
      const QuantInfo out_q = max && coin(rng) == 0 ? in_q : RandomQuant(&rng, 0.001f, 0.3f);
      const OracleInput x = OracleInput::Int8(c.shape, RandomCodes(&rng, NumElements(c.shape)), in_q);
      testing::RunAgainstFloatOracle(op, c.attrs, {x}, {out_q}, &stats);
    }
    SCOPED_TRACE(op);
    stats.Expect(max ? 1.0 : 0.99);
  }
}

TEST(PoolingInt8, GlobalPoolsMatchFloatOracle) {
  // GlobalMaxPool is bit-exact; GlobalAveragePool differs from the oracle's
  // double sum of dequantized floats only by the rounding of the final float
  // products, so almost always not at all.
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> rank_dist(3, 5), dim_dist(1, 13);
  for (const char* op : {"GlobalMaxPool", "GlobalAveragePool"}) {
    OracleStats stats;
    for (int trial = 0; trial < 60; ++trial) {
      Shape shape(static_cast<size_t>(rank_dist(rng)));
      for (int64_t& d : shape) d = dim_dist(rng);
      const OracleInput x = OracleInput::Int8(shape, RandomCodes(&rng, NumElements(shape)), RandomQuant(&rng));
      testing::RunAgainstFloatOracle(op, Attributes(), {x}, {RandomQuant(&rng, 0.001f, 0.3f)}, &stats);
    }
    SCOPED_TRACE(op);
    stats.Expect(std::string(op) == "GlobalMaxPool" ? 1.0 : 0.99);
  }
}

TEST(PoolingInt8, MaxPoolsTakePlainIntegers) {
  OpRunner op("MaxPool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInts("pads", {1, 0});
  op.AddInput<int8_t>({1, 1, 3}, {-128, -100, 127}, DataType::kInt8);
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-128, -100, 127}));
  OpRunner global("GlobalMaxPool");
  global.AddInput<int8_t>({1, 1, 3}, {-128, -100, 7}, DataType::kInt8);
  ASSERT_TRUE(global.Run().ok());
  EXPECT_EQ(global.OutputValues<int8_t>(), (std::vector<int8_t>{7}));
  OpRunner avg("AveragePool");  // averages need parameters
  avg.attrs().SetInts("kernel_shape", {2});
  avg.AddInput<int8_t>({1, 1, 3}, {1, 2, 3}, DataType::kInt8);
  EXPECT_EQ(avg.Run().code(), StatusCode::kModelInvalid);
}

// ---------------------------------------------------------------- errors

TEST(PoolingInt8, RejectsMissingOrPerAxisQuantizationAndOtherIntegerTypes) {
  {
    OpRunner op("MaxPool");
    op.attrs().SetInts("kernel_shape", {2});
    op.AddInput<int8_t>({1, 1, 4}, {1, 2, 3, 4}, DataType::kInt8);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("MaxPool: input 'in0' is INT8 but has no quantization parameters"),
              std::string::npos)
        << s.message();
  }
  {
    OpRunner op("AveragePool");
    op.attrs().SetInts("kernel_shape", {2});
    op.AddInput<int8_t>({1, 1, 4}, {1, 2, 3, 4}, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("AveragePool: output"), std::string::npos) << s.message();
  }
  {
    OpRunner op("GlobalAveragePool");
    op.AddInput<int8_t>({1, 2, 2}, {1, 2, 3, 4}, DataType::kInt8);
    QuantInfo q;
    q.scale = {1.0f, 0.5f};
    q.axis = 1;
    op.SetInputQuant(0, q);
    op.SetOutputQuant(0, PerTensor(1.0f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("GlobalAveragePool: input 'in0' has per-axis quantization"), std::string::npos)
        << s.message();
  }
  {
    OpRunner op("GlobalMaxPool");
    op.AddInput<int32_t>({1, 1, 2}, {1, 2}, DataType::kInt32);
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
  }
}

}  // namespace
}  // namespace npurt
