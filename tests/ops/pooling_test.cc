#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

std::vector<float> Ramp(int64_t n, int mod = 11, int seed = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(((i * 7 + seed) % mod) - mod / 2) * 0.5f;
  return v;
}

struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads_begin, pads_end;
};

// Independent N-d pooling: one multi-index walk over each window.
std::vector<float> NaivePool(bool max, bool count_include_pad, const Shape& xs, const std::vector<float>& x,
                             const Window& w, const Shape& ys) {
  const size_t sp = xs.size() - 2;
  int64_t ivol = 1, ovol = 1, kvol = 1;
  for (size_t i = 0; i < sp; ++i) ivol *= xs[i + 2], ovol *= ys[i + 2], kvol *= w.kernel[i];
  std::vector<float> y;
  for (int64_t plane = 0; plane < xs[0] * xs[1]; ++plane) {
    for (int64_t o = 0; o < ovol; ++o) {
      std::vector<int64_t> oi(sp);
      for (int64_t r = o, i = static_cast<int64_t>(sp) - 1; i >= 0; --i) oi[i] = r % ys[i + 2], r /= ys[i + 2];
      float best = std::numeric_limits<float>::lowest();
      double sum = 0;
      int64_t inside = 0, padded = 0;
      for (int64_t k = 0; k < kvol; ++k) {
        bool in_input = true, in_padded = true;
        int64_t off = 0;
        for (int64_t r = k, i = static_cast<int64_t>(sp) - 1, mul = 1; i >= 0; --i) {
          const int64_t j = r % w.kernel[i];
          r /= w.kernel[i];
          const int64_t pos = oi[i] * w.strides[i] - w.pads_begin[i] + j * w.dilations[i];
          in_input = in_input && pos >= 0 && pos < xs[i + 2];
          in_padded = in_padded && pos < xs[i + 2] + w.pads_end[i];
          off += pos * mul;
          mul *= xs[i + 2];
        }
        padded += in_padded ? 1 : 0;
        if (!in_input) continue;
        ++inside;
        const float v = x[plane * ivol + off];
        best = std::max(best, v);
        sum += v;
      }
      y.push_back(max ? best : static_cast<float>(sum / (count_include_pad ? padded : inside)));
    }
  }
  return y;
}

TEST(PoolingOp, MaxAndAverage2dHandComputed) {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i + 1);
  OpRunner max("MaxPool");
  max.attrs().SetInts("kernel_shape", {2, 2});
  max.attrs().SetInts("strides", {2, 2});
  max.AddFloatInput({1, 1, 4, 4}, x);
  ASSERT_TRUE(max.Run().ok());
  EXPECT_EQ(max.OutputShape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(max.FloatOutput(), (std::vector<float>{6, 8, 14, 16}));

  OpRunner avg("AveragePool");
  avg.attrs().SetInts("kernel_shape", {2, 2});
  avg.attrs().SetInts("strides", {2, 2});
  avg.AddFloatInput({1, 1, 4, 4}, x);
  ASSERT_TRUE(avg.Run().ok());
  EXPECT_EQ(avg.FloatOutput(), (std::vector<float>{3.5f, 5.5f, 11.5f, 13.5f}));
}

TEST(PoolingOp, AverageCountIncludePad) {
  const std::vector<float> ones(9, 1.0f);
  OpRunner exclude("AveragePool");
  exclude.attrs().SetInts("kernel_shape", {3, 3});
  exclude.attrs().SetInts("pads", {1, 1, 1, 1});
  exclude.AddFloatInput({1, 1, 3, 3}, ones);
  ASSERT_TRUE(exclude.Run().ok());
  ExpectAllNear(exclude.FloatOutput(), ones);

  OpRunner include("AveragePool");
  include.attrs().SetInts("kernel_shape", {3, 3});
  include.attrs().SetInts("pads", {1, 1, 1, 1});
  include.attrs().SetInt("count_include_pad", 1);
  include.AddFloatInput({1, 1, 3, 3}, ones);
  ASSERT_TRUE(include.Run().ok());
  const float c = 4.0f / 9, e = 6.0f / 9;
  ExpectAllNear(include.FloatOutput(), {c, e, c, e, 1, e, c, e, c});
}

TEST(PoolingOp, MaxPool1dWithDilation) {
  OpRunner op("MaxPool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInts("dilations", {2});
  op.AddFloatInput({1, 1, 6}, {1, 5, 2, 4, 3, 0});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{2, 5, 3, 4}));
}

TEST(PoolingOp, CeilModeKeepsPartialWindow) {
  for (int ceil_mode = 0; ceil_mode < 2; ++ceil_mode) {
    OpRunner max("MaxPool");
    max.attrs().SetInts("kernel_shape", {2});
    max.attrs().SetInts("strides", {2});
    max.attrs().SetInt("ceil_mode", ceil_mode);
    max.AddFloatInput({1, 1, 5}, {1, 2, 3, 4, 5});
    ASSERT_TRUE(max.Run().ok());
    EXPECT_EQ(max.FloatOutput(), ceil_mode ? std::vector<float>({2, 4, 5}) : std::vector<float>({2, 4}));
  }
  // The partial window counts its one real tap, with or without count_include_pad
  // (taps past the end padding never count).
  for (int include : {0, 1}) {
    OpRunner avg("AveragePool");
    avg.attrs().SetInts("kernel_shape", {2});
    avg.attrs().SetInts("strides", {2});
    avg.attrs().SetInt("ceil_mode", 1);
    avg.attrs().SetInt("count_include_pad", include);
    avg.AddFloatInput({1, 1, 5}, {1, 2, 3, 4, 5});
    ASSERT_TRUE(avg.Run().ok());
    EXPECT_EQ(avg.FloatOutput(), (std::vector<float>{1.5f, 3.5f, 5}));
  }
}

TEST(PoolingOp, CeilModeDropsWindowStartingInEndPadding) {
  // in 4, kernel 2, stride 3, pads 1/1: ceil((4 + 2 - 2) / 3) + 1 = 3, but the
  // third window would start at 6 - 1 = 5, past the input: ONNX drops it.
  OpRunner op("MaxPool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInts("strides", {3});
  op.attrs().SetInts("pads", {1, 1});
  op.attrs().SetInt("ceil_mode", 1);
  op.AddFloatInput({1, 1, 4}, {7, 1, 2, 9});
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{7, 9}));
}

TEST(PoolingOp, AutoPadSamePlacesTheOddPixel) {
  // in 4, kernel 2, stride 1: total padding 1, counted by count_include_pad.
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    OpRunner op("AveragePool");
    op.attrs().SetString("auto_pad", mode);
    op.attrs().SetInts("kernel_shape", {2});
    op.attrs().SetInt("count_include_pad", 1);
    op.AddFloatInput({1, 1, 4}, {2, 4, 6, 8});
    ASSERT_TRUE(op.Run().ok()) << mode;
    EXPECT_EQ(op.OutputShape(), (Shape{1, 1, 4}));
    if (std::string(mode) == "SAME_UPPER") {
      EXPECT_EQ(op.FloatOutput(), (std::vector<float>{3, 5, 7, 4}));
    } else {
      EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 3, 5, 7}));
    }
  }
}

TEST(PoolingOp, AutoPadSameWithStrideAndValid) {
  OpRunner same("MaxPool");
  same.attrs().SetString("auto_pad", "SAME_UPPER");
  same.attrs().SetInts("kernel_shape", {3});
  same.attrs().SetInts("strides", {2});
  same.AddFloatInput({1, 1, 5}, {5, 1, 2, 8, 3});
  ASSERT_TRUE(same.Run().ok());
  // out 3, total 2 -> pads 1/1: windows [-1..1], [1..3], [3..5].
  EXPECT_EQ(same.OutputShape(), (Shape{1, 1, 3}));
  EXPECT_EQ(same.FloatOutput(), (std::vector<float>{5, 8, 8}));

  OpRunner valid("MaxPool");
  valid.attrs().SetString("auto_pad", "VALID");
  valid.attrs().SetInts("pads", {2, 2});  // ignored
  valid.attrs().SetInts("kernel_shape", {3});
  valid.attrs().SetInts("strides", {2});
  valid.AddFloatInput({1, 1, 6}, {5, 1, 2, 8, 3, 9});
  ASSERT_TRUE(valid.Run().ok());
  EXPECT_EQ(valid.OutputShape(), (Shape{1, 1, 2}));
  EXPECT_EQ(valid.FloatOutput(), (std::vector<float>{5, 8}));
}

TEST(PoolingOp, Pool2dMatchesNaive) {
  const Shape xs{2, 3, 7, 8};
  const auto x = Ramp(NumElements(xs));
  const Window w{{3, 2}, {2, 3}, {1, 2}, {1, 1}, {2, 0}};
  for (bool is_max : {true, false}) {
    for (int ceil_mode : {0, 1}) {
      for (int include : {0, 1}) {
        OpRunner op(is_max ? "MaxPool" : "AveragePool");
        op.attrs().SetInts("kernel_shape", w.kernel);
        op.attrs().SetInts("strides", w.strides);
        op.attrs().SetInts("dilations", w.dilations);
        op.attrs().SetInts("pads", {1, 1, 2, 0});
        op.attrs().SetInt("ceil_mode", ceil_mode);
        if (!is_max) op.attrs().SetInt("count_include_pad", include);
        op.AddFloatInput(xs, x);
        ASSERT_TRUE(op.Run().ok());
        // H: span 7 + 3 - 3 = 7 -> floor 4, ceil 5 (start 8 - 1 = 7 is past the input: dropped -> 4).
        // W: span 8 + 1 - 3 = 6 -> 3 either way.
        const Shape ys{2, 3, 4, 3};
        EXPECT_EQ(op.OutputShape(), ys);
        ExpectAllNear(op.FloatOutput(), NaivePool(is_max, include == 1, xs, x, w, ys));
      }
    }
  }
}

TEST(PoolingOp, CeilModeNaiveWithKeptPartialWindows) {
  const Shape xs{1, 2, 6, 7};
  const auto x = Ramp(NumElements(xs), 13, 3);
  const Window w{{3, 3}, {2, 2}, {1, 1}, {1, 0}, {1, 1}};
  for (int include : {0, 1}) {
    OpRunner op("AveragePool");
    op.attrs().SetInts("kernel_shape", w.kernel);
    op.attrs().SetInts("strides", w.strides);
    op.attrs().SetInts("pads", {1, 0, 1, 1});
    op.attrs().SetInt("ceil_mode", 1);
    op.attrs().SetInt("count_include_pad", include);
    op.AddFloatInput(xs, x);
    ASSERT_TRUE(op.Run().ok());
    // H: span 6 + 2 - 3 = 5 -> ceil 4 (start 6 - 1 = 5 < 6: kept). W: span 7 + 1 - 3 = 5 -> 4 (start 6 < 7: kept).
    const Shape ys{1, 2, 4, 4};
    EXPECT_EQ(op.OutputShape(), ys);
    ExpectAllNear(op.FloatOutput(), NaivePool(false, include == 1, xs, x, w, ys));
  }
}

TEST(PoolingOp, Pool3dMatchesNaive) {
  const Shape xs{1, 2, 4, 5, 3};
  const auto x = Ramp(NumElements(xs));
  const Window w{{2, 3, 2}, {2, 1, 1}, {1, 1, 1}, {0, 1, 1}, {0, 1, 0}};
  for (bool is_max : {true, false}) {
    OpRunner op(is_max ? "MaxPool" : "AveragePool");
    op.attrs().SetInts("kernel_shape", w.kernel);
    op.attrs().SetInts("strides", w.strides);
    op.attrs().SetInts("pads", {0, 1, 1, 0, 1, 0});
    op.AddFloatInput(xs, x);
    ASSERT_TRUE(op.Run().ok());
    const Shape ys{1, 2, 2, 5, 3};
    EXPECT_EQ(op.OutputShape(), ys);
    ExpectAllNear(op.FloatOutput(), NaivePool(is_max, false, xs, x, w, ys));
  }
}

TEST(PoolingOp, GlobalPools) {
  OpRunner avg("GlobalAveragePool");
  avg.AddFloatInput({1, 2, 2, 2}, {1, 2, 3, 4, -1, -2, -3, 10});
  ASSERT_TRUE(avg.Run().ok());
  EXPECT_EQ(avg.OutputShape(), (Shape{1, 2, 1, 1}));
  EXPECT_EQ(avg.FloatOutput(), (std::vector<float>{2.5f, 1}));

  OpRunner max("GlobalMaxPool");
  max.AddFloatInput({2, 1, 3}, {-5, -2, -9, 0, 4, 1});
  ASSERT_TRUE(max.Run().ok());
  EXPECT_EQ(max.OutputShape(), (Shape{2, 1, 1}));
  EXPECT_EQ(max.FloatOutput(), (std::vector<float>{-2, 4}));

  OpRunner avg3d("GlobalAveragePool");
  avg3d.AddFloatInput({1, 1, 2, 1, 2}, {1, 2, 3, 6});
  ASSERT_TRUE(avg3d.Run().ok());
  EXPECT_EQ(avg3d.OutputShape(), (Shape{1, 1, 1, 1, 1}));
  EXPECT_EQ(avg3d.FloatOutput(), (std::vector<float>{3}));
}

TEST(PoolingOp, MaxPoolIndicesRejectAStorageOrderOtherThanZeroOrOne) {
  // (Indices values: tests/ops/roi_pool_test.cc.)
  OpRunner op("MaxPool");
  op.attrs().SetInts("kernel_shape", {2});
  op.attrs().SetInt("storage_order", 2);
  op.AddFloatInput({1, 1, 4}, {1, 2, 3, 4});
  EXPECT_EQ(op.Run(2).code(), StatusCode::kModelInvalid);
}

TEST(PoolingOp, RejectsInvalidModels) {
  struct Case {
    const char* what;
    const char* op;
    Shape xs;
    void (*set)(Attributes*);
  };
  const std::vector<Case> cases = {
      {"no kernel_shape", "MaxPool", {1, 1, 4, 4}, [](Attributes*) {}},
      {"kernel_shape size", "AveragePool", {1, 1, 4, 4}, [](Attributes* a) { a->SetInts("kernel_shape", {2}); }},
      {"kernel_shape zero", "MaxPool", {1, 1, 4, 4}, [](Attributes* a) { a->SetInts("kernel_shape", {2, 0}); }},
      {"kernel larger than input", "MaxPool", {1, 1, 4}, [](Attributes* a) { a->SetInts("kernel_shape", {5}); }},
      {"stride zero", "MaxPool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("strides", {0});
       }},
      {"stride huge", "MaxPool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("strides", {int64_t{1} << 50});
       }},
      {"pads count", "AveragePool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("pads", {1});
       }},
      {"pads negative", "AveragePool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("pads", {0, -1});
       }},
      {"pad as wide as kernel", "MaxPool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("pads", {2, 0});
       }},
      {"dilation zero", "MaxPool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInts("dilations", {0});
       }},
      {"ceil_mode 2", "MaxPool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInt("ceil_mode", 2);
       }},
      {"count_include_pad -1", "AveragePool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetInt("count_include_pad", -1);
       }},
      {"unknown auto_pad", "AveragePool", {1, 1, 4},
       [](Attributes* a) {
         a->SetInts("kernel_shape", {2});
         a->SetString("auto_pad", "same");
       }},
      {"rank 2", "MaxPool", {1, 4}, [](Attributes* a) { a->SetInts("kernel_shape", {2}); }},
      {"rank 6", "MaxPool", {1, 1, 2, 2, 2, 2}, [](Attributes* a) { a->SetInts("kernel_shape", {1, 1, 1, 1}); }},
      {"zero dim", "MaxPool", {0, 1, 4}, [](Attributes* a) { a->SetInts("kernel_shape", {2}); }},
      {"global rank 2", "GlobalAveragePool", {1, 4}, [](Attributes*) {}},
      {"global zero dim", "GlobalMaxPool", {1, 4, 0}, [](Attributes*) {}},
  };
  for (const Case& c : cases) {
    OpRunner op(c.op);
    c.set(&op.attrs());
    op.AddFloatInput(c.xs, {});
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << c.what << ": " << status.message();
  }
  OpRunner int_input("GlobalMaxPool");
  int_input.AddInput<int32_t>({1, 1, 1}, {1}, DataType::kInt32);
  EXPECT_EQ(int_input.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
