// Comparisons, boolean logic and Where on run-time tensors (runtime/ops/logic.cc): hand-computed
// truth tables, broadcasting, NaN, integer extremes, bools read as truth values, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using Bools = std::vector<uint8_t>;

Bools Compare(const std::string& op, Shape sa, const std::vector<float>& a, Shape sb, const std::vector<float>& b) {
  OpRunner r(op);
  r.AddFloatInput(std::move(sa), a);
  r.AddFloatInput(std::move(sb), b);
  const Status s = r.Run();
  EXPECT_TRUE(s.ok()) << op << ": " << s.message();
  if (!s.ok()) return {};
  EXPECT_EQ(r.output().dtype, DataType::kBool);
  return r.OutputValues<uint8_t>();
}

TEST(LogicOp, FloatComparisonsAndNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {1, 2, 3, nan}, b = {2, 2, 2, nan};
  EXPECT_EQ(Compare("Equal", {4}, a, {4}, b), (Bools{0, 1, 0, 0}));
  EXPECT_EQ(Compare("Greater", {4}, a, {4}, b), (Bools{0, 0, 1, 0}));
  EXPECT_EQ(Compare("GreaterOrEqual", {4}, a, {4}, b), (Bools{0, 1, 1, 0}));
  EXPECT_EQ(Compare("Less", {4}, a, {4}, b), (Bools{1, 0, 0, 0}));
  EXPECT_EQ(Compare("LessOrEqual", {4}, a, {4}, b), (Bools{1, 1, 0, 0}));
}

TEST(LogicOp, ComparisonsBroadcast) {
  // [[0], [1], [2]] > [1, 0]: a column against a row.
  OpRunner r("Greater");
  r.AddFloatInput({3, 1}, {0, 1, 2});
  r.AddFloatInput({2}, {1, 0});
  ASSERT_TRUE(r.Run().ok());
  EXPECT_EQ(r.OutputShape(), (Shape{3, 2}));
  EXPECT_EQ(r.OutputValues<uint8_t>(), (Bools{0, 0, 0, 1, 1, 1}));
}

TEST(LogicOp, IntegerComparisonsAreExact) {
  // 2^53 + 1 and 2^53 differ as int64 (a float or double comparison would call them equal).
  const int64_t big = (int64_t{1} << 53) + 1;
  OpRunner r("Equal");
  r.AddInt64Input({3}, {big, std::numeric_limits<int64_t>::min(), -1}, false);
  r.AddInt64Input({3}, {big - 1, std::numeric_limits<int64_t>::min(), 1}, false);
  ASSERT_TRUE(r.Run().ok());
  EXPECT_EQ(r.OutputValues<uint8_t>(), (Bools{0, 1, 0}));

  OpRunner less("Less");
  less.AddInput<int32_t>({2}, {-5, 7}, DataType::kInt32);
  less.AddInput<int32_t>({1}, {0}, DataType::kInt32);
  ASSERT_TRUE(less.Run().ok());
  EXPECT_EQ(less.OutputValues<uint8_t>(), (Bools{1, 0}));
}

TEST(LogicOp, BooleanLogicTruthTables) {
  auto run = [](const char* op) {
    OpRunner r(op);
    r.AddInput<uint8_t>({4}, {0, 0, 1, 1}, DataType::kBool);
    r.AddInput<uint8_t>({4}, {0, 1, 0, 1}, DataType::kBool);
    EXPECT_TRUE(r.Run().ok()) << op;
    return r.OutputValues<uint8_t>();
  };
  EXPECT_EQ(run("And"), (Bools{0, 0, 0, 1}));
  EXPECT_EQ(run("Or"), (Bools{0, 1, 1, 1}));
  EXPECT_EQ(run("Xor"), (Bools{0, 1, 1, 0}));
  EXPECT_EQ(run("Equal"), (Bools{1, 0, 0, 1}));

  // A bool byte other than 0 or 1 (as a C program may write) is true.
  OpRunner wide("And");
  wide.AddInput<uint8_t>({2}, {2, 255}, DataType::kBool);
  wide.AddInput<uint8_t>({2}, {1, 1}, DataType::kBool);
  ASSERT_TRUE(wide.Run().ok());
  EXPECT_EQ(wide.OutputValues<uint8_t>(), (Bools{1, 1}));
  OpRunner eq("Equal");
  eq.AddInput<uint8_t>({1}, {2}, DataType::kBool);
  eq.AddInput<uint8_t>({1}, {1}, DataType::kBool);
  ASSERT_TRUE(eq.Run().ok());
  EXPECT_EQ(eq.OutputValues<uint8_t>(), (Bools{1}));

  OpRunner n("Not");
  n.AddInput<uint8_t>({2, 2}, {0, 1, 3, 0}, DataType::kBool);
  ASSERT_TRUE(n.Run().ok());
  EXPECT_EQ(n.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(n.OutputValues<uint8_t>(), (Bools{1, 0, 0, 1}));
}

TEST(LogicOp, WhereSelectsWithThreeWayBroadcast) {
  OpRunner r("Where");
  r.AddInput<uint8_t>({2, 1}, {1, 0}, DataType::kBool);  // per row
  r.AddFloatInput({3}, {1, 2, 3});                       // per column
  r.AddFloatInput({}, {-1});                             // one value
  ASSERT_TRUE(r.Run().ok());
  EXPECT_EQ(r.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(r.FloatOutput(), (std::vector<float>{1, 2, 3, -1, -1, -1}));

  OpRunner ints("Where");  // any element type: int64 copies
  ints.AddInput<uint8_t>({3}, {0, 1, 0}, DataType::kBool);
  ints.AddInt64Input({3}, {10, 20, 30}, false);
  ints.AddInt64Input({3}, {-10, -20, -30}, false);
  ASSERT_TRUE(ints.Run().ok());
  EXPECT_EQ(ints.OutputValues<int64_t>(), (std::vector<int64_t>{-10, 20, -30}));

  // Quantized X and Y move codes: they must share the output's parameters.
  OpRunner codes("Where");
  codes.AddInput<uint8_t>({2}, {1, 0}, DataType::kBool);
  codes.AddInput<int8_t>({2}, {5, 6}, DataType::kInt8);
  codes.AddInput<int8_t>({2}, {-5, -6}, DataType::kInt8);
  codes.SetInputQuant(1, testing::PerTensor(0.5f, 1));
  codes.SetInputQuant(2, testing::PerTensor(0.25f, 1));
  codes.SetOutputQuant(0, testing::PerTensor(0.5f, 1));
  EXPECT_EQ(codes.Run().code(), StatusCode::kModelInvalid);
}

TEST(LogicOp, RejectsBadModels) {
  OpRunner mixed("Equal");
  mixed.AddFloatInput({2}, {1, 2});
  mixed.AddInt64Input({2}, {1, 2}, false);
  EXPECT_EQ(mixed.Run().code(), StatusCode::kModelInvalid);

  OpRunner shapes("Less");
  shapes.AddFloatInput({2}, {1, 2});
  shapes.AddFloatInput({3}, {1, 2, 3});
  const Status s = shapes.Run();
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("do not broadcast"), std::string::npos) << s.message();

  OpRunner float_and("And");
  float_and.AddFloatInput({1}, {1});
  float_and.AddFloatInput({1}, {1});
  EXPECT_EQ(float_and.Run().code(), StatusCode::kModelInvalid);

  OpRunner bool_greater("Greater");
  bool_greater.AddInput<uint8_t>({1}, {1}, DataType::kBool);
  bool_greater.AddInput<uint8_t>({1}, {0}, DataType::kBool);
  EXPECT_EQ(bool_greater.Run().code(), StatusCode::kModelInvalid);

  OpRunner float_not("Not");
  float_not.AddFloatInput({1}, {0});
  EXPECT_EQ(float_not.Run().code(), StatusCode::kModelInvalid);

  OpRunner condition("Where");
  condition.AddFloatInput({1}, {1});
  condition.AddFloatInput({1}, {1});
  condition.AddFloatInput({1}, {2});
  EXPECT_EQ(condition.Run().code(), StatusCode::kModelInvalid);

  OpRunner types("Where");
  types.AddInput<uint8_t>({1}, {1}, DataType::kBool);
  types.AddFloatInput({1}, {1});
  types.AddInt64Input({1}, {2}, false);
  EXPECT_EQ(types.Run().code(), StatusCode::kModelInvalid);

  OpRunner missing("Where");
  missing.AddInput<uint8_t>({1}, {1}, DataType::kBool);
  missing.AddFloatInput({1}, {1});
  EXPECT_EQ(missing.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
