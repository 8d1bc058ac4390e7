#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(SliceOp, StartsAndEndsAsInputs) {
  OpRunner op("Slice");
  op.AddFloatInput({3, 4}, Iota(12));
  op.AddInt64Input({2}, {0, 1});
  op.AddInt64Input({2}, {2, 3});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 2, 5, 6}));
}

TEST(SliceOp, AttributesBeforeOpset10) {
  OpRunner op("Slice");
  op.attrs().SetInts("starts", {1});
  op.attrs().SetInts("ends", {1000});  // clamps to the dim
  op.attrs().SetInts("axes", {1});
  op.AddInput<int16_t>({2, 3}, {1, 2, 3, 4, 5, 6}, DataType::kInt16);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.OutputValues<int16_t>(), (std::vector<int16_t>{2, 3, 5, 6}));
}

TEST(SliceOp, NegativeStepToIntMin) {
  // start -1 -> 9; end INT64_MIN clamps to -1 (before index 0); every 3rd.
  OpRunner op("Slice");
  op.AddFloatInput({10}, Iota(10));
  op.AddInt64Input({1}, {-1});
  op.AddInt64Input({1}, {kMin});
  op.AddInt64Input({1}, {0});
  op.AddInt64Input({1}, {-3});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{9, 6, 3, 0}));
}

TEST(SliceOp, NegativeAxisIntMaxEndAndStep) {
  OpRunner op("Slice");
  op.AddInput<int64_t>({2, 5}, {0, 1, 2, 3, 4, 10, 11, 12, 13, 14}, DataType::kInt64, false);
  op.AddInput<int32_t>({1}, {1}, DataType::kInt32, true);
  op.AddInput<int32_t>({1}, {std::numeric_limits<int32_t>::max()}, DataType::kInt32, true);
  op.AddInput<int32_t>({1}, {-1}, DataType::kInt32, true);
  op.AddInput<int32_t>({1}, {2}, DataType::kInt32, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{1, 3, 11, 13}));
}

TEST(SliceOp, ReverseWholeAxisWithHugeStep) {
  OpRunner reversed("Slice");
  reversed.AddFloatInput({2, 3}, Iota(6));
  reversed.AddInt64Input({1}, {kMax});
  reversed.AddInt64Input({1}, {kMin});
  reversed.AddInt64Input({1}, {1});
  reversed.AddInt64Input({1}, {-1});
  ASSERT_TRUE(reversed.Run().ok());
  EXPECT_EQ(reversed.FloatOutput(), (std::vector<float>{2, 1, 0, 5, 4, 3}));

  OpRunner huge_step("Slice");  // only the first element fits
  huge_step.AddFloatInput({5}, Iota(5));
  huge_step.AddInt64Input({1}, {1});
  huge_step.AddInt64Input({1}, {kMax});
  huge_step.AddAbsentInput();
  huge_step.AddInt64Input({1}, {kMax});
  ASSERT_TRUE(huge_step.Run().ok());
  EXPECT_EQ(huge_step.FloatOutput(), (std::vector<float>{1}));

  OpRunner huge_negative_step("Slice");
  huge_negative_step.AddFloatInput({5}, Iota(5));
  huge_negative_step.AddInt64Input({1}, {3});
  huge_negative_step.AddInt64Input({1}, {kMin});
  huge_negative_step.AddAbsentInput();
  huge_negative_step.AddInt64Input({1}, {kMin});
  ASSERT_TRUE(huge_negative_step.Run().ok());
  EXPECT_EQ(huge_negative_step.FloatOutput(), (std::vector<float>{3}));
}

TEST(SliceOp, EmptyResults) {
  OpRunner past_end("Slice");
  past_end.AddFloatInput({2, 3}, Iota(6));
  past_end.AddInt64Input({1}, {5});
  past_end.AddInt64Input({1}, {kMax});
  past_end.AddInt64Input({1}, {1});
  ASSERT_TRUE(past_end.Run().ok());
  EXPECT_EQ(past_end.OutputShape(), (Shape{2, 0}));

  OpRunner backwards("Slice");  // positive step with end before start
  backwards.AddFloatInput({4}, Iota(4));
  backwards.AddInt64Input({1}, {3});
  backwards.AddInt64Input({1}, {1});
  ASSERT_TRUE(backwards.Run().ok());
  EXPECT_EQ(backwards.OutputShape(), (Shape{0}));
}

TEST(SliceOp, MixedStepsMatchIndependentLoop) {
  // [3,4,5]: axis 0 reversed, axis 2 from 4 down by 2, axis 1 untouched.
  OpRunner op("Slice");
  op.AddFloatInput({3, 4, 5}, Iota(60));
  op.AddInt64Input({2}, {-1, 4});
  op.AddInt64Input({2}, {-4, -6});
  op.AddInt64Input({2}, {0, -1});
  op.AddInt64Input({2}, {-1, -2});
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.OutputShape(), (Shape{3, 4, 3}));
  std::vector<float> expected;
  for (int a = 2; a >= 0; --a) {
    for (int b = 0; b < 4; ++b) {
      for (int c = 4; c >= 0; c -= 2) expected.push_back(static_cast<float>(a * 20 + b * 5 + c));
    }
  }
  EXPECT_EQ(op.FloatOutput(), expected);
}

TEST(SliceOp, RejectsBadModels) {
  auto run = [](std::vector<int64_t> starts, std::vector<int64_t> ends, std::vector<int64_t> axes,
                std::vector<int64_t> steps) {
    OpRunner op("Slice");
    op.AddFloatInput({2, 3}, Iota(6));
    op.AddInt64Input({static_cast<int64_t>(starts.size())}, starts);
    op.AddInt64Input({static_cast<int64_t>(ends.size())}, ends);
    op.AddInt64Input({static_cast<int64_t>(axes.size())}, axes);
    op.AddInt64Input({static_cast<int64_t>(steps.size())}, steps);
    return op.Run().code();
  };
  EXPECT_EQ(run({0}, {1}, {0}, {0}), StatusCode::kModelInvalid);               // zero step
  EXPECT_EQ(run({0, 0}, {1, 1}, {1, -1}, {1, 1}), StatusCode::kModelInvalid);  // repeated axis
  EXPECT_EQ(run({0}, {1}, {2}, {1}), StatusCode::kModelInvalid);               // axis out of range
  EXPECT_EQ(run({0}, {1}, {kMin}, {1}), StatusCode::kModelInvalid);
  EXPECT_EQ(run({0, 0}, {1}, {0}, {1}), StatusCode::kModelInvalid);  // lengths differ
  EXPECT_EQ(run({0}, {1}, {0}, {1, 1}), StatusCode::kModelInvalid);

  OpRunner runtime_starts("Slice");  // starts must be known ahead of time
  runtime_starts.AddFloatInput({3}, Iota(3));
  runtime_starts.AddInt64Input({1}, {0}, false);
  runtime_starts.AddInt64Input({1}, {1});
  EXPECT_EQ(runtime_starts.Run().code(), StatusCode::kModelInvalid);

  OpRunner float_starts("Slice");
  float_starts.AddFloatInput({3}, Iota(3));
  float_starts.AddFloatInput({1}, {0}, true);
  float_starts.AddInt64Input({1}, {1});
  EXPECT_EQ(float_starts.Run().code(), StatusCode::kModelInvalid);

  OpRunner no_ends("Slice");
  no_ends.attrs().SetInts("starts", {0});
  no_ends.AddFloatInput({3}, Iota(3));
  EXPECT_EQ(no_ends.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
