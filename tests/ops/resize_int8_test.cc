// Int8 Resize (runtime/kernels/ref/resize.h): nearest copies codes, linear
// interpolates real values. Hand-computed cases, the float oracle on random
// scales and modes, error paths.
#include <gtest/gtest.h>

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

void AddScales(OpRunner* op, const std::vector<float>& scales) {
  op->AddAbsentInput();  // roi
  op->AddFloatInput({static_cast<int64_t>(scales.size())}, scales, true);
}

TEST(ResizeInt8, NearestCopiesCodesAndRequantizesForOtherParameters) {
  const std::vector<int8_t> x = {1, 2, 3, 4};
  OpRunner same("Resize");
  same.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  same.attrs().SetString("nearest_mode", "floor");
  same.AddInput<int8_t>({1, 1, 2, 2}, x, DataType::kInt8);
  same.SetInputQuant(0, PerTensor(1.0f, 0));
  AddScales(&same, {1, 1, 2, 2});
  same.SetOutputQuant(0, PerTensor(1.0f, 0));
  const Status s = same.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(same.output().dtype, DataType::kInt8);
  EXPECT_EQ(same.OutputValues<int8_t>(), (std::vector<int8_t>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));

  OpRunner other("Resize");
  other.attrs().SetString("coordinate_transformation_mode", "asymmetric");
  other.attrs().SetString("nearest_mode", "floor");
  other.AddInput<int8_t>({1, 1, 2, 2}, x, DataType::kInt8);
  other.SetInputQuant(0, PerTensor(1.0f, 0));
  AddScales(&other, {1, 1, 2, 2});
  // real 1 2 3 4 -> scale 2, zp 0: 0.5 1 1.5 2 -> 0 1 2 2 (half to even)
  other.SetOutputQuant(0, PerTensor(2.0f, 0));
  ASSERT_TRUE(other.Run().ok());
  EXPECT_EQ(other.OutputValues<int8_t>(), (std::vector<int8_t>{0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2}));
}

TEST(ResizeInt8, LinearInterpolatesRealValues) {
  OpRunner op("Resize");
  op.attrs().SetString("mode", "linear");
  op.attrs().SetString("coordinate_transformation_mode", "align_corners");
  // x: scale 0.5, zp -10: codes -10 0 -> real 0 5
  op.AddInput<int8_t>({1, 1, 1, 2}, {-10, 0}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, -10));
  op.AddAbsentInput();
  op.AddAbsentInput();
  op.AddInt64Input({4}, {1, 1, 1, 4});  // sizes
  op.SetOutputQuant(0, PerTensor(0.5f, 0));
  const Status s = op.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  // align_corners: input positions 0 1/3 2/3 1 -> real 0 1.667 3.333 5 -> / 0.5 = 0 3.33 6.67 10 -> 0 3 7 10
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{0, 3, 7, 10}));
}

TEST(ResizeInt8, MatchesFloatOracleOnRandomScalesAndModes) {
  // Nearest copies the element the float op copies; linear interpolates the
  // dequantized values with the float kernel's own formula: bit-exact both.
  std::mt19937 rng(2718);
  std::uniform_int_distribution<int> dim_dist(1, 7), pick_coord(0, 4), pick_nearest(0, 3), coin(0, 1);
  const char* coords[] = {"half_pixel", "asymmetric", "pytorch_half_pixel", "align_corners", "half_pixel_symmetric"};
  const char* nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  const float scale_choices[] = {0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 0.75f};
  std::uniform_int_distribution<int> pick_scale(0, 5);
  for (const char* mode : {"nearest", "linear"}) {
    OracleStats stats;
    for (int trial = 0; trial < 80; ++trial) {
      const Shape shape = {1, dim_dist(rng), dim_dist(rng), dim_dist(rng)};
      Attributes attrs;
      attrs.SetString("mode", mode);
      attrs.SetString("coordinate_transformation_mode", coords[pick_coord(rng)]);
      attrs.SetString("nearest_mode", nearest[pick_nearest(rng)]);
      const float sh = scale_choices[pick_scale(rng)], sw = scale_choices[pick_scale(rng)];
      const QuantInfo in_q = RandomQuant(&rng);
      const QuantInfo out_q = coin(rng) == 0 ? in_q : RandomQuant(&rng);
      const std::vector<OracleInput> inputs = {
          OracleInput::Int8(shape, RandomCodes(&rng, NumElements(shape)), in_q), OracleInput::Absent(),
          OracleInput::Float({4}, {1.0f, 1.0f, sh, sw})};
      testing::RunAgainstFloatOracle("Resize", attrs, inputs, {out_q}, &stats);
    }
    SCOPED_TRACE(mode);
    stats.Expect(1.0);
  }
}

TEST(ResizeInt8, RejectsMissingQuantization) {
  OpRunner op("Resize");
  op.AddInput<int8_t>({1, 1, 1, 2}, {1, 2}, DataType::kInt8);
  AddScales(&op, {1, 1, 1, 2});
  op.SetOutputQuant(0, PerTensor(1.0f));
  const Status s = op.Run();
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("Resize: input 'in0' is INT8 but has no quantization parameters"), std::string::npos)
      << s.message();

  OpRunner u8("Resize");
  u8.AddInput<uint8_t>({1, 1, 1, 2}, {1, 2}, DataType::kUint8);
  AddScales(&u8, {1, 1, 1, 2});
  EXPECT_EQ(u8.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
