#include <gtest/gtest.h>

#include <cstdint>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;

// Independent reference: walks the output in order and maps each index back.
template <typename T>
std::vector<T> ReferenceTranspose(const Shape& in_shape, const std::vector<int64_t>& perm, const std::vector<T>& in) {
  const size_t rank = in_shape.size();
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t d = rank - 1; d > 0; --d) in_strides[d - 1] = in_strides[d] * in_shape[d];
  Shape out_shape(rank);
  for (size_t k = 0; k < rank; ++k) out_shape[k] = in_shape[perm[k]];
  std::vector<T> out(in.size());
  for (size_t n = 0; n < out.size(); ++n) {
    int64_t rest = static_cast<int64_t>(n);
    int64_t offset = 0;
    for (size_t k = rank; k-- > 0;) {
      offset += (rest % out_shape[k]) * in_strides[perm[k]];
      rest /= out_shape[k];
    }
    out[n] = in[offset];
  }
  return out;
}

TEST(TransposeOp, DefaultReversesDims) {
  OpRunner op("Transpose");
  op.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(TransposeOp, NchwToNhwcInt32) {
  // 1x2x2x3 (C=2, H=2, W=3): NHWC interleaves the two channels.
  OpRunner op("Transpose");
  op.attrs().SetInts("perm", {0, 2, 3, 1});
  op.AddInput<int32_t>({1, 2, 2, 3}, {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}, DataType::kInt32);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 2, 3, 2}));
  EXPECT_EQ(op.OutputValues<int32_t>(), (std::vector<int32_t>{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}));
}

TEST(TransposeOp, KeepsInnerDimContiguous) {
  std::vector<uint16_t> in(2 * 3 * 4 * 5);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(i);
  const std::vector<int64_t> perm = {1, 0, 2, 3};
  OpRunner op("Transpose");
  op.attrs().SetInts("perm", perm);
  op.AddInput<uint16_t>({2, 3, 4, 5}, in, DataType::kFloat16);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 2, 4, 5}));
  EXPECT_EQ(op.OutputValues<uint16_t>(), ReferenceTranspose<uint16_t>({2, 3, 4, 5}, perm, in));
}

TEST(TransposeOp, Rank8Int8) {
  const Shape shape = {2, 1, 3, 2, 1, 2, 3, 2};
  std::vector<int8_t> in(static_cast<size_t>(NumElements(shape)));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int8_t>(i * 7);
  const std::vector<int64_t> perm = {7, 2, 0, 5, 1, 3, 6, 4};
  OpRunner op("Transpose");
  op.attrs().SetInts("perm", perm);
  op.AddInput<int8_t>(shape, in, DataType::kInt8);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3, 2, 2, 1, 2, 3, 1}));
  EXPECT_EQ(op.OutputValues<int8_t>(), ReferenceTranspose<int8_t>(shape, perm, in));
}

TEST(TransposeOp, Int64WithUnitDimsAndScalar) {
  OpRunner op("Transpose");
  op.attrs().SetInts("perm", {2, 0, 1});
  op.AddInt64Input({1, 3, 1}, {7, 8, 9}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 3}));
  EXPECT_EQ(op.OutputValues<int64_t>(), (std::vector<int64_t>{7, 8, 9}));

  OpRunner scalar("Transpose");
  scalar.AddFloatInput({}, {3.5f});
  ASSERT_TRUE(scalar.Run().ok());
  EXPECT_EQ(scalar.FloatOutput(), (std::vector<float>{3.5f}));

  OpRunner empty("Transpose");
  empty.AddFloatInput({2, 0, 3}, {});
  ASSERT_TRUE(empty.Run().ok());
  EXPECT_EQ(empty.OutputShape(), (Shape{3, 0, 2}));
}

TEST(TransposeOp, RejectsBadPerm) {
  for (std::vector<int64_t> perm :
       std::vector<std::vector<int64_t>>{{0, 1}, {0, 1, 1}, {0, 1, 3}, {0, -1, 1}, {}, {0, 1, 2, 3}}) {
    OpRunner op("Transpose");
    op.attrs().SetInts("perm", perm);
    op.AddFloatInput({1, 2, 3}, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid) << perm.size();
  }
}

}  // namespace
}  // namespace npurt
