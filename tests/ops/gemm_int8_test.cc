// Int8 Gemm and MatMul (contract in runtime/kernels/ref/quantize.h):
// hand-computed cases, oracle tests against the float ops on dequantized
// inputs, and the error paths of the int8 checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;
using namespace testing::accumulating;  // PerAxis, Dequantize, OutputQuantFor, MatchCount, ...

// ================================================================ Gemm

TEST(GemmInt8, HandComputedWithAlphaAndBias) {
  OpRunner op("Gemm");
  op.attrs().SetFloat("alpha", 2.0f);
  // A (scale 0.5, zero point 1): q [[1 3 5] [-1 1 1]] -> A - zp = [[0 2 4] [-2 0 0]].
  op.AddInput<int8_t>({2, 3}, {1, 3, 5, -1, 1, 1}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 1));
  // B (scale 0.5): [[1 0] [2 1] [-1 3]].
  op.AddInput<int8_t>({3, 2}, {1, 0, 2, 1, -1, 3}, DataType::kInt8, true);
  op.SetInputQuant(1, PerTensor(0.5f));
  // Bias [4 -2]; acc scale = alpha x 0.5 x 0.5 = 0.5, so its real value is [2 -1].
  op.AddInput<int32_t>({2}, {4, -2}, DataType::kInt32, true);
  op.SetOutputQuant(0, PerTensor(1.0f, 0));
  ASSERT_TRUE(op.Run().ok());
  // Sums: row 0: 0*1 + 2*2 + 4*-1 = 0, 0*0 + 2*1 + 4*3 = 14; row 1: -2, 0.
  // acc = sum + bias: [4 12] [2 -2]; x 0.5 = [2 6] [1 -1] (float: alpha * A B + C, same).
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{2, 6, 1, -1}));
}

TEST(GemmInt8, TransposedPerColumnWeightsAndHardSwish) {
  OpRunner op("Gemm");
  op.attrs().SetInt("transA", 1);
  op.attrs().SetInt("transB", 1);
  op.attrs().SetString("activation", "HardSwish");
  // A' (K 2 x M 1) = [3 -3] (scale 1, zero point 0) -> A = [[3 -3]].
  op.AddInput<int8_t>({2, 1}, {3, -3}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f));
  // B' (N 2 x K 2) = [[1 0] [0 1]], per output column (axis 0 under transB) scales 1 and 2.
  op.AddInput<int8_t>({2, 2}, {1, 0, 0, 1}, DataType::kInt8, true);
  op.SetInputQuant(1, PerAxis({1.0f, 2.0f}, 0));
  op.SetOutputQuant(0, PerTensor(0.5f, 0));
  ASSERT_TRUE(op.Run().ok());
  // Column 0: acc 3 x 1 = 3 -> HardSwish(3) = 3 * min(1, 3/6 + 0.5) = 3 -> 6.
  // Column 1: acc -3 x 2 = -6 -> HardSwish(-6) = 0 -> 0.
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{6, 0}));
}

TEST(GemmInt8, ActivationBWithZeroPoint) {
  OpRunner op("Gemm");
  op.attrs().SetInt("transB", 1);
  // A (scale 1, zero point 1): [[3 5]] -> A - zp = [[2 4]].
  op.AddInput<int8_t>({1, 2}, {3, 5}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, 1));
  // B' (N 2 x K 2), an activation (scale 0.5, zero point 2): [[2 0] [4 6]] -> B' - zp = [[0 -2] [2 4]].
  op.AddInput<int8_t>({2, 2}, {2, 0, 4, 6}, DataType::kInt8);
  op.SetInputQuant(1, PerTensor(0.5f, 2));
  op.SetOutputQuant(0, PerTensor(1.0f, 0));
  ASSERT_TRUE(op.Run().ok());
  // acc = [2*0 + 4*-2, 2*2 + 4*4] = [-8 20]; x 1 x 0.5 = [-4 10].
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{-4, 10}));
}

struct GemmCase {
  Attributes attrs;
  Shape as, bs;
  std::vector<int8_t> a, b;
  QuantInfo aq, bq;
  bool b_constant = true;     // false: B is an activation
  std::vector<int32_t> bias;  // empty: no C
  Shape bias_shape;
  float alpha = 1.0f;
  int64_t n = 1;
  std::string text;
};

GemmCase RandomGemmCase(std::mt19937& rng) {
  GemmCase c;
  const int64_t m = Uniform(rng, 1, 17), n = Uniform(rng, 1, 19), k = Uniform(rng, 1, 70);
  const bool trans_a = Uniform(rng, 0, 1) == 1, trans_b = Uniform(rng, 0, 1) == 1;
  c.n = n;
  c.as = trans_a ? Shape{k, m} : Shape{m, k};
  c.bs = trans_b ? Shape{n, k} : Shape{k, n};
  c.attrs.SetInt("transA", trans_a);
  c.attrs.SetInt("transB", trans_b);
  static const float kAlphas[] = {1.0f, 1.0f, 0.5f, 1.75f, -0.75f};
  c.alpha = kAlphas[Uniform(rng, 0, 4)];
  if (c.alpha != 1.0f) c.attrs.SetFloat("alpha", c.alpha);
  c.text = "A " + ShapeToString(c.as) + " B " + ShapeToString(c.bs) + " alpha " + std::to_string(c.alpha);
  switch (Uniform(rng, 0, 5)) {
    case 0: break;
    case 1: c.attrs.SetString("activation", "Relu"); break;
    case 2:
      c.attrs.SetString("activation", "Clip");
      c.attrs.SetFloats("activation_params", {-0.1f * Uniform(rng, 0, 20), 0.1f * Uniform(rng, 5, 30)});
      break;
    case 3:
      c.attrs.SetString("activation", "LeakyRelu");
      c.attrs.SetFloats("activation_params", {0.05f * Uniform(rng, 1, 6)});
      break;
    case 4: c.attrs.SetString("activation", "HardSwish"); break;
    default: c.attrs.SetString("activation", "HardSigmoid"); break;
  }
  c.a = RandomInt8(rng, m * k);
  c.aq = PerTensor(0.001f * Uniform(rng, 10, 100), RandomZeroPoint(rng));
  c.b = RandomInt8(rng, k * n);
  const int b_mode = Uniform(rng, 0, 2);  // weight per tensor, weight per column, activation
  if (b_mode == 0) {
    c.bq = PerTensor(0.001f * Uniform(rng, 2, 20));
    c.text += " weight per-tensor";
  } else if (b_mode == 1) {
    std::vector<float> scales(static_cast<size_t>(n));
    for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
    c.bq = PerAxis(scales, trans_b ? 0 : 1);
    c.text += " weight per-column";
  } else {
    c.bq = PerTensor(0.001f * Uniform(rng, 2, 20), RandomZeroPoint(rng));
    c.b_constant = false;
    c.text += " activation zp_b " + std::to_string(c.bq.zero_point[0]);
  }
  const int bias_mode = Uniform(rng, 0, 2);  // none, [N], [1, N]
  if (bias_mode > 0) {
    c.bias.resize(static_cast<size_t>(n));
    for (int32_t& b : c.bias) b = Uniform(rng, -20000, 20000);
    c.bias_shape = bias_mode == 1 ? Shape{n} : Shape{1, n};
  }
  c.text += " zp_a " + std::to_string(c.aq.zero_point[0]);
  return c;
}

// acc scale of column j as the op computes it (alpha folded in).
float GemmAccScale(const GemmCase& c, size_t j) {
  return c.alpha * (c.aq.scale[0] * c.bq.scale[c.bq.per_tensor() ? 0 : j]);
}

std::vector<float> RunGemmOracle(const GemmCase& c) {
  OpRunner op("Gemm");
  op.attrs() = c.attrs;
  op.AddFloatInput(c.as, Dequantize(c.as, c.a, c.aq));
  op.AddFloatInput(c.bs, Dequantize(c.bs, c.b, c.bq), c.b_constant);
  if (!c.bias.empty()) {
    // C's real value: bias x alpha x scale_A x scale_B (ONNX Runtime QGemm's convention, beta 1).
    std::vector<float> real(c.bias.size());
    for (size_t j = 0; j < real.size(); ++j) real[j] = DequantizeValue(c.bias[j], GemmAccScale(c, j), 0);
    op.AddFloatInput(c.bias_shape, real, true);
  }
  EXPECT_TRUE(op.Run().ok()) << c.text;
  return op.FloatOutput();
}

// The int8 Gemm against the float oracle, output parameters fitted to the oracle's range.
void CheckGemm(const GemmCase& c, std::mt19937& rng, MatchCount* count) {
  const std::vector<float> real = RunGemmOracle(c);
  const QuantInfo yq = OutputQuantFor(real, rng);
  OpRunner op("Gemm");
  op.attrs() = c.attrs;
  op.AddInput<int8_t>(c.as, c.a, DataType::kInt8);
  op.SetInputQuant(0, c.aq);
  op.AddInput<int8_t>(c.bs, c.b, DataType::kInt8, c.b_constant);
  op.SetInputQuant(1, c.bq);
  if (!c.bias.empty()) op.AddInput<int32_t>(c.bias_shape, c.bias, DataType::kInt32, true);
  op.SetOutputQuant(0, yq);
  const Status status = op.Run();
  ASSERT_TRUE(status.ok()) << c.text << ": " << status.message();
  ExpectWithinOneStep(op.OutputValues<int8_t>(), real, yq, c.text, count);
}

TEST(GemmInt8, MatchesFloatOracleOnRandomCases) {
  std::mt19937 rng(77);
  MatchCount count;
  for (int cases = 0; cases < 1000 && !::testing::Test::HasFailure(); ++cases) {
    CheckGemm(RandomGemmCase(rng), rng, &count);
  }
  ExpectMostlyExact(count);
  EXPECT_GT(count.total, 60000);
}

TEST(GemmInt8, WideRowsCrossAccumulatorBlocks) {
  // N = 600 columns: more than the kernel's 256-column accumulator block.
  std::mt19937 rng(8);
  MatchCount count;
  for (int trans_b = 0; trans_b <= 1; ++trans_b) {
    GemmCase c;
    const int64_t m = 3, n = 600, k = 37;
    c.n = n;
    c.as = {m, k};
    c.bs = trans_b ? Shape{n, k} : Shape{k, n};
    c.attrs.SetInt("transB", trans_b);
    c.attrs.SetString("activation", "LeakyRelu");
    c.a = RandomInt8(rng, m * k);
    c.aq = PerTensor(0.04f, 17);
    c.b = RandomInt8(rng, k * n);
    std::vector<float> scales(static_cast<size_t>(n));
    for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
    c.bq = PerAxis(scales, trans_b ? 0 : 1);
    c.bias.resize(static_cast<size_t>(n));
    for (int32_t& b : c.bias) b = Uniform(rng, -5000, 5000);
    c.bias_shape = {n};
    c.text = "wide transB " + std::to_string(trans_b);
    CheckGemm(c, rng, &count);
  }
  ExpectMostlyExact(count);
}

// A valid int8 Gemm: A [2, 3], B [3, 4] per column, C [4].
struct ValidGemm {
  Attributes attrs;
  DataType a_type = DataType::kInt8, b_type = DataType::kInt8, c_type = DataType::kInt32;
  Shape c_shape{4};
  bool b_constant = true;
  QuantInfo aq = PerTensor(0.1f, -3);
  QuantInfo bq = PerAxis({0.01f, 0.02f, 0.03f, 0.04f}, 1);
  QuantInfo cq;
  QuantInfo yq = PerTensor(0.2f, 4);
  int32_t bias0 = 7;

  Status Run() const {
    OpRunner op("Gemm");
    op.attrs() = attrs;
    if (a_type == DataType::kInt8) {
      op.AddInput<int8_t>({2, 3}, std::vector<int8_t>(6, 9), a_type);
    } else {
      op.AddFloatInput({2, 3}, std::vector<float>(6, 1.0f));
    }
    op.SetInputQuant(0, aq);
    if (b_type == DataType::kInt8) {
      op.AddInput<int8_t>({3, 4}, std::vector<int8_t>(12, -5), b_type, b_constant);
    } else {
      op.AddFloatInput({3, 4}, std::vector<float>(12, 1.0f), b_constant);
    }
    op.SetInputQuant(1, bq);
    const int64_t c_count = NumElements(c_shape);
    if (c_type == DataType::kInt32) {
      std::vector<int32_t> c(static_cast<size_t>(c_count), 1);
      c[0] = bias0;
      op.AddInput<int32_t>(c_shape, c, c_type, true);
    } else if (c_type == DataType::kFloat32) {
      op.AddFloatInput(c_shape, std::vector<float>(static_cast<size_t>(c_count), 1.0f), true);
    } else {
      op.AddInput<int8_t>(c_shape, std::vector<int8_t>(static_cast<size_t>(c_count), 1), c_type, true);
    }
    op.SetInputQuant(2, cq);
    op.SetOutputQuant(0, yq);
    return op.Run();
  }
};

TEST(GemmInt8, ValidCaseRuns) {
  EXPECT_TRUE(ValidGemm().Run().ok());
  ValidGemm row;  // C as [1, N]
  row.c_shape = {1, 4};
  EXPECT_TRUE(row.Run().ok());
  ValidGemm activation;  // B an activation with a zero point (C's scale then uses B's one scale)
  activation.b_constant = false;
  activation.bq = PerTensor(0.02f, -9);
  EXPECT_TRUE(activation.Run().ok());
  ValidGemm agreeing;  // C's QuantInfo agrees with alpha x scale_A x scale_B
  agreeing.attrs.SetFloat("alpha", 0.5f);
  agreeing.cq = PerAxis({0.0005f, 0.001f, 0.0015f, 0.002f}, 0);
  EXPECT_TRUE(agreeing.Run().ok());
}

TEST(GemmInt8, RejectsBadModels) {
  struct Bad {
    const char* what;
    void (*mutate)(ValidGemm*);
  };
  const std::vector<Bad> cases = {
      {"A without quant params", [](ValidGemm* g) { g->aq = QuantInfo(); }},
      {"output without quant params", [](ValidGemm* g) { g->yq = QuantInfo(); }},
      {"per-axis A", [](ValidGemm* g) { g->aq = PerAxis({0.1f, 0.1f}, 0); }},
      {"B without quant params", [](ValidGemm* g) { g->bq = QuantInfo(); }},
      {"asymmetric B", [](ValidGemm* g) { g->bq = PerTensor(0.01f, 1); }},
      {"B quantized along K", [](ValidGemm* g) { g->bq = PerAxis({0.01f, 0.01f, 0.01f}, 0); }},
      {"activation B per column", [](ValidGemm* g) { g->b_constant = false; }},
      {"activation B without quant params", [](ValidGemm* g) {
         g->b_constant = false;
         g->bq = QuantInfo();
       }},
      {"int8 A, float B", [](ValidGemm* g) { g->b_type = DataType::kFloat32; }},
      {"float A, int8 B", [](ValidGemm* g) {
         g->a_type = DataType::kFloat32;
         g->c_type = DataType::kFloat32;
       }},
      {"float C", [](ValidGemm* g) { g->c_type = DataType::kFloat32; }},
      {"int8 C", [](ValidGemm* g) { g->c_type = DataType::kInt8; }},
      {"C [M, N]", [](ValidGemm* g) { g->c_shape = {2, 4}; }},
      {"C [M, 1]", [](ValidGemm* g) { g->c_shape = {2, 1}; }},
      {"C of length 1", [](ValidGemm* g) { g->c_shape = {1}; }},
      {"beta 0.5", [](ValidGemm* g) { g->attrs.SetFloat("beta", 0.5f); }},
      {"beta 0", [](ValidGemm* g) { g->attrs.SetFloat("beta", 0.0f); }},
      {"infinite alpha", [](ValidGemm* g) { g->attrs.SetFloat("alpha", std::numeric_limits<float>::infinity()); }},
      {"C scale without alpha", [](ValidGemm* g) {
         g->attrs.SetFloat("alpha", 0.5f);
         g->cq = PerAxis({0.001f, 0.002f, 0.003f, 0.004f}, 0);
       }},
      {"C zero point", [](ValidGemm* g) {
         g->cq = PerAxis({0.001f, 0.002f, 0.003f, 0.004f}, 0);
         g->cq.zero_point = {0, 0, 2, 0};
       }},
      {"C can overflow the accumulator", [](ValidGemm* g) { g->bias0 = std::numeric_limits<int32_t>::max() - 100; }},
  };
  for (const Bad& b : cases) {
    ValidGemm g;
    b.mutate(&g);
    const Status status = g.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
}

TEST(GemmInt8, CMessageNamesTheRequirement) {
  ValidGemm g;
  g.c_shape = {2, 4};
  const Status status = g.Run();
  EXPECT_NE(status.message().find("int8 Gemm needs C as an int32 bias of length N"), std::string::npos)
      << status.message();
}

TEST(GemmInt8, PerColumnAxisFollowsTransB) {
  // Square B [3, 3]: with transB = 1 the output columns are axis 0, so scales along axis 1 are along K.
  for (int trans_b = 0; trans_b <= 1; ++trans_b) {
    for (int axis = 0; axis <= 1; ++axis) {
      OpRunner op("Gemm");
      op.attrs().SetInt("transB", trans_b);
      op.AddInput<int8_t>({1, 3}, {1, 2, 3}, DataType::kInt8);
      op.SetInputQuant(0, PerTensor(0.1f));
      op.AddInput<int8_t>({3, 3}, std::vector<int8_t>(9, 1), DataType::kInt8, true);
      op.SetInputQuant(1, PerAxis({0.1f, 0.2f, 0.3f}, axis));
      op.SetOutputQuant(0, PerTensor(0.1f));
      const bool columns = axis == (trans_b == 1 ? 0 : 1);
      EXPECT_EQ(op.Run().ok(), columns) << "transB " << trans_b << " axis " << axis;
    }
  }
}

// ================================================================ MatMul

TEST(MatMulInt8, ActivationTimesActivationWithZeroPoints) {
  OpRunner op("MatMul");
  // A (scale 0.5, zero point 2): [[2 4] [6 8]] -> A - zp = [[0 2] [4 6]].
  op.AddInput<int8_t>({2, 2}, {2, 4, 6, 8}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(0.5f, 2));
  // B, an activation (scale 0.25, zero point 1): [[1 3] [5 -1]] -> B - zp = [[0 2] [4 -2]].
  op.AddInput<int8_t>({2, 2}, {1, 3, 5, -1}, DataType::kInt8);
  op.SetInputQuant(1, PerTensor(0.25f, 1));
  op.SetOutputQuant(0, PerTensor(0.25f, 10));
  ASSERT_TRUE(op.Run().ok());
  // acc = [[0*0 + 2*4, 0*2 + 2*-2] [4*0 + 6*4, 4*2 + 6*-2]] = [[8 -4] [24 -4]];
  // x 0.5 x 0.25 = [[1 -0.5] [3 -0.5]]; / 0.25 + 10 = [[14 8] [22 8]].
  EXPECT_EQ(op.output().dtype, DataType::kInt8);
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{14, 8, 22, 8}));
}

TEST(MatMulInt8, BatchedTimesPerColumnWeight) {
  OpRunner op("MatMul");
  // A [2, 1, 2] (scale 1, zero point 0): [[1 2]], [[3 4]].
  op.AddInput<int8_t>({2, 1, 2}, {1, 2, 3, 4}, DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f));
  // Constant B [2, 2] = identity, per column scales 1 and 0.5, shared by both batches.
  op.AddInput<int8_t>({2, 2}, {1, 0, 0, 1}, DataType::kInt8, true);
  op.SetInputQuant(1, PerAxis({1.0f, 0.5f}, 1));
  op.SetOutputQuant(0, PerTensor(0.5f, 0));
  ASSERT_TRUE(op.Run().ok());
  // Batch 0: [1, 2 x 0.5] = [1 1] -> [2 2]; batch 1: [3, 2] -> [6 4].
  EXPECT_EQ(op.OutputShape(), (Shape{2, 1, 2}));
  EXPECT_EQ(op.OutputValues<int8_t>(), (std::vector<int8_t>{2, 2, 6, 4}));
}

struct MatMulCase {
  Shape as, bs;
  std::vector<int8_t> a, b;
  QuantInfo aq, bq;
  bool b_constant = true;
  std::string text;
};

MatMulCase RandomMatMulCase(std::mt19937& rng) {
  MatMulCase c;
  const int64_t m = Uniform(rng, 1, 9), n = Uniform(rng, 1, 17), k = Uniform(rng, 1, 33);
  // Batch dims of the output, each operand taking a suffix of them with some dims 1 (broadcast).
  Shape batch;
  for (int i = Uniform(rng, 0, 2); i > 0; --i) batch.push_back(Uniform(rng, 1, 3));
  auto operand_batch = [&]() {
    Shape s(batch.begin() + Uniform(rng, 0, static_cast<int>(batch.size())), batch.end());
    for (int64_t& d : s) {
      if (Uniform(rng, 0, 2) == 0) d = 1;
    }
    return s;
  };
  c.as = operand_batch();
  c.bs = operand_batch();
  const bool a_vector = c.as.empty() && Uniform(rng, 0, 4) == 0;
  const bool b_vector = c.bs.empty() && Uniform(rng, 0, 4) == 0;
  if (!a_vector) c.as.push_back(m);
  c.as.push_back(k);
  c.bs.push_back(k);
  if (!b_vector) c.bs.push_back(n);
  c.a = RandomInt8(rng, NumElements(c.as));
  c.aq = PerTensor(0.001f * Uniform(rng, 10, 100), RandomZeroPoint(rng));
  c.b = RandomInt8(rng, NumElements(c.bs));
  c.text = "A " + ShapeToString(c.as) + " B " + ShapeToString(c.bs) + " zp_a " + std::to_string(c.aq.zero_point[0]);
  const int b_mode = Uniform(rng, 0, 2);  // constant per tensor, constant per column, activation
  if (b_mode == 0 || (b_mode == 1 && b_vector)) {
    c.bq = PerTensor(0.001f * Uniform(rng, 2, 20));
    c.text += " weight per-tensor";
  } else if (b_mode == 1) {
    std::vector<float> scales(static_cast<size_t>(n));
    for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
    c.bq = PerAxis(scales, static_cast<int>(c.bs.size()) - 1);
    c.text += " weight per-column";
  } else {
    c.bq = PerTensor(0.001f * Uniform(rng, 10, 100), RandomZeroPoint(rng));
    c.b_constant = false;
    c.text += " activation zp_b " + std::to_string(c.bq.zero_point[0]);
  }
  return c;
}

// The int8 MatMul against the float oracle, output parameters fitted to the oracle's range.
void CheckMatMul(const MatMulCase& c, std::mt19937& rng, MatchCount* count) {
  OpRunner oracle("MatMul");
  oracle.AddFloatInput(c.as, Dequantize(c.as, c.a, c.aq));
  oracle.AddFloatInput(c.bs, Dequantize(c.bs, c.b, c.bq), c.b_constant);
  ASSERT_TRUE(oracle.Run().ok()) << c.text;
  const std::vector<float> real = oracle.FloatOutput();
  const QuantInfo yq = OutputQuantFor(real, rng);
  OpRunner op("MatMul");
  op.AddInput<int8_t>(c.as, c.a, DataType::kInt8);
  op.SetInputQuant(0, c.aq);
  op.AddInput<int8_t>(c.bs, c.b, DataType::kInt8, c.b_constant);
  op.SetInputQuant(1, c.bq);
  op.SetOutputQuant(0, yq);
  const Status status = op.Run();
  ASSERT_TRUE(status.ok()) << c.text << ": " << status.message();
  ASSERT_EQ(op.OutputShape(), oracle.OutputShape()) << c.text;
  ExpectWithinOneStep(op.OutputValues<int8_t>(), real, yq, c.text, count);
}

TEST(MatMulInt8, MatchesFloatOracleOnRandomCases) {
  std::mt19937 rng(31337);
  MatchCount count;
  for (int cases = 0; cases < 1000 && !::testing::Test::HasFailure(); ++cases) {
    CheckMatMul(RandomMatMulCase(rng), rng, &count);
  }
  ExpectMostlyExact(count);
  EXPECT_GT(count.total, 40000);
}

TEST(MatMulInt8, WideRowsCrossAccumulatorBlocks) {
  // N = 520 columns (more than the kernel's 256-column block), batched, B a weight then an activation.
  std::mt19937 rng(9);
  MatchCount count;
  for (int activation = 0; activation <= 1; ++activation) {
    MatMulCase c;
    c.as = {2, 3, 29};
    c.bs = {29, 520};
    c.a = RandomInt8(rng, NumElements(c.as));
    c.aq = PerTensor(0.03f, -128);
    c.b = RandomInt8(rng, NumElements(c.bs));
    if (activation) {
      c.bq = PerTensor(0.02f, 127);
      c.b_constant = false;
    } else {
      std::vector<float> scales(520);
      for (float& s : scales) s = 0.001f * Uniform(rng, 2, 20);
      c.bq = PerAxis(scales, 1);
    }
    c.text = activation ? "wide activation B" : "wide weight B";
    CheckMatMul(c, rng, &count);
  }
  ExpectMostlyExact(count);
}

// A valid int8 MatMul: A [2, 3] times B [3, 4].
struct ValidMatMul {
  DataType a_type = DataType::kInt8, b_type = DataType::kInt8;
  bool b_constant = true;
  Shape bs{3, 4};
  QuantInfo aq = PerTensor(0.1f, 5);
  QuantInfo bq = PerAxis({0.01f, 0.02f, 0.03f, 0.04f}, 1);
  QuantInfo yq = PerTensor(0.2f, 0);

  Status Run() const {
    OpRunner op("MatMul");
    if (a_type == DataType::kInt8) {
      op.AddInput<int8_t>({2, 3}, std::vector<int8_t>(6, 9), a_type);
    } else {
      op.AddFloatInput({2, 3}, std::vector<float>(6, 1.0f));
    }
    op.SetInputQuant(0, aq);
    const size_t count = static_cast<size_t>(NumElements(bs));
    if (b_type == DataType::kInt8) {
      op.AddInput<int8_t>(bs, std::vector<int8_t>(count, 3), b_type, b_constant);
    } else {
      op.AddFloatInput(bs, std::vector<float>(count, 1.0f), b_constant);
    }
    op.SetInputQuant(1, bq);
    op.SetOutputQuant(0, yq);
    return op.Run();
  }
};

TEST(MatMulInt8, ValidCasesRun) {
  EXPECT_TRUE(ValidMatMul().Run().ok());
  ValidMatMul activation;  // B an activation with a zero point
  activation.b_constant = false;
  activation.bq = PerTensor(0.05f, -7);
  EXPECT_TRUE(activation.Run().ok());
}

TEST(MatMulInt8, RejectsBadModels) {
  struct Bad {
    const char* what;
    void (*mutate)(ValidMatMul*);
  };
  const std::vector<Bad> cases = {
      {"A without quant params", [](ValidMatMul* m) { m->aq = QuantInfo(); }},
      {"output without quant params", [](ValidMatMul* m) { m->yq = QuantInfo(); }},
      {"per-axis A", [](ValidMatMul* m) { m->aq = PerAxis({0.1f, 0.1f}, 0); }},
      {"per-axis output", [](ValidMatMul* m) { m->yq = PerAxis({0.1f, 0.1f}, 0); }},
      {"weight B without quant params", [](ValidMatMul* m) { m->bq = QuantInfo(); }},
      {"asymmetric weight B", [](ValidMatMul* m) { m->bq = PerTensor(0.01f, 4); }},
      {"weight B quantized along K", [](ValidMatMul* m) { m->bq = PerAxis({0.01f, 0.01f, 0.01f}, 0); }},
      {"1-D weight B quantized along K", [](ValidMatMul* m) {
         m->bs = {3};
         m->bq = PerAxis({0.01f, 0.01f, 0.01f}, 0);
       }},
      {"activation B per column", [](ValidMatMul* m) { m->b_constant = false; }},
      {"activation B without quant params", [](ValidMatMul* m) {
         m->b_constant = false;
         m->bq = QuantInfo();
       }},
      {"int8 A, float B", [](ValidMatMul* m) { m->b_type = DataType::kFloat32; }},
      {"float A, int8 B", [](ValidMatMul* m) { m->a_type = DataType::kFloat32; }},
  };
  for (const Bad& b : cases) {
    ValidMatMul m;
    b.mutate(&m);
    const Status status = m.Run();
    EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << b.what << ": " << status.message();
  }
}

TEST(MatMulInt8, RejectsAccumulatorsThatCanOverflowInt32) {
  // Two activations with K = 34000: 34000 x 255 x 255 = 2.21e9 > 2^31 - 1.
  OpRunner op("MatMul");
  op.AddInput<int8_t>({1, 34000}, std::vector<int8_t>(34000, 0), DataType::kInt8);
  op.SetInputQuant(0, PerTensor(1.0f, -128));
  op.AddInput<int8_t>({34000, 1}, std::vector<int8_t>(34000, 0), DataType::kInt8);
  op.SetInputQuant(1, PerTensor(1.0f, 127));
  op.SetOutputQuant(0, PerTensor(1.0f));
  const Status status = op.Run();
  EXPECT_EQ(status.code(), StatusCode::kModelInvalid) << status.message();

  // K = 33000 with zero points 0: 33000 x 128 x 128 = 5.4e8 fits.
  OpRunner fits("MatMul");
  fits.AddInput<int8_t>({1, 33000}, std::vector<int8_t>(33000, -128), DataType::kInt8);
  fits.SetInputQuant(0, PerTensor(1.0f));
  fits.AddInput<int8_t>({33000, 1}, std::vector<int8_t>(33000, -128), DataType::kInt8);
  fits.SetInputQuant(1, PerTensor(1.0f));
  fits.SetOutputQuant(0, PerTensor(1e7f));
  ASSERT_TRUE(fits.Run().ok());
  // 33000 x 16384 = 540672000 -> / 1e7 = 54.07 -> 54.
  EXPECT_EQ(fits.OutputValues<int8_t>(), (std::vector<int8_t>{54}));
}

}  // namespace
}  // namespace npurt
