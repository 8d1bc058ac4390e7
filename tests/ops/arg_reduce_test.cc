// ArgMax / ArgMin (runtime/ops/arg_reduce.cc): hand-computed indices, ties, NaN, keepdims, quantized codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(ArgReduceOp, AxesKeepdimsAndNegativeAxis) {
  const std::vector<float> x = {2, 7, 1, 9, 3, 3};  // [[2, 7, 1], [9, 3, 3]]
  OpRunner rows("ArgMax");
  rows.attrs().SetInt("axis", 1);
  rows.AddFloatInput({2, 3}, x);
  ASSERT_TRUE(rows.Run().ok());
  EXPECT_EQ(rows.output().dtype, DataType::kInt64);
  EXPECT_EQ(rows.OutputShape(), (Shape{2, 1}));
  EXPECT_EQ(rows.OutputValues<int64_t>(), (std::vector<int64_t>{1, 0}));

  OpRunner columns("ArgMin");  // default axis 0, dropped
  columns.attrs().SetInt("keepdims", 0);
  columns.AddFloatInput({2, 3}, x);
  ASSERT_TRUE(columns.Run().ok());
  EXPECT_EQ(columns.OutputShape(), (Shape{3}));
  EXPECT_EQ(columns.OutputValues<int64_t>(), (std::vector<int64_t>{0, 1, 0}));

  OpRunner last("ArgMin");
  last.attrs().SetInt("axis", -1);
  last.AddFloatInput({2, 3}, x);
  ASSERT_TRUE(last.Run().ok());
  EXPECT_EQ(last.OutputValues<int64_t>(), (std::vector<int64_t>{2, 1}));
}

TEST(ArgReduceOp, TiesTakeTheFirstOrTheLastIndex) {
  for (int select_last : {0, 1}) {
    OpRunner op("ArgMax");
    op.attrs().SetInt("axis", 1);
    op.attrs().SetInt("select_last_index", select_last);
    op.AddFloatInput({1, 5}, {4, 1, 4, 0, 4});
    ASSERT_TRUE(op.Run().ok());
    EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{select_last ? 4 : 0}));
  }
}

TEST(ArgReduceOp, NanIsTheExtremeAsInNumpy) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char* name : {"ArgMax", "ArgMin"}) {
    for (int select_last : {0, 1}) {
      OpRunner op(name);
      op.attrs().SetInt("select_last_index", select_last);
      op.AddFloatInput({5}, {1, nan, 5, nan, -3});
      ASSERT_TRUE(op.Run().ok());
      EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{select_last ? 3 : 1})) << name;
    }
  }
}

TEST(ArgReduceOp, IntegerAndQuantizedCodes) {
  OpRunner i64("ArgMax");
  i64.AddInt64Input({3}, {-5, std::numeric_limits<int64_t>::max(), 0}, false);
  ASSERT_TRUE(i64.Run().ok());
  EXPECT_EQ(i64.OutputValues<int64_t>(), (std::vector<int64_t>{1}));

  // Codes of a positive scale order as their real values do.
  OpRunner codes("ArgMin");
  codes.AddInput<int8_t>({4}, {12, -100, 127, -99}, DataType::kInt8);
  codes.SetInputQuant(0, testing::PerTensor(0.05f, 3));
  ASSERT_TRUE(codes.Run().ok());
  EXPECT_EQ(codes.OutputValues<int64_t>(), (std::vector<int64_t>{1}));

  OpRunner wide("ArgMax");
  wide.attrs().SetInt("axis", 0);
  wide.AddInput<int16_t>({2, 2}, {-30000, 7, 30000, 6}, DataType::kInt16);
  ASSERT_TRUE(wide.Run().ok());
  EXPECT_EQ(wide.OutputValues<int64_t>(), (std::vector<int64_t>{1, 0}));
}

TEST(ArgReduceOp, RejectsBadModels) {
  OpRunner empty_axis("ArgMax");
  empty_axis.attrs().SetInt("axis", 1);
  empty_axis.AddFloatInput({2, 0}, {});
  EXPECT_EQ(empty_axis.Run().code(), StatusCode::kModelInvalid);

  OpRunner axis("ArgMax");
  axis.attrs().SetInt("axis", 2);
  axis.AddFloatInput({2, 3}, std::vector<float>(6));
  EXPECT_EQ(axis.Run().code(), StatusCode::kModelInvalid);

  OpRunner keepdims("ArgMin");
  keepdims.attrs().SetInt("keepdims", 3);
  keepdims.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(keepdims.Run().code(), StatusCode::kModelInvalid);

  OpRunner scalar("ArgMin");
  scalar.AddFloatInput({}, {1});
  EXPECT_EQ(scalar.Run().code(), StatusCode::kModelInvalid);

  OpRunner boolean("ArgMax");
  boolean.AddInput<uint8_t>({2}, {0, 1}, DataType::kBool);
  EXPECT_EQ(boolean.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
