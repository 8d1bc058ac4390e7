#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

std::vector<float> Ramp(int64_t n, int mod = 7, int seed = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(((i * 5 + seed) % mod) - mod / 2) * 0.5f;
  return v;
}

// Plain (M, K) x (K, N).
std::vector<float> NaiveMatMul(const std::vector<float>& a, const std::vector<float>& b, int64_t m, int64_t k,
                               int64_t n) {
  std::vector<float> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t kk = 0; kk < k; ++kk) acc += static_cast<double>(a[i * k + kk]) * b[kk * n + j];
      y[i * n + j] = static_cast<float>(acc);
    }
  }
  return y;
}

std::vector<float> Transpose(const std::vector<float>& x, int64_t rows, int64_t cols) {
  std::vector<float> t(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = x[r * cols + c];
  }
  return t;
}

TEST(GemmOp, PlainHandComputed) {
  OpRunner op("Gemm");
  op.AddFloatInput({2, 3}, {1, 2, 3, 4, 5, 6});
  op.AddFloatInput({3, 2}, {1, 0, 0, 1, 1, 1}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{4, 5, 10, 11}));
}

TEST(GemmOp, AllTransposeCombinationsWithAlphaBeta) {
  const int64_t m = 3, k = 19, n = 4;  // k > 16 exercises the unrolled dot product and its tail
  const auto a = Ramp(m * k), b = Ramp(k * n, 9, 2), c = Ramp(m * n, 5, 1);
  const auto ab = NaiveMatMul(a, b, m, k, n);
  std::vector<float> want(ab.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = 0.5f * ab[i] + 2.0f * c[i];
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      OpRunner op("Gemm");
      op.attrs().SetInt("transA", ta);
      op.attrs().SetInt("transB", tb);
      op.attrs().SetFloat("alpha", 0.5f);
      op.attrs().SetFloat("beta", 2.0f);
      op.AddFloatInput(ta ? Shape{k, m} : Shape{m, k}, ta ? Transpose(a, m, k) : a);
      op.AddFloatInput(tb ? Shape{n, k} : Shape{k, n}, tb ? Transpose(b, k, n) : b, true);
      op.AddFloatInput({m, n}, c, true);
      ASSERT_TRUE(op.Run().ok()) << ta << tb;
      EXPECT_EQ(op.OutputShape(), (Shape{m, n}));
      ExpectAllNear(op.FloatOutput(), want);
    }
  }
}

TEST(GemmOp, BroadcastsEveryCShape) {
  const int64_t m = 2, k = 2, n = 3;
  const std::vector<float> a{1, 2, 3, 4}, b{1, 0, 1, 0, 1, 1};  // A * B = {1,2,3, 3,4,7}
  struct Case {
    Shape shape;
    std::vector<float> c;
    std::vector<float> want;
  };
  const std::vector<Case> cases = {
      {{}, {10}, {11, 12, 13, 13, 14, 17}},
      {{1}, {10}, {11, 12, 13, 13, 14, 17}},
      {{3}, {10, 20, 30}, {11, 22, 33, 13, 24, 37}},
      {{1, 3}, {10, 20, 30}, {11, 22, 33, 13, 24, 37}},
      {{2, 1}, {10, 20}, {11, 12, 13, 23, 24, 27}},
      {{1, 1}, {10}, {11, 12, 13, 13, 14, 17}},
      {{2, 3}, {1, 2, 3, 4, 5, 6}, {2, 4, 6, 7, 9, 13}},
  };
  for (const Case& c : cases) {
    OpRunner op("Gemm");
    op.AddFloatInput({m, k}, a);
    op.AddFloatInput({k, n}, b, true);
    op.AddFloatInput(c.shape, c.c, true);
    ASSERT_TRUE(op.Run().ok()) << ShapeToString(c.shape);
    EXPECT_EQ(op.FloatOutput(), c.want) << ShapeToString(c.shape);
  }
}

TEST(GemmOp, OptionalCAbsentOrOmitted) {
  OpRunner two_inputs("Gemm");
  two_inputs.attrs().SetFloat("alpha", 2.0f);
  two_inputs.AddFloatInput({1, 2}, {1, 2});
  two_inputs.AddFloatInput({2, 1}, {3, 4}, true);
  ASSERT_TRUE(two_inputs.Run().ok());
  EXPECT_EQ(two_inputs.FloatOutput(), (std::vector<float>{22}));

  OpRunner omitted("Gemm");
  omitted.AddFloatInput({1, 2}, {1, 2});
  omitted.AddFloatInput({2, 1}, {3, 4}, true);
  omitted.AddAbsentInput();
  ASSERT_TRUE(omitted.Run().ok());
  EXPECT_EQ(omitted.FloatOutput(), (std::vector<float>{11}));
}

TEST(GemmOp, BetaZeroIgnoresC) {
  OpRunner op("Gemm");
  op.attrs().SetFloat("beta", 0.0f);
  op.AddFloatInput({1, 1}, {2});
  op.AddFloatInput({1, 2}, {3, 4}, true);
  op.AddFloatInput({2}, {std::numeric_limits<float>::infinity(), std::nanf("")}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{6, 8}));
}

TEST(GemmOp, FusedActivationAfterBias) {
  struct Case {
    const char* name;
    std::vector<float> params;
    std::vector<float> want;
  };
  // Pre-activation: x * 1 + (-1) over x = {-5, 0, 1, 4} gives {-6, -1, 0, 3}.
  const std::vector<Case> cases = {
      {"Relu", {}, {0, 0, 0, 3}},
      {"Clip", {-1, 2}, {-1, -1, 0, 2}},
      {"Clip", {3, 1}, {1, 1, 1, 1}},  // min > max: everything becomes max, like ONNX Clip
      {"LeakyRelu", {0.1f}, {-0.6f, -0.1f, 0, 3}},
      {"HardSigmoid", {}, {0, 0.3f, 0.5f, 1}},
      {"HardSwish", {}, {0, -1.0f / 3, 0, 3}},
  };
  for (const Case& c : cases) {
    OpRunner op("Gemm");
    op.attrs().SetString("activation", c.name);
    op.attrs().SetFloats("activation_params", c.params);
    op.AddFloatInput({4, 1}, {-5, 0, 1, 4});
    op.AddFloatInput({1, 1}, {1}, true);
    op.AddFloatInput({1}, {-1}, true);
    ASSERT_TRUE(op.Run().ok()) << c.name;
    ExpectAllNear(op.FloatOutput(), c.want, 1e-6f);
  }
}

TEST(GemmOp, RejectsInvalidModels) {
  struct Case {
    const char* what;
    Shape a, b, c;
    bool has_c;
    void (*set)(Attributes*);
  };
  const std::vector<Case> cases = {
      {"A is 1-D", {3}, {3, 2}, {}, false, [](Attributes*) {}},
      {"B is 3-D", {2, 3}, {1, 3, 2}, {}, false, [](Attributes*) {}},
      {"inner dims differ", {2, 3}, {4, 2}, {}, false, [](Attributes*) {}},
      {"inner dims differ after transB", {2, 3}, {3, 2}, {}, false, [](Attributes* a) { a->SetInt("transB", 1); }},
      {"transA not 0 or 1", {2, 3}, {3, 2}, {}, false, [](Attributes* a) { a->SetInt("transA", 7); }},
      {"alpha wrong type", {2, 3}, {3, 2}, {}, false, [](Attributes* a) { a->SetInt("alpha", 1); }},
      {"zero dim", {0, 3}, {3, 2}, {}, false, [](Attributes*) {}},
      {"C rows", {2, 3}, {3, 2}, {3, 2}, true, [](Attributes*) {}},
      {"C cols", {2, 3}, {3, 2}, {3}, true, [](Attributes*) {}},
      {"C rank 3", {2, 3}, {3, 2}, {1, 2, 2}, true, [](Attributes*) {}},
      {"unknown activation", {2, 3}, {3, 2}, {}, false, [](Attributes* a) { a->SetString("activation", "Tanh"); }},
      {"too many Clip params", {2, 3}, {3, 2}, {}, false,
       [](Attributes* a) {
         a->SetString("activation", "Clip");
         a->SetFloats("activation_params", {0, 1, 2});
       }},
  };
  for (const Case& c : cases) {
    OpRunner op("Gemm");
    c.set(&op.attrs());
    op.AddFloatInput(c.a, {});
    op.AddFloatInput(c.b, {}, true);
    if (c.has_c) op.AddFloatInput(c.c, {}, true);
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << c.what << ": " << status.message();
  }
}

TEST(GemmOp, RejectsMissingB) {
  OpRunner op("Gemm");
  op.AddFloatInput({1, 1}, {1});
  op.AddAbsentInput();
  EXPECT_EQ(op.Run().code(), StatusCode::kModelInvalid);
}

TEST(MatMulOp, Plain2d) {
  OpRunner op("MatMul");
  op.AddFloatInput({2, 2}, {1, 2, 3, 4});
  op.AddFloatInput({2, 3}, {1, 0, 2, 0, 1, 3}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{1, 2, 8, 3, 4, 18}));
}

TEST(MatMulOp, OneDimensionalOperandsArePromotedAndSqueezed) {
  OpRunner vv("MatMul");
  vv.AddFloatInput({3}, {1, 2, 3});
  vv.AddFloatInput({3}, {4, 5, 6});
  ASSERT_TRUE(vv.Run().ok());
  EXPECT_EQ(vv.OutputShape(), Shape{});
  EXPECT_EQ(vv.FloatOutput(), (std::vector<float>{32}));

  OpRunner vm("MatMul");
  vm.AddFloatInput({2}, {1, 2});
  vm.AddFloatInput({2, 2, 3}, {1, 2, 3, 4, 5, 6, 0, 1, 0, 1, 0, 1});
  ASSERT_TRUE(vm.Run().ok());
  EXPECT_EQ(vm.OutputShape(), (Shape{2, 3}));
  EXPECT_EQ(vm.FloatOutput(), (std::vector<float>{9, 12, 15, 2, 1, 2}));

  OpRunner mv("MatMul");
  mv.AddFloatInput({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  mv.AddFloatInput({2}, {1, -1});
  ASSERT_TRUE(mv.Run().ok());
  EXPECT_EQ(mv.OutputShape(), (Shape{2, 2}));
  EXPECT_EQ(mv.FloatOutput(), (std::vector<float>{-1, -1, -1, -1}));
}

TEST(MatMulOp, BatchBroadcastingMatchesNaive) {
  // A (2, 1, 3, 4) x B (3, 4, 2) -> (2, 3, 3, 2): A broadcasts over B's batch, B over A's.
  const int64_t m = 3, k = 4, n = 2;
  const auto a = Ramp(2 * m * k), b = Ramp(3 * k * n, 9, 1);
  OpRunner op("MatMul");
  op.AddFloatInput({2, 1, m, k}, a);
  op.AddFloatInput({3, k, n}, b, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{2, 3, m, n}));
  std::vector<float> want;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const std::vector<float> am(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
      const std::vector<float> bm(b.begin() + j * k * n, b.begin() + (j + 1) * k * n);
      const auto y = NaiveMatMul(am, bm, m, k, n);
      want.insert(want.end(), y.begin(), y.end());
    }
  }
  ExpectAllNear(op.FloatOutput(), want);
}

TEST(MatMulOp, BatchedAgainstSharedMatrix) {
  OpRunner op("MatMul");
  op.AddFloatInput({3, 1, 2}, {1, 2, 3, 4, 5, 6});
  op.AddFloatInput({2, 1}, {1, 10}, true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_EQ(op.OutputShape(), (Shape{3, 1, 1}));
  EXPECT_EQ(op.FloatOutput(), (std::vector<float>{21, 43, 65}));
}

TEST(MatMulOp, RejectsInvalidModels) {
  struct Case {
    const char* what;
    Shape a, b;
  };
  const std::vector<Case> cases = {
      {"scalar A", {}, {2, 2}},
      {"inner dims differ", {2, 3}, {2, 3}},
      {"vector lengths differ", {3}, {4}},
      {"batch dims differ", {2, 2, 3}, {3, 3, 2}},
      {"zero dim", {2, 0, 3}, {3, 2}},
      {"negative dim", {2, 3}, {3, -2}},
  };
  for (const Case& c : cases) {
    OpRunner op("MatMul");
    op.AddFloatInput(c.a, {});
    op.AddFloatInput(c.b, {});
    const Status status = op.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << c.what << ": " << status.message();
  }
  OpRunner int_input("MatMul");
  int_input.AddInput<int32_t>({1, 1}, {1}, DataType::kInt32);
  int_input.AddFloatInput({1, 1}, {1});
  EXPECT_EQ(int_input.Run().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
