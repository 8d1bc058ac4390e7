// INT8 through the ops that only move values: Reshape, Flatten, Squeeze,
// Unsqueeze, Identity, Transpose, Slice, Split, Gather, Pad. They copy codes,
// so the output must carry the input's quantization; Pad quantizes its pad
// value with the data's parameters.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;

const QuantInfo kQ = PerTensor(0.05f, -7);

std::vector<int8_t> Codes(int n) {
  std::vector<int8_t> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<int8_t>(i * 37 % 256 - 128));
  return v;
}

TEST(DataMovementInt8, ShapeOpsCopyCodes) {
  const std::vector<int8_t> x = Codes(6);
  struct Case {
    const char* op;
    Shape out;
  };
  for (const Case& c : {Case{"Reshape", {3, 2}}, Case{"Flatten", {1, 6}}, Case{"Squeeze", {2, 3}},
                        Case{"Unsqueeze", {1, 1, 2, 3}}, Case{"Identity", {1, 2, 3}}}) {
    OpRunner op(c.op);
    op.AddInput<int8_t>({1, 2, 3}, x, DataType::kInt8);
    op.SetInputQuant(0, kQ);
    const std::string name = c.op;
    if (name == "Reshape") op.AddInt64Input({2}, {3, 2});
    if (name == "Unsqueeze") op.AddInt64Input({1}, {0});
    if (name == "Squeeze") op.AddInt64Input({1}, {0});
    op.SetOutputQuant(0, kQ);
    const Status s = op.Run();
    ASSERT_TRUE(s.ok()) << c.op << ": " << s.message();
    EXPECT_EQ(op.output().dtype, DataType::kInt8) << c.op;
    EXPECT_EQ(op.OutputShape(), c.out) << c.op;
    EXPECT_EQ(op.OutputValues<int8_t>(), x) << c.op;
  }
}

TEST(DataMovementInt8, TransposeSliceGather) {
  // x [2, 3] = a b c / d e f
  const std::vector<int8_t> x = {-128, -1, 0, 1, 64, 127};
  OpRunner transpose("Transpose");
  transpose.AddInput<int8_t>({2, 3}, x, DataType::kInt8);
  transpose.SetInputQuant(0, kQ);
  transpose.SetOutputQuant(0, kQ);
  ASSERT_TRUE(transpose.Run().ok());
  EXPECT_EQ(transpose.OutputValues<int8_t>(), (std::vector<int8_t>{-128, 1, -1, 64, 0, 127}));

  OpRunner slice("Slice");  // columns 2, 0 (step -2) of both rows
  slice.AddInput<int8_t>({2, 3}, x, DataType::kInt8);
  slice.SetInputQuant(0, kQ);
  slice.AddInt64Input({1}, {2});
  slice.AddInt64Input({1}, {-4});
  slice.AddInt64Input({1}, {1});
  slice.AddInt64Input({1}, {-2});
  slice.SetOutputQuant(0, kQ);
  const Status s = slice.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(slice.OutputValues<int8_t>(), (std::vector<int8_t>{0, -128, 127, 1}));

  OpRunner gather("Gather");
  gather.attrs().SetInt("axis", 1);
  gather.AddInput<int8_t>({2, 3}, x, DataType::kInt8);
  gather.SetInputQuant(0, kQ);
  gather.AddInput<int32_t>({2}, {2, -3}, DataType::kInt32, true);
  gather.SetOutputQuant(0, kQ);
  ASSERT_TRUE(gather.Run().ok());
  EXPECT_EQ(gather.OutputValues<int8_t>(), (std::vector<int8_t>{0, -128, 127, 1}));
}

TEST(DataMovementInt8, SplitGivesEveryOutputTheInputParameters) {
  OpRunner op("Split");
  op.attrs().SetInt("axis", 0);
  op.AddInput<int8_t>({5}, {1, 2, 3, 4, 5}, DataType::kInt8);
  op.SetInputQuant(0, kQ);
  op.AddInt64Input({2}, {2, 3});
  op.SetOutputQuant(0, kQ);
  op.SetOutputQuant(1, kQ);
  const Status s = op.Run(2);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(op.OutputValues<int8_t>(0), (std::vector<int8_t>{1, 2}));
  EXPECT_EQ(op.OutputValues<int8_t>(1), (std::vector<int8_t>{3, 4, 5}));
}

TEST(DataMovementInt8, PadQuantizesThePadValueWithTheDataParameters) {
  // data: scale 0.5, zp -3.
  const QuantInfo q = PerTensor(0.5f, -3);
  auto run = [&q](OpRunner* op) {
    op->SetOutputQuant(0, q);
    const Status s = op->Run();
    EXPECT_TRUE(s.ok()) << s.message();
    return s.ok() ? op->OutputValues<int8_t>() : std::vector<int8_t>();
  };
  {  // default value 0.0 pads with the zero point
    OpRunner op("Pad");
    op.AddInput<int8_t>({2}, {10, 20}, DataType::kInt8);
    op.SetInputQuant(0, q);
    op.AddInt64Input({2}, {1, 2});
    EXPECT_EQ(run(&op), (std::vector<int8_t>{-3, 10, 20, -3, -3}));
  }
  {  // attribute value 1.25 -> 2.5 -> 2 (half to even) - 3 = -1
    OpRunner op("Pad");
    op.attrs().SetInts("pads", {1, 0});
    op.attrs().SetFloat("value", 1.25f);
    op.AddInput<int8_t>({2}, {10, 20}, DataType::kInt8);
    op.SetInputQuant(0, q);
    EXPECT_EQ(run(&op), (std::vector<int8_t>{-1, 10, 20}));
  }
  {  // float constant_value -100 -> -200 - 3 saturates at -128
    OpRunner op("Pad");
    op.AddInput<int8_t>({2}, {10, 20}, DataType::kInt8);
    op.SetInputQuant(0, q);
    op.AddInt64Input({2}, {0, 1});
    op.AddFloatInput({}, {-100.0f});
    EXPECT_EQ(run(&op), (std::vector<int8_t>{10, 20, -128}));
  }
  {  // int8 constant_value with its own parameters: code 9 at scale 0.25, zp 1 -> real 2 -> 4 - 3 = 1
    OpRunner op("Pad");
    op.AddInput<int8_t>({2}, {10, 20}, DataType::kInt8);
    op.SetInputQuant(0, q);
    op.AddInt64Input({2}, {0, 1});
    op.AddInput<int8_t>({}, {9}, DataType::kInt8, true);
    op.SetInputQuant(2, PerTensor(0.25f, 1));
    EXPECT_EQ(run(&op), (std::vector<int8_t>{10, 20, 1}));
  }
  {  // reflect copies codes
    OpRunner op("Pad");
    op.attrs().SetString("mode", "reflect");
    op.AddInput<int8_t>({3}, {-128, 0, 127}, DataType::kInt8);
    op.SetInputQuant(0, q);
    op.AddInt64Input({2}, {2, 1});
    EXPECT_EQ(run(&op), (std::vector<int8_t>{127, 0, -128, 0, 127, 0}));
  }
  {  // plain int8 (no quantization parameters) keeps the saturating cast of the value
    OpRunner op("Pad");
    op.attrs().SetInts("pads", {0, 1});
    op.attrs().SetFloat("value", 300.0f);
    op.AddInput<int8_t>({1}, {5}, DataType::kInt8);
    ASSERT_TRUE(op.Run().ok());
    EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{5, 127}));
  }
}

TEST(DataMovementInt8, PlainInt8WithoutQuantizationStillMoves) {
  OpRunner op("Transpose");
  op.AddInput<int8_t>({2, 1}, {3, 4}, DataType::kInt8);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{3, 4}));
}

// ---------------------------------------------------------------- errors

TEST(DataMovementInt8, OutputParametersMustEqualTheInputs) {
  const QuantInfo other = PerTensor(0.05f, -6);
  for (const char* name : {"Reshape", "Flatten", "Identity", "Transpose", "Slice", "Gather", "Pad", "Split"}) {
    for (int variant = 0; variant < 2; ++variant) {  // 0: different parameters, 1: none on the output
      OpRunner op(name);
      const std::string n = name;
      op.AddInput<int8_t>({2, 2}, {1, 2, 3, 4}, DataType::kInt8);
      op.SetInputQuant(0, kQ);
      if (n == "Reshape") op.AddInt64Input({1}, {4});
      if (n == "Slice") {
        op.AddInt64Input({1}, {0});
        op.AddInt64Input({1}, {1});
      }
      if (n == "Gather") op.AddInput<int64_t>({1}, {1}, DataType::kInt64, true);
      if (n == "Pad") op.AddInt64Input({4}, {0, 0, 1, 1});
      if (n == "Split") op.attrs().SetInt("num_outputs", 2);
      const int outputs = n == "Split" ? 2 : 1;
      if (n == "Split") op.SetOutputQuant(0, kQ);  // the second output is the wrong one
      if (variant == 0) op.SetOutputQuant(static_cast<size_t>(outputs - 1), other);
      const Status s = op.Run(outputs);
      EXPECT_EQ(s.code(), StatusCode::kModelInvalid) << name << " variant " << variant;
      const std::string want = variant == 0 ? n + ": output '' quantization (scale 0.05, zero point -6) differs"
                                            : n + ": only one of input 'in0' and output ''";
      EXPECT_NE(s.message().find(want), std::string::npos) << s.message();
    }
  }
}

TEST(DataMovementInt8, PadRejectsUnquantizedInt8ValueAndFloatValueOnPlainInt8) {
  {
    OpRunner op("Pad");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.SetInputQuant(0, kQ);
    op.AddInt64Input({2}, {0, 1});
    op.AddInput<int8_t>({}, {9}, DataType::kInt8, true);
    op.SetOutputQuant(0, kQ);
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("Pad: constant_value 'in2' is INT8 but has no quantization parameters"),
              std::string::npos)
        << s.message();
  }
  {
    OpRunner op("Pad");
    op.AddInput<int8_t>({2}, {1, 2}, DataType::kInt8);
    op.AddInt64Input({2}, {0, 1});
    op.AddFloatInput({}, {1.0f});
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("needs quantization parameters"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace npurt
