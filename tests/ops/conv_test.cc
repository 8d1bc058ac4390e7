#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/ops/conv_test_util.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::Geometry;
using testing::OpRunner;
using testing::Ramp;

// Independent N-d gather-form convolution: one multi-index walk per output.
std::vector<float> NaiveConv(const Shape& xs, const std::vector<float>& x, const Shape& ws, const std::vector<float>& w,
                             const std::vector<float>& b, const Geometry& g, const Shape& ys) {
  const size_t sp = xs.size() - 2;
  const int64_t cin_g = ws[1], cout_g = ws[0] / g.group;
  std::vector<float> y(static_cast<size_t>(NumElements(ys)));
  int64_t kvol = 1, ivol = 1, ovol = 1;
  for (size_t i = 0; i < sp; ++i) kvol *= ws[i + 2], ivol *= xs[i + 2], ovol *= ys[i + 2];
  for (int64_t n = 0; n < ys[0]; ++n) {
    for (int64_t m = 0; m < ys[1]; ++m) {
      for (int64_t o = 0; o < ovol; ++o) {
        std::vector<int64_t> oi(sp);
        for (int64_t r = o, i = static_cast<int64_t>(sp) - 1; i >= 0; --i) oi[i] = r % ys[i + 2], r /= ys[i + 2];
        double acc = b.empty() ? 0.0 : b[m];
        for (int64_t c = 0; c < cin_g; ++c) {
          const int64_t ic = (m / cout_g) * cin_g + c;
          for (int64_t k = 0; k < kvol; ++k) {
            int64_t in_off = 0;
            bool inside = true;
            for (int64_t r = k, i = static_cast<int64_t>(sp) - 1, mul = 1; i >= 0; --i) {
              const int64_t ki = r % ws[i + 2];
              r /= ws[i + 2];
              const int64_t pos = oi[i] * g.strides[i] + ki * g.dilations[i] - g.pads_begin[i];
              if (pos < 0 || pos >= xs[i + 2]) inside = false;
              in_off += pos * mul;
              mul *= xs[i + 2];
            }
            if (!inside) continue;
            acc += static_cast<double>(x[(n * xs[1] + ic) * ivol + in_off]) * w[(m * cin_g + c) * kvol + k];
          }
        }
        y[(n * ys[1] + m) * ovol + o] = static_cast<float>(acc);
      }
    }
  }
  return y;
}

TEST(ConvOp, Simple2dHandComputed) {
  OpRunner op("Conv");
  op.AddFloatInput({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  op.AddFloatInput({1, 1, 2, 2}, {1, 0, 0, -1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 2, 2}));
  // Each output is x[i][j] - x[i+1][j+1] = -4.
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{-4, -4, -4, -4}));
}

TEST(ConvOp, Conv1dWithBiasAndPads) {
  OpRunner op("Conv");
  op.attrs().SetInts("pads", {1, 1});
  op.AddFloatInput({1, 1, 4}, {1, 2, 3, 4});
  op.AddFloatInput({1, 1, 3}, {1, 1, 1}, true);
  op.AddFloatInput({1}, {10}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{13, 16, 19, 17}));
}

TEST(ConvOp, StridesPadsDilationsMatchNaive) {
  const Shape xs{2, 3, 7, 6}, ws{4, 3, 3, 2};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 3), b = Ramp(4, 9, 1);
  OpRunner op("Conv");
  op.attrs().SetInts("strides", {2, 1});
  op.attrs().SetInts("dilations", {2, 3});
  op.attrs().SetInts("pads", {1, 2, 2, 0});
  op.attrs().SetInts("kernel_shape", {3, 2});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  op.AddFloatInput({4}, b, true);
  ASSERT_TRUE(op.Run().ok());
  // H: (7 + 3 - 5) / 2 + 1 = 3; W: (6 + 2 - 4) / 1 + 1 = 5.
  const Shape ys{2, 4, 3, 5};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConv(xs, x, ws, w, b, {{2, 1}, {2, 3}, {1, 2}, 1}, ys));
}

TEST(ConvOp, GroupedMatchesNaive) {
  const Shape xs{1, 4, 5, 5}, ws{6, 2, 3, 3};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 2);
  OpRunner op("Conv");
  op.attrs().SetInt("group", 2);
  op.attrs().SetInts("pads", {1, 1, 1, 1});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  ASSERT_TRUE(op.Run().ok());
  const Shape ys{1, 6, 5, 5};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConv(xs, x, ws, w, {}, {{1, 1}, {1, 1}, {1, 1}, 2}, ys));
}

TEST(ConvOp, DepthwiseWithMultiplierMatchesNaive) {
  const Shape xs{1, 3, 6, 6}, ws{6, 1, 3, 3};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 1), b = Ramp(6, 5);
  OpRunner op("Conv");
  op.attrs().SetInt("group", 3);
  op.attrs().SetInts("strides", {2, 2});
  op.attrs().SetInts("pads", {1, 1, 1, 1});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  op.AddFloatInput({6}, b, true);
  ASSERT_TRUE(op.Run().ok());
  const Shape ys{1, 6, 3, 3};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConv(xs, x, ws, w, b, {{2, 2}, {1, 1}, {1, 1}, 3}, ys));
}

TEST(ConvOp, Conv3dMatchesNaive) {
  const Shape xs{1, 2, 4, 5, 3}, ws{3, 2, 2, 3, 2};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 4);
  OpRunner op("Conv");
  op.attrs().SetInts("strides", {1, 2, 1});
  op.attrs().SetInts("pads", {0, 1, 1, 1, 1, 0});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  ASSERT_TRUE(op.Run().ok());
  // D: (4 + 1 - 2) + 1 = 4; H: (5 + 2 - 3) / 2 + 1 = 3; W: (3 + 1 - 2) + 1 = 3.
  const Shape ys{1, 3, 4, 3, 3};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConv(xs, x, ws, w, {}, {{1, 2, 1}, {1, 1, 1}, {0, 1, 1}, 1}, ys));
}

TEST(ConvOp, AutoPadSameUpperAndLowerPlaceTheOddPixel) {
  // in 4, kernel 2, stride 1: out 4, total pad 1.
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    OpRunner op("Conv");
    op.attrs().SetString("auto_pad", mode);
    op.attrs().SetInts("pads", {5, 5});  // ignored under auto_pad
    op.AddFloatInput({1, 1, 4}, {1, 2, 3, 4});
    op.AddFloatInput({1, 1, 2}, {1, 10}, true);
    ASSERT_TRUE(op.Run().ok()) << mode;
    EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4}));
    if (std::string(mode) == "SAME_UPPER") {
      EXPECT_EQ(op.FloatOutput(), (std::vector<float>{21, 32, 43, 4}));  // pad at the end
    } else {
      EXPECT_EQ(op.FloatOutput(), (std::vector<float>{10, 21, 32, 43}));  // pad at the start
    }
  }
}

TEST(ConvOp, AutoPadSameWithStrideMatchesNaive) {
  const Shape xs{1, 2, 7, 8}, ws{3, 2, 3, 3};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 2);
  OpRunner op("Conv");
  op.attrs().SetString("auto_pad", "SAME_LOWER");
  op.attrs().SetInts("strides", {2, 3});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  ASSERT_TRUE(op.Run().ok());
  // H: out 4, total (3*2 + 3 - 7) = 2 -> 1 / 1. W: out 3, total (2*3 + 3 - 8) = 1 -> begin 1.
  const Shape ys{1, 3, 4, 3};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConv(xs, x, ws, w, {}, {{2, 3}, {1, 1}, {1, 1}, 1}, ys));
}

TEST(ConvOp, AutoPadValidIgnoresPads) {
  OpRunner op("Conv");
  op.attrs().SetString("auto_pad", "VALID");
  op.attrs().SetInts("pads", {1, 1});
  op.attrs().SetInts("strides", {2});
  op.AddFloatInput({1, 1, 6}, {1, 2, 3, 4, 5, 6});
  op.AddFloatInput({1, 1, 3}, {1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{6, 12}));
}

TEST(ConvOp, FusedActivations) {
  struct Case {
    const char* name;
    std::vector<float> params;
    std::vector<float> want;
  };
  // Pre-activation outputs: x * 1 + bias 0 over {-8, -1, 0, 1, 8}.
  const std::vector<Case> cases = {
      {"", {}, {-8, -1, 0, 1, 8}},
      {"Relu", {}, {0, 0, 0, 1, 8}},
      {"Clip", {-2, 6}, {-2, -1, 0, 1, 6}},
      {"Clip", {}, {-8, -1, 0, 1, 8}},
      {"LeakyRelu", {0.5f}, {-4, -0.5f, 0, 1, 8}},
      {"LeakyRelu", {}, {-0.08f, -0.01f, 0, 1, 8}},
      {"HardSigmoid", {0.25f, 0.5f}, {0, 0.25f, 0.5f, 0.75f, 1}},
      {"HardSwish", {}, {0, -1.0f / 3, 0, 2.0f / 3, 8}},
  };
  for (const Case& c : cases) {
    OpRunner op("Conv");
    op.attrs().SetString("activation", c.name);
    if (!c.params.empty()) op.attrs().SetFloats("activation_params", c.params);
    op.AddFloatInput({1, 1, 5}, {-8, -1, 0, 1, 8});
    op.AddFloatInput({1, 1, 1}, {1}, true);
    op.AddFloatInput({1}, {0}, true);
    ASSERT_TRUE(op.Run().ok()) << c.name;
    ExpectAllNear(op.FloatOutput(), c.want, 1e-6f);
  }
}

TEST(ConvOp, FusedActivationAppliesAfterBias) {
  OpRunner op("Conv");
  op.attrs().SetString("activation", "Relu");
  op.AddFloatInput({1, 1, 2}, {1, 3});
  op.AddFloatInput({1, 1, 1}, {1}, true);
  op.AddFloatInput({1}, {-2}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{0, 1}));
}

// The affine after the activation: y = act(x) * scale[c] + shift[c], per output channel or one for all.
TEST(ConvOp, OutputAffineAfterTheActivation) {
  for (bool per_channel : {true, false}) {
    OpRunner op("Conv");
    op.attrs().SetString("activation", "Relu");
    op.attrs().SetFloats("activation_scale", per_channel ? std::vector<float>{2.0f, -0.5f} : std::vector<float>{3.0f});
    op.attrs().SetFloats("activation_shift", {0.25f});
    // Two 1x1 output channels over x = {-1, 2}: weights 1 and -1, biases 0 and 1.
    op.AddFloatInput({1, 1, 2}, {-1, 2});
    op.AddFloatInput({2, 1, 1}, {1, -1}, true);
    op.AddFloatInput({2}, {0, 1}, true);
    ASSERT_TRUE(op.Run().ok());
    // Pre-activation: channel 0 {-1, 2}, channel 1 {2, -1}; Relu: {0, 2}, {2, 0}.
    const std::vector<float> want = per_channel ? std::vector<float>{0.25f, 4.25f, -0.75f, 0.25f}
                                                : std::vector<float>{0.25f, 6.25f, 6.25f, 0.25f};
    EXPECT_EQ(op.FloatOutput(), want) << (per_channel ? "per channel" : "one value");
  }
}

TEST(ConvOp, ResidualJoinsBeforeTheActivation) {
  for (bool omitted_bias : {false, true}) {
    OpRunner op("Conv");
    op.attrs().SetString("activation", "Relu");
    // Two 1x1 output channels over x = {-1, 2}: weights 1 and -1, biases 0 and 1 (or none).
    op.AddFloatInput({1, 1, 2}, {-1, 2});
    op.AddFloatInput({2, 1, 1}, {1, -1}, true);
    if (omitted_bias) {
      op.AddAbsentInput();
    } else {
      op.AddFloatInput({2}, {0, 1}, true);
    }
    op.AddFloatInput({1, 2, 2}, {1.5f, -3.0f, -1.5f, 2.0f});  // the residual, computed
    ASSERT_TRUE(op.Run().ok());
    // Sums: channel 0 {-1, 2}, channel 1 {1, -2} (+1 with the bias); + residual: {0.5, -1} and
    // {0.5, 1} ({-0.5, 0} without the bias); then Relu.
    const std::vector<float> want =
        omitted_bias ? std::vector<float>{0.5f, 0.0f, 0.0f, 0.0f} : std::vector<float>{0.5f, 0.0f, 0.5f, 1.0f};
    EXPECT_EQ(op.FloatOutput(), want) << (omitted_bias ? "no bias" : "bias");
  }
}

TEST(ConvOp, NonConstantWeightsWork) {
  OpRunner op("Conv");
  op.AddFloatInput({1, 2, 2}, {1, 2, 3, 4});
  op.AddFloatInput({1, 2, 1}, {1, -1}, false);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{-2, -2}));
}

struct BadConv {
  const char* what;
  Shape xs, ws;
  Shape bs;  // empty: no bias
  void (*set)(Attributes*);
  Shape rs = {};  // the residual; empty: none
  DataType residual_type = DataType::kFloat32;
};

TEST(ConvOp, RejectsInvalidModels) {
  const std::vector<BadConv> cases = {
      {"rank 2 input", {1, 4}, {1, 4}, {}, [](Attributes*) {}},
      {"rank 6 input", {1, 1, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1}, {}, [](Attributes*) {}},
      {"weight rank differs", {1, 1, 4, 4}, {1, 1, 2}, {}, [](Attributes*) {}},
      {"zero dim", {1, 0, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes*) {}},
      {"channel mismatch", {1, 3, 4, 4}, {1, 2, 2, 2}, {}, [](Attributes*) {}},
      {"group does not divide", {1, 4, 4, 4}, {3, 2, 2, 2}, {}, [](Attributes* a) { a->SetInt("group", 2); }},
      {"group zero", {1, 4, 4, 4}, {4, 1, 2, 2}, {}, [](Attributes* a) { a->SetInt("group", 0); }},
      {"group negative", {1, 4, 4, 4}, {4, 1, 2, 2}, {}, [](Attributes* a) { a->SetInt("group", -4); }},
      {"bias size", {1, 1, 4, 4}, {2, 1, 2, 2}, {3}, [](Attributes*) {}},
      {"bias rank", {1, 1, 4, 4}, {2, 1, 2, 2}, {1, 2}, [](Attributes*) {}},
      {"kernel_shape mismatch", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInts("kernel_shape", {3, 3}); }},
      {"kernel_shape size", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("kernel_shape", {2}); }},
      {"stride zero", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("strides", {1, 0}); }},
      {"stride huge", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInts("strides", {1, int64_t{1} << 62}); }},
      {"dilation negative", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("dilations", {-1, 1}); }},
      {"pads count", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("pads", {1, 1}); }},
      {"pads negative", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("pads", {0, 0, -1, 0}); }},
      {"kernel larger than input", {1, 1, 2, 2}, {1, 1, 3, 3}, {}, [](Attributes*) {}},
      {"dilated kernel larger than input", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInts("dilations", {4, 1}); }},
      {"unknown auto_pad", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetString("auto_pad", "SAME"); }},
      {"auto_pad wrong type", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInt("auto_pad", 1); }},
      {"unknown activation", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetString("activation", "Gelu"); }},
      {"too many activation params", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) {
         a->SetString("activation", "Relu");
         a->SetFloats("activation_params", {1});
       }},
      {"NaN activation param", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) {
         a->SetString("activation", "LeakyRelu");
         a->SetFloats("activation_params", {std::nanf("")});
       }},
      {"activation_scale of the wrong length", {1, 1, 4, 4}, {3, 1, 2, 2}, {},
       [](Attributes* a) {
         a->SetString("activation", "Relu");
         a->SetFloats("activation_scale", {1, 2});
       }},
      {"activation_shift of the wrong length", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetFloats("activation_shift", {1, 2}); }},
      {"infinite activation_scale", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetFloats("activation_scale", {INFINITY}); }},
      {"NaN activation_shift", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetFloats("activation_shift", {std::nanf("")}); }},
      {"activation_scale not floats", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInt("activation_scale", 2); }},
      {"huge spatial dim", {1, 1, int64_t{1} << 40}, {1, 1, 1}, {}, [](Attributes*) {}},
      {"residual of another shape", {1, 1, 4, 4}, {2, 1, 2, 2}, {2}, [](Attributes*) {}, {1, 2, 3, 2}},
      {"residual of another rank", {1, 1, 4, 4}, {2, 1, 2, 2}, {2}, [](Attributes*) {}, {2, 3, 3}},
      {"int8 residual in a float convolution", {1, 1, 4, 4}, {2, 1, 2, 2}, {2}, [](Attributes*) {}, {1, 2, 3, 3},
       DataType::kInt8},
  };
  for (const BadConv& c : cases) {
    OpRunner op("Conv");
    c.set(&op.attrs());
    op.AddFloatInput(c.xs, {});
    op.AddFloatInput(c.ws, {}, true);
    if (!c.bs.empty()) op.AddFloatInput(c.bs, {}, true);
    if (!c.rs.empty()) {
      op.AddInput<uint8_t>(c.rs, std::vector<uint8_t>(NumElements(c.rs) * DataTypeSize(c.residual_type)),
                           c.residual_type);
    }
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << c.what << ": " << status.message();
  }
}

TEST(ConvOp, RejectsNonFloatInput) {
  OpRunner op("Conv");
  op.AddInput<int32_t>({1, 1, 2}, {1, 2}, DataType::kInt32);
  op.AddFloatInput({1, 1, 1}, {1}, true);
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

TEST(ConvOp, RejectsMissingWeights) {
  OpRunner op("Conv");
  op.AddFloatInput({1, 1, 2}, {1, 2});
  op.AddAbsentInput();
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
