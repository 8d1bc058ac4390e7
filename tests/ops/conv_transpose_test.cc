#include <gtest/gtest.h>

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

// Independent gather form: output o takes input i wherever o = i * s + k * d - pad.
std::vector<float> NaiveConvTranspose(const Shape& xs, const std::vector<float>& x, const Shape& ws,
                                      const std::vector<float>& w, const std::vector<float>& b, const Geometry& g,
                                      const Shape& ys) {
  const size_t sp = xs.size() - 2;
  const int64_t cin_g = xs[1] / g.group, cout_g = ws[1];
  int64_t kvol = 1, ivol = 1, ovol = 1;
  for (size_t i = 0; i < sp; ++i) kvol *= ws[i + 2], ivol *= xs[i + 2], ovol *= ys[i + 2];
  std::vector<float> y(static_cast<size_t>(NumElements(ys)));
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
            bool hit = true;
            for (int64_t r = k, i = static_cast<int64_t>(sp) - 1, mul = 1; i >= 0; --i) {
              const int64_t ki = r % ws[i + 2];
              r /= ws[i + 2];
              const int64_t num = oi[i] + g.pads_begin[i] - ki * g.dilations[i];
              if (num < 0 || num % g.strides[i] != 0 || num / g.strides[i] >= xs[i + 2]) hit = false;
              in_off += (num / g.strides[i]) * mul;
              mul *= xs[i + 2];
            }
            if (!hit) continue;
            acc += static_cast<double>(x[(n * xs[1] + ic) * ivol + in_off]) * w[(ic * cout_g + m % cout_g) * kvol + k];
          }
        }
        y[(n * ys[1] + m) * ovol + o] = static_cast<float>(acc);
      }
    }
  }
  return y;
}

TEST(ConvTransposeOp, Simple1dHandComputed) {
  OpRunner op("ConvTranspose");
  op.AddFloatInput({1, 1, 3}, {1, 2, 3});
  op.AddFloatInput({1, 1, 3}, {1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 5}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 3, 6, 5, 3}));
}

TEST(ConvTransposeOp, Stride2WithBiasHandComputed) {
  OpRunner op("ConvTranspose");
  op.attrs().SetInts("strides", {2});
  op.AddFloatInput({1, 1, 2}, {1, 2});
  op.AddFloatInput({1, 1, 3}, {1, 10, 100}, true);
  op.AddFloatInput({1}, {0.5f}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 5}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1.5f, 10.5f, 102.5f, 20.5f, 200.5f}));
}

// The compiler's fused activation applies after the bias (Relu, and LeakyRelu with its parameter).
TEST(ConvTransposeOp, FusedActivationAfterTheBias) {
  for (const char* activation : {"Relu", "LeakyRelu"}) {
    OpRunner op("ConvTranspose");
    op.attrs().SetInts("strides", {2});
    op.attrs().SetString("activation", activation);
    if (std::string(activation) == "LeakyRelu") op.attrs().SetFloats("activation_params", {0.5f});
    op.AddFloatInput({1, 1, 2}, {1, -2});
    op.AddFloatInput({1, 1, 3}, {1, 10, 100}, true);
    op.AddFloatInput({1}, {0.5f}, true);
    ASSERT_TRUE(op.Run().ok());
    // Before the activation: {1.5, 10.5, 100.5 - 2, -20 + 0.5, -200 + 0.5} = {1.5, 10.5, 98.5, -19.5, -199.5}.
    const std::vector<float> want = std::string(activation) == "Relu"
                                        ? std::vector<float>{1.5f, 10.5f, 98.5f, 0.0f, 0.0f}
                                        : std::vector<float>{1.5f, 10.5f, 98.5f, -9.75f, -99.75f};
    EXPECT_EQ(op.FloatOutput(), want) << activation;
  }
}

TEST(ConvTransposeOp, Grouped2dWithEverythingMatchesNaive) {
  const Shape xs{2, 4, 3, 4}, ws{4, 3, 3, 2};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 2), b = Ramp(6, 9, 4);
  OpRunner op("ConvTranspose");
  op.attrs().SetInt("group", 2);
  op.attrs().SetInts("strides", {2, 3});
  op.attrs().SetInts("dilations", {1, 2});
  op.attrs().SetInts("pads", {1, 0, 2, 1});
  op.attrs().SetInts("output_padding", {1, 2});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  op.AddFloatInput({6}, b, true);
  ASSERT_TRUE(op.Run().ok());
  // H: 2*2 + 1 + 3 - 3 = 5; W: 3*3 + 2 + 3 - 1 = 13.
  const Shape ys{2, 6, 5, 13};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConvTranspose(xs, x, ws, w, b, {{2, 3}, {1, 2}, {1, 0}, 2}, ys));
}

TEST(ConvTransposeOp, Conv3dMatchesNaive) {
  const Shape xs{1, 2, 2, 3, 2}, ws{2, 2, 2, 2, 3};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 1);
  OpRunner op("ConvTranspose");
  op.attrs().SetInts("strides", {1, 2, 2});
  op.attrs().SetInts("pads", {0, 1, 1, 1, 0, 1});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  ASSERT_TRUE(op.Run().ok());
  // D: 1 + 2 - 1 = 2; H: 4 + 2 - 1 = 5; W: 2 + 3 - 2 = 3.
  const Shape ys{1, 2, 2, 5, 3};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConvTranspose(xs, x, ws, w, {}, {{1, 2, 2}, {1, 1, 1}, {0, 1, 1}, 1}, ys));
}

TEST(ConvTransposeOp, AutoPadSamePlacesTheOddPixel) {
  // full size (2 - 1) * 2 + 3 = 5, SAME output 2 * 2 = 4, total padding 1.
  OpRunner upper("ConvTranspose");
  upper.attrs().SetString("auto_pad", "SAME_UPPER");
  upper.attrs().SetInts("strides", {2});
  upper.AddFloatInput({1, 1, 2}, {1, 2});
  upper.AddFloatInput({1, 1, 3}, {1, 10, 100}, true);
  ASSERT_TRUE(upper.Run().ok());
  EXPECT_EQ(upper.OutputShape(), (Shape{1, 1, 4}));
  EXPECT_EQ(upper.FloatOutput(), (std::vector<float>{1, 10, 102, 20}));  // drops the last

  OpRunner lower("ConvTranspose");
  lower.attrs().SetString("auto_pad", "SAME_LOWER");
  lower.attrs().SetInts("strides", {2});
  lower.AddFloatInput({1, 1, 2}, {1, 2});
  lower.AddFloatInput({1, 1, 3}, {1, 10, 100}, true);
  ASSERT_TRUE(lower.Run().ok());
  EXPECT_EQ(lower.OutputShape(), (Shape{1, 1, 4}));
  EXPECT_EQ(lower.FloatOutput(), (std::vector<float>{10, 102, 20, 200}));  // drops the first
}

TEST(ConvTransposeOp, OutputShapeOverridesPads) {
  const Shape xs{1, 1, 3, 3}, ws{1, 2, 3, 3};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 3);
  for (const std::vector<int64_t>& output_shape : {std::vector<int64_t>{6, 5}, std::vector<int64_t>{1, 2, 6, 5}}) {
    OpRunner op("ConvTranspose");
    op.attrs().SetInts("strides", {2, 2});
    op.attrs().SetInts("pads", {3, 3, 3, 3});  // ignored
    op.attrs().SetInts("output_shape", output_shape);
    op.AddFloatInput(xs, x);
    op.AddFloatInput(ws, w, true);
    ASSERT_TRUE(op.Run().ok());
    // full 7x7: H total 1 -> begin 1 (the ONNX text puts the odd pixel at the
    // beginning unless auto_pad is SAME_UPPER), W total 2 -> begin 1.
    const Shape ys{1, 2, 6, 5};
    EXPECT_EQ(op.OutputShape(), ys);
    ExpectAllNear(op.FloatOutput(), NaiveConvTranspose(xs, x, ws, w, {}, {{2, 2}, {1, 1}, {1, 1}, 1}, ys));
  }
}

TEST(ConvTransposeOp, OutputShapeLargerThanKernelReachIsBias) {
  OpRunner op("ConvTranspose");
  op.attrs().SetInts("output_shape", {5});
  op.AddFloatInput({1, 1, 2}, {1, 2});
  op.AddFloatInput({1, 1, 2}, {1, 1}, true);
  op.AddFloatInput({1}, {7}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{8, 10, 9, 7, 7}));
}

TEST(ConvTransposeOp, AutoPadValidIgnoresPads) {
  OpRunner op("ConvTranspose");
  op.attrs().SetString("auto_pad", "VALID");
  op.attrs().SetInts("pads", {1, 1});
  op.AddFloatInput({1, 1, 3}, {1, 2, 3});
  op.AddFloatInput({1, 1, 3}, {1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 3, 6, 5, 3}));
}

TEST(ConvTransposeOp, DepthwiseMatchesNaive) {
  const Shape xs{1, 3, 4, 4}, ws{3, 1, 2, 2};
  const auto x = Ramp(NumElements(xs)), w = Ramp(NumElements(ws), 5, 1), b = Ramp(3, 5, 2);
  OpRunner op("ConvTranspose");
  op.attrs().SetInt("group", 3);
  op.attrs().SetInts("strides", {2, 2});
  op.AddFloatInput(xs, x);
  op.AddFloatInput(ws, w, true);
  op.AddFloatInput({3}, b, true);
  ASSERT_TRUE(op.Run().ok());
  const Shape ys{1, 3, 8, 8};
  EXPECT_EQ(op.OutputShape(), ys);
  ExpectAllNear(op.FloatOutput(), NaiveConvTranspose(xs, x, ws, w, b, {{2, 2}, {1, 1}, {0, 0}, 3}, ys));
}

struct BadConvTranspose {
  const char* what;
  Shape xs, ws;
  Shape bs;  // empty: no bias
  void (*set)(Attributes*);
};

TEST(ConvTransposeOp, RejectsInvalidModels) {
  const std::vector<BadConvTranspose> cases = {
      {"rank 2 input", {1, 4}, {4, 1}, {}, [](Attributes*) {}},
      {"weight rank differs", {1, 1, 4, 4}, {1, 1, 2}, {}, [](Attributes*) {}},
      {"negative dim", {1, 1, -4, 4}, {1, 1, 2, 2}, {}, [](Attributes*) {}},
      {"weight dim 0 is not C", {1, 2, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes*) {}},
      {"group does not divide C", {1, 3, 4, 4}, {3, 1, 2, 2}, {}, [](Attributes* a) { a->SetInt("group", 2); }},
      {"group zero", {1, 2, 4, 4}, {2, 1, 2, 2}, {}, [](Attributes* a) { a->SetInt("group", 0); }},
      {"bias size", {1, 2, 4, 4}, {2, 3, 2, 2}, {3}, [](Attributes* a) { a->SetInt("group", 2); }},
      {"kernel_shape mismatch", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInts("kernel_shape", {2, 3}); }},
      {"stride zero", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("strides", {0, 1}); }},
      {"dilations count", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("dilations", {1}); }},
      {"negative output_padding", {1, 1, 4, 4}, {1, 1, 2, 2}, {},
       [](Attributes* a) { a->SetInts("output_padding", {0, -1}); }},
      {"output_shape count", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("output_shape", {8}); }},
      {"output_shape zero", {1, 1, 4, 4}, {1, 1, 2, 2}, {}, [](Attributes* a) { a->SetInts("output_shape", {8, 0}); }},
      {"pads eat the output", {1, 1, 2}, {1, 1, 2}, {}, [](Attributes* a) { a->SetInts("pads", {2, 1}); }},
      {"huge pads", {1, 1, 2}, {1, 1, 2}, {}, [](Attributes* a) { a->SetInts("pads", {int64_t{1} << 62, 0}); }},
      {"huge stride", {1, 1, 2}, {1, 1, 2}, {}, [](Attributes* a) { a->SetInts("strides", {int64_t{1} << 40}); }},
      {"unknown auto_pad", {1, 1, 4}, {1, 1, 2}, {}, [](Attributes* a) { a->SetString("auto_pad", "FULL"); }},
      {"unknown activation", {1, 1, 4}, {1, 1, 2}, {}, [](Attributes* a) { a->SetString("activation", "Gelu"); }},
      {"Relu with a parameter", {1, 1, 4}, {1, 1, 2}, {},
       [](Attributes* a) {
         a->SetString("activation", "Relu");
         a->SetFloats("activation_params", {1});
       }},
      {"an affine after the activation", {1, 1, 4}, {1, 1, 2}, {},
       [](Attributes* a) {
         a->SetString("activation", "Relu");
         a->SetFloats("activation_scale", {2});
       }},
  };
  for (const BadConvTranspose& c : cases) {
    OpRunner op("ConvTranspose");
    c.set(&op.attrs());
    op.AddFloatInput(c.xs, {});
    op.AddFloatInput(c.ws, {}, true);
    if (!c.bs.empty()) op.AddFloatInput(c.bs, {}, true);
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << c.what << ": " << status.message();
  }
}

TEST(ConvTransposeOp, RejectsNonFloatWeights) {
  OpRunner op("ConvTranspose");
  op.AddFloatInput({1, 1, 2}, {1, 2});
  op.AddInput<int32_t>({1, 1, 1}, {1}, DataType::kInt32, true);
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
