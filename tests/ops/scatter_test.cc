// ScatterND / ScatterElements (runtime/ops/scatter.cc): the ONNX examples, reductions, repeated and
// negative indices, rejections.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

TEST(ScatterOp, ScatterNdWritesSlices) {
  // ONNX example 1: data [1..8], indices [[4], [3], [1], [7]], updates [9, 10, 11, 12].
  OpRunner op("ScatterND");
  op.AddFloatInput({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  op.AddInt64Input({4, 1}, {4, 3, 1, 7}, false);
  op.AddFloatInput({4}, {9, 10, 11, 12});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));

  // Rows of a matrix (index depth 1 of rank 2), one index negative.
  OpRunner rows("ScatterND");
  rows.AddFloatInput({3, 2}, {0, 0, 0, 0, 0, 0});
  rows.AddInt64Input({2, 1}, {-1, 0}, false);
  rows.AddFloatInput({2, 2}, {5, 6, 7, 8});
  ASSERT_TRUE(rows.Run().ok());
  EXPECT_EQ(rows.FloatOutput(), (std::vector<float>{7, 8, 0, 0, 5, 6}));
}

TEST(ScatterOp, ScatterNdReductions) {
  auto run = [](const char* reduction) {
    OpRunner op("ScatterND");
    op.attrs().SetString("reduction", reduction);
    op.AddFloatInput({4}, {1, 2, 3, 4});
    op.AddInt64Input({3, 1}, {1, 1, 3}, false);  // index 1 twice
    op.AddFloatInput({3}, {10, 5, -1});
    EXPECT_TRUE(op.Run().ok()) << reduction;
    return op.FloatOutput();
  };
  EXPECT_EQ(run("none"), (std::vector<float>{1, 5, 3, -1}));  // in order: the last write wins
  EXPECT_EQ(run("add"), (std::vector<float>{1, 17, 3, 3}));
  EXPECT_EQ(run("mul"), (std::vector<float>{1, 100, 3, -4}));
  EXPECT_EQ(run("max"), (std::vector<float>{1, 10, 3, 4}));
  EXPECT_EQ(run("min"), (std::vector<float>{1, 2, 3, -1}));

  OpRunner ints("ScatterND");  // integer sums wrap
  ints.attrs().SetString("reduction", "add");
  ints.AddInt64Input({1}, {std::numeric_limits<int64_t>::max()}, false);
  ints.AddInt64Input({1, 1}, {0}, false);
  ints.AddInt64Input({1}, {1}, false);
  ASSERT_TRUE(ints.Run().ok());
  EXPECT_EQ(ints.OutputValues<int64_t>(), (std::vector<int64_t>{std::numeric_limits<int64_t>::min()}));
}

TEST(ScatterOp, ScatterElementsAlongAxis) {
  // ONNX example 2: data [[1, 2, 3, 4, 5]], indices [[1, 3]], updates [[1.1, 2.1]], axis 1.
  OpRunner op("ScatterElements");
  op.attrs().SetInt("axis", 1);
  op.AddFloatInput({1, 5}, {1, 2, 3, 4, 5});
  op.AddInt64Input({1, 2}, {1, 3}, false);
  op.AddFloatInput({1, 2}, {1.1f, 2.1f});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 1.1f, 3, 2.1f, 5}));

  // Axis 0 with a reduction and a negative index.
  OpRunner add("ScatterElements");
  add.attrs().SetString("reduction", "add");
  add.AddFloatInput({3, 2}, {0, 0, 0, 0, 0, 0});
  add.AddInt64Input({2, 2}, {1, -1, 1, 0}, false);
  add.AddFloatInput({2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(add.Run().ok());
  EXPECT_EQ(add.FloatOutput(), (std::vector<float>{0, 4, 4, 0, 0, 2}));
}

TEST(ScatterOp, RejectsBadModels) {
  OpRunner depth("ScatterND");
  depth.AddFloatInput({2}, {1, 2});
  depth.AddInt64Input({1, 2}, {0, 0}, false);  // depth 2 > rank 1
  depth.AddFloatInput({1}, {1});
  EXPECT_EQ(depth.Run().code(), StatusCode::kModelInvalid);

  OpRunner updates("ScatterND");
  updates.AddFloatInput({4}, {1, 2, 3, 4});
  updates.AddInt64Input({2, 1}, {0, 1}, false);
  updates.AddFloatInput({3}, {1, 2, 3});
  EXPECT_EQ(updates.Run().code(), StatusCode::kModelInvalid);

  OpRunner range("ScatterND");
  range.AddFloatInput({2}, {1, 2});
  range.AddInt64Input({1, 1}, {2}, false);
  range.AddFloatInput({1}, {9});
  EXPECT_EQ(range.Run().code(), StatusCode::kFail);

  OpRunner reduction("ScatterElements");
  reduction.attrs().SetString("reduction", "average");
  reduction.AddFloatInput({2}, {1, 2});
  reduction.AddInt64Input({1}, {0}, false);
  reduction.AddFloatInput({1}, {1});
  EXPECT_EQ(reduction.Run().code(), StatusCode::kModelInvalid);

  OpRunner bool_add("ScatterElements");
  bool_add.attrs().SetString("reduction", "add");
  bool_add.AddInput<uint8_t>({2}, {0, 1}, DataType::kBool);
  bool_add.AddInt64Input({1}, {0}, false);
  bool_add.AddInput<uint8_t>({1}, {1}, DataType::kBool);
  EXPECT_EQ(bool_add.Run().code(), StatusCode::kModelInvalid);

  OpRunner types("ScatterElements");
  types.AddFloatInput({2}, {1, 2});
  types.AddInt64Input({1}, {0}, false);
  types.AddInt64Input({1}, {1}, false);
  EXPECT_EQ(types.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
