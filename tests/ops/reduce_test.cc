#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

// Naive reduction: every input element is added (or maxed) into the output
// element found by dropping its reduced coordinates.
std::vector<float> NaiveReduce(const std::string& op, const Shape& shape, const std::vector<float>& x,
                               const std::vector<bool>& reduced) {
  int64_t out_count = 1;
  for (size_t d = 0; d < shape.size(); ++d) out_count *= reduced[d] ? 1 : shape[d];
  const bool is_max = op == "ReduceMax";
  std::vector<double> acc(static_cast<size_t>(out_count), is_max ? -INFINITY : 0.0);
  std::vector<int64_t> count(static_cast<size_t>(out_count), 0);
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    int64_t rest = i, o = 0, o_stride = 1;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      const int64_t c = rest % shape[d];
      rest /= shape[d];
      if (!reduced[d]) {
        o += c * o_stride;
        o_stride *= shape[d];
      }
    }
    acc[o] = is_max ? std::max(acc[o], static_cast<double>(x[i])) : acc[o] + x[i];
    ++count[o];
  }
  std::vector<float> y(acc.size());
  for (size_t o = 0; o < y.size(); ++o) y[o] = static_cast<float>(op == "ReduceMean" ? acc[o] / count[o] : acc[o]);
  return y;
}

std::vector<float> Pattern(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7919) % 23) * 0.5f - 5.0f;
  return v;
}

const std::vector<float> kX12 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // shape [2,3,2]

TEST(ReduceOp, SumMiddleAxisKeepDims) {
  OpRunner op("ReduceSum");
  op.attrs().SetInts("axes", {1});
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 1, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{9, 12, 27, 30}));
}

TEST(ReduceOp, MeanOuterAndInnerAxesNoKeepDims) {
  OpRunner op("ReduceMean");
  op.attrs().SetInts("axes", {0, 2});
  op.attrs().SetInt("keepdims", 0);
  op.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3}));
  // (1 + 2 + 7 + 8) / 4, (3 + 4 + 9 + 10) / 4, (5 + 6 + 11 + 12) / 4
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{4.5f, 6.5f, 8.5f}));
}

TEST(ReduceOp, MaxNegativeAxis) {
  OpRunner op("ReduceMax");
  op.attrs().SetInts("axes", {-1});
  op.AddFloatInput({2, 3}, {1, -5, 3, -2, -7, -1});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 1}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{3, -1}));
}

TEST(ReduceOp, NoAxesReducesAll) {
  OpRunner keep("ReduceSum");
  keep.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(keep.Run().ok());
  EXPECT_EQ(keep.OutputShape(), (Shape{1, 1, 1}));
  EXPECT_EQ(keep.FloatOutput(), (std::vector<float>{78}));

  OpRunner drop("ReduceMean");
  drop.attrs().SetInt("keepdims", 0);
  drop.AddFloatInput({2, 3, 2}, kX12);
  ASSERT_TRUE(drop.Run().ok());
  EXPECT_EQ(drop.OutputShape(), Shape{});
  EXPECT_EQ(drop.FloatOutput(), (std::vector<float>{6.5f}));

  OpRunner absent("ReduceMax");  // omitted axes input
  absent.AddFloatInput({2, 2}, {1, 9, 3, 4});
  absent.AddAbsentInput();
  ASSERT_TRUE(absent.Run().ok());
  EXPECT_EQ(absent.FloatOutput(), (std::vector<float>{9}));
}

TEST(ReduceOp, AxesAsConstantInput) {
  OpRunner op("ReduceSum");
  op.attrs().SetInt("keepdims", 0);
  op.AddFloatInput({2, 3, 2}, kX12);
  op.AddInt64Input({2}, {-1, 0});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{18, 26, 34}));

  OpRunner i32("ReduceMean");
  i32.AddFloatInput({2, 2}, {1, 2, 3, 4});
  i32.AddInput<int32_t>({1}, {0}, DataType::kInt32, true);
  ASSERT_TRUE(i32.Run().ok());
  EXPECT_EQ(i32.OutputShape(), (Shape{1, 2}));
  EXPECT_EQ(i32.FloatOutput(), (std::vector<float>{2, 3}));
}

TEST(ReduceOp, EmptyAxesInputWithAndWithoutNoop) {
  OpRunner noop("ReduceSum");
  noop.attrs().SetInt("noop_with_empty_axes", 1);
  noop.attrs().SetInt("keepdims", 0);
  noop.AddFloatInput({2, 2}, {1, 2, 3, 4});
  noop.AddInt64Input({0}, {});
  ASSERT_TRUE(noop.Run().ok());
  EXPECT_EQ(noop.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(noop.FloatOutput(), (std::vector<float>{1, 2, 3, 4}));

  OpRunner all("ReduceSum");
  all.AddFloatInput({2, 2}, {1, 2, 3, 4});
  all.AddInt64Input({0}, {});
  ASSERT_TRUE(all.Run().ok());
  EXPECT_EQ(all.OutputShape(), (Shape{1, 1}));
  EXPECT_EQ(all.FloatOutput(), (std::vector<float>{10}));
}

TEST(ReduceOp, MatchesNaiveOnRank5WithUnitDims) {
  const Shape shape = {2, 1, 3, 4, 2};
  const std::vector<float> x = Pattern(NumElements(shape));
  const std::vector<std::vector<int64_t>> axes_list = {{0}, {1}, {2}, {3, 1}, {0, 2, 4}, {1, 3}, {0, 1, 2, 3, 4},
                                                       {4}, {2, 3}};
  for (const char* name : {"ReduceSum", "ReduceMean", "ReduceMax"}) {
    for (const auto& axes : axes_list) {
      std::vector<bool> reduced(shape.size(), false);
      for (int64_t a : axes) reduced[a] = true;
      OpRunner op(name);
      op.attrs().SetInts("axes", axes);
      op.attrs().SetInt("keepdims", 0);
      op.AddFloatInput(shape, x);
      ASSERT_TRUE(op.Run().ok()) << name;
      SCOPED_TRACE(std::string(name) + " axes[0]=" + std::to_string(axes[0]) + " n=" + std::to_string(axes.size()));
      ExpectAllNear(op.FloatOutput(), NaiveReduce(name, shape, x, reduced), 1e-5f);
    }
  }
}

TEST(ReduceOp, IntegerSumAndMax) {
  OpRunner sum("ReduceSum");
  sum.attrs().SetInts("axes", {0});
  sum.AddInt64Input({2, 2}, {std::numeric_limits<int64_t>::max(), 5, 1, -7}, false);
  ASSERT_TRUE(sum.Run().ok());
  EXPECT_EQ(sum.output().dtype, DataType::kInt64);
  EXPECT_EQ(sum.OutputValues<int64_t>(), (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), -2}));

  OpRunner max("ReduceMax");
  max.attrs().SetInts("axes", {1});
  max.attrs().SetInt("keepdims", 0);
  max.AddInput<int32_t>({2, 3}, {-4, -9, -1, 6, 2, 6}, DataType::kInt32);
  ASSERT_TRUE(max.Run().ok());
  EXPECT_EQ(max.OutputValues<int32_t>(), (std::vector<int32_t>{-1, 6}));
}

TEST(ReduceOp, MaxPropagatesNan) {
  OpRunner op("ReduceMax");
  op.AddFloatInput({3}, {1, std::numeric_limits<float>::quiet_NaN(), 2});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_TRUE(std::isnan(op.FloatOutput()[0]));
}

TEST(ReduceOp, EmptyReductionGivesIdentity) {
  auto run = [](const char* name) {
    OpRunner op(name);
    op.attrs().SetInts("axes", {1});
    op.AddFloatInput({2, 0}, {});
    EXPECT_TRUE(op.Run().ok());
    EXPECT_EQ(op.OutputShape(), (Shape{2, 1}));
    return op.FloatOutput();
  };
  EXPECT_EQ(run("ReduceSum"), (std::vector<float>{0, 0}));
  const std::vector<float> max = run("ReduceMax");
  EXPECT_TRUE(std::isinf(max[0]) && max[0] < 0 && std::isinf(max[1]));
  EXPECT_TRUE(std::isnan(run("ReduceMean")[0]));

  OpRunner no_outputs("ReduceSum");  // kept dim of size 0
  no_outputs.attrs().SetInts("axes", {1});
  no_outputs.AddFloatInput({0, 3}, {});
  ASSERT_TRUE(no_outputs.Run().ok());
  EXPECT_EQ(no_outputs.OutputShape(), (Shape{0, 1}));
}

TEST(ReduceOp, MinProdNormsAndLogs) {
  // x = [[1, -2, 3], [-4, 5, 0.5]] over axis 1.
  auto run = [](const char* name) {
    OpRunner op(name);
    op.attrs().SetInts("axes", {1});
    op.attrs().SetInt("keepdims", 0);
    op.AddFloatInput({2, 3}, {1, -2, 3, -4, 5, 0.5f});
    EXPECT_TRUE(op.Run().ok()) << name;
    return op.FloatOutput();
  };
  EXPECT_EQ(run("ReduceMin"), (std::vector<float>{-2, -4}));
  EXPECT_EQ(run("ReduceProd"), (std::vector<float>{-6, -10}));
  EXPECT_EQ(run("ReduceL1"), (std::vector<float>{6, 9.5f}));
  ExpectAllNear(run("ReduceL2"), {3.741657387f, 6.422616289f}, 1e-6f);  // sqrt(14), sqrt(41.25)
  EXPECT_EQ(run("ReduceSumSquare"), (std::vector<float>{14, 41.25f}));
  // log(sum exp): log(e + e^-2 + e^3) = 3.132845..., log(e^-4 + e^5 + e^0.5) = 5.011170...
  ExpectAllNear(run("ReduceLogSumExp"), {3.132845234f, 5.011169791f}, 1e-5f);

  OpRunner log_sum("ReduceLogSum");
  log_sum.AddFloatInput({3}, {1, 2, 4});
  ASSERT_TRUE(log_sum.Run().ok());
  ExpectAllNear(log_sum.FloatOutput(), {1.945910149f}, 1e-6f);  // log(7)
}

TEST(ReduceOp, LogSumExpDoesNotOverflow) {
  OpRunner op("ReduceLogSumExp");
  op.AddFloatInput({3}, {1000, 1000, -1000});
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(), {1000.693147f}, 1e-3f);  // 1000 + log(2)

  OpRunner inf("ReduceLogSumExp");
  inf.AddFloatInput({2}, {-INFINITY, -INFINITY});
  ASSERT_TRUE(inf.Run().ok());
  EXPECT_TRUE(std::isinf(inf.FloatOutput()[0]) && inf.FloatOutput()[0] < 0);
}

TEST(ReduceOp, IntegerMinProdSumSquareL1) {
  auto run = [](const char* name, std::vector<int32_t> x) {
    OpRunner op(name);
    op.AddInput<int32_t>({static_cast<int64_t>(x.size())}, x, DataType::kInt32);
    EXPECT_TRUE(op.Run().ok()) << name;
    return op.OutputValues<int32_t>();
  };
  EXPECT_EQ(run("ReduceMin", {4, -9, 7}), (std::vector<int32_t>{-9}));
  EXPECT_EQ(run("ReduceProd", {4, -3, 5}), (std::vector<int32_t>{-60}));
  EXPECT_EQ(run("ReduceProd", {65536, 65536}), (std::vector<int32_t>{0}));  // wraps
  EXPECT_EQ(run("ReduceSumSquare", {3, -4}), (std::vector<int32_t>{25}));
  EXPECT_EQ(run("ReduceL1", {3, -4, -1}), (std::vector<int32_t>{8}));

  OpRunner l2("ReduceL2");  // float only
  l2.AddInput<int32_t>({2}, {3, 4}, DataType::kInt32);
  EXPECT_EQ(l2.Run().code(), StatusCode::kModelInvalid);
}

TEST(ReduceOp, MinPropagatesNanAndEmptyIdentities) {
  OpRunner op("ReduceMin");
  op.AddFloatInput({3}, {1, std::numeric_limits<float>::quiet_NaN(), -2});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_TRUE(std::isnan(op.FloatOutput()[0]));

  auto empty = [](const char* name) {
    OpRunner e(name);
    e.attrs().SetInts("axes", {0});
    e.AddFloatInput({0, 2}, {});
    EXPECT_TRUE(e.Run().ok()) << name;
    return e.FloatOutput();
  };
  EXPECT_EQ(empty("ReduceMin"), (std::vector<float>{INFINITY, INFINITY}));
  EXPECT_EQ(empty("ReduceProd"), (std::vector<float>{1, 1}));
  EXPECT_EQ(empty("ReduceL2"), (std::vector<float>{0, 0}));
  EXPECT_EQ(empty("ReduceLogSumExp"), (std::vector<float>{-INFINITY, -INFINITY}));
}

TEST(ReduceOp, RejectsBadAxes) {
  auto code = [](const std::vector<int64_t>& axes) {
    OpRunner op("ReduceSum");
    op.attrs().SetInts("axes", axes);
    op.AddFloatInput({2, 2}, {1, 2, 3, 4});
    return op.Run().code();
  };
  EXPECT_EQ(code({2}), StatusCode::kModelInvalid);
  EXPECT_EQ(code({-3}), StatusCode::kModelInvalid);
  EXPECT_EQ(code({0, -2}), StatusCode::kModelInvalid);  // repeated
  EXPECT_EQ(code({std::numeric_limits<int64_t>::min()}), StatusCode::kModelInvalid);

  OpRunner dynamic("ReduceSum");
  dynamic.AddFloatInput({2}, {1, 2});
  dynamic.AddInt64Input({1}, {0}, false);
  EXPECT_EQ(dynamic.Run().code(), StatusCode::kModelInvalid);

  OpRunner both("ReduceMean");
  both.attrs().SetInts("axes", {0});
  both.AddFloatInput({2}, {1, 2});
  both.AddInt64Input({1}, {0});
  EXPECT_EQ(both.Run().code(), StatusCode::kModelInvalid);

  OpRunner float_axes("ReduceSum");
  float_axes.AddFloatInput({2}, {1, 2});
  float_axes.AddFloatInput({1}, {0}, true);
  EXPECT_EQ(float_axes.Run().code(), StatusCode::kModelInvalid);

  OpRunner matrix_axes("ReduceSum");
  matrix_axes.AddFloatInput({2}, {1, 2});
  matrix_axes.AddInt64Input({1, 1}, {0});
  EXPECT_EQ(matrix_axes.Run().code(), StatusCode::kModelInvalid);

  OpRunner scalar_axis("ReduceMax");  // a scalar has no axes
  scalar_axis.attrs().SetInts("axes", {0});
  scalar_axis.AddFloatInput({}, {1});
  EXPECT_EQ(scalar_axis.Run().code(), StatusCode::kModelInvalid);
}

TEST(ReduceOp, RejectsBadAttributesAndTypes) {
  OpRunner keepdims("ReduceSum");
  keepdims.attrs().SetInt("keepdims", 2);
  keepdims.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(keepdims.Run().code(), StatusCode::kModelInvalid);

  OpRunner noop("ReduceSum");
  noop.attrs().SetInt("noop_with_empty_axes", -1);
  noop.AddFloatInput({2}, {1, 2});
  EXPECT_EQ(noop.Run().code(), StatusCode::kModelInvalid);

  OpRunner int_mean("ReduceMean");
  int_mean.AddInt64Input({2}, {1, 2}, false);
  EXPECT_EQ(int_mean.Run().code(), StatusCode::kModelInvalid);

  OpRunner u8("ReduceMax");
  u8.AddInput<uint8_t>({2}, {1, 2}, DataType::kUint8);
  EXPECT_EQ(u8.Run().code(), StatusCode::kModelInvalid);

  OpRunner neg("ReduceMax");
  neg.AddFloatInput({-2}, {});
  EXPECT_EQ(neg.Run().code(), StatusCode::kModelInvalid);

  OpRunner scalar("ReduceSum");  // rank 0 without axes is fine
  scalar.AddFloatInput({}, {4});
  ASSERT_TRUE(scalar.Run().ok());
  EXPECT_EQ(scalar.OutputShape(), Shape{});
  EXPECT_EQ(scalar.FloatOutput(), (std::vector<float>{4}));
}

}  // namespace
}  // namespace npurt
