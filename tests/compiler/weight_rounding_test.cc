// GPTQ weight rounding (compiler/quant/weight_rounding.h): hand-computed
// roundings, the input moments of Conv windows / Gemm / MatMul rows against
// an im2col oracle written here from the ONNX definitions, and the quantizer
// taking the GPTQ codes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "compiler/emit/emitter.h"
#include "compiler/passes/graph_utils.h"
#include "compiler/quant/calibrator.h"
#include "compiler/quant/dataset.h"
#include "compiler/quant/quantize_graph.h"
#include "compiler/quant/weight_rounding.h"
#include "runtime/kernels/ref/quantize.h"
#include "tests/common/temp_files.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace compiler {
namespace {

using testing::TempDir;
using testing::WriteNpyFloats;

RoundingSystem OneGroup(const std::vector<double>& moments, int64_t taps) {
  RoundingSystem s;
  s.groups = 1;
  s.taps = taps;
  s.order.resize(1);
  s.factor.resize(1);
  EXPECT_TRUE(FactorRoundingSystem(moments, taps, &s.order[0], &s.factor[0]));
  return s;
}

std::vector<int8_t> Round(const RoundingSystem& s, const std::vector<float>& w, float scale) {
  std::vector<int8_t> codes(w.size());
  RoundChannel(s, 0, w.data(), scale, codes.data());
  return codes;
}

std::vector<int8_t> Nearest(const std::vector<float>& w, float scale) {
  std::vector<int8_t> codes;
  for (float v : w) codes.push_back(static_cast<int8_t>(QuantizeValue(v, scale, 0, -127, 127)));
  return codes;
}

TEST(WeightRounding, UncorrelatedInputsRoundToNearestInActOrder) {
  const RoundingSystem s = OneGroup({4, 0, 0, 0, 1, 0, 0, 0, 9}, 3);
  EXPECT_EQ(s.order[0], (std::vector<int32_t>{2, 0, 1}));  // decreasing second moment
  const std::vector<float> w = {0.26f, -0.74f, 1.49f};
  EXPECT_EQ(Round(s, w, 0.5f), (std::vector<int8_t>{1, -1, 3}));
  EXPECT_EQ(Round(s, w, 0.5f), Nearest(w, 0.5f));
}

// x0 == x1 always: H = [[1, 1], [1, 1]], damped by 1 % of the mean diagonal: [[1.01, 1], [1, 1.01]].
// H^-1 = [[1.01, -1], [-1, 1.01]] / 0.0201; its upper Cholesky factor U: U00 = sqrt(1.01 / 0.0201) = 7.0888,
// U01 = (-1 / 0.0201) / U00 = -7.0183. Rounding w0 = 0.4 to 0 leaves e = 0.4 / U00 = 0.05643, and
// w1 = 0.4 - e * U01 = 0.796 rounds to 1: the output (w0 + w1) x is 1.0 x instead of 0.8 x (nearest: 0).
TEST(WeightRounding, CorrelatedInputsTakeTheRoundingErrorOnTheOtherWeight) {
  const RoundingSystem s = OneGroup({1, 1, 1, 1}, 2);
  EXPECT_EQ(s.order[0], (std::vector<int32_t>{0, 1}));
  EXPECT_NEAR(s.factor[0][0], 7.0888, 1e-3);
  EXPECT_NEAR(s.factor[0][1], -7.0183, 1e-3);
  EXPECT_EQ(s.factor[0][2], 0.0);  // upper triangular
  EXPECT_EQ(Round(s, {0.4f, 0.4f}, 1.0f), (std::vector<int8_t>{0, 1}));
  EXPECT_EQ(Nearest({0.4f, 0.4f}, 1.0f), (std::vector<int8_t>{0, 0}));
  // Codes stay in [-127, 127] whatever the moved errors.
  EXPECT_EQ(Round(s, {127.4f, 127.4f}, 1.0f), (std::vector<int8_t>{127, 127}));
}

TEST(WeightRounding, MomentsThatCannotBeFactoredRoundToNearest) {
  std::vector<int32_t> order = {7};
  std::vector<double> factor = {1.0};
  EXPECT_FALSE(FactorRoundingSystem({0, 0, 0, 0}, 2, &order, &factor));  // no input energy
  EXPECT_TRUE(order.empty());
  EXPECT_TRUE(factor.empty());
  EXPECT_FALSE(FactorRoundingSystem({1, 0, 0}, 2, &order, &factor));  // wrong size
  EXPECT_FALSE(FactorRoundingSystem({NAN, 0, 0, 1}, 2, &order, &factor));
  RoundingSystem s;
  s.groups = 1;
  s.taps = 2;
  s.order.resize(1);
  s.factor.resize(1);
  EXPECT_EQ(Round(s, {0.4f, -2.6f}, 1.0f), (std::vector<int8_t>{0, -3}));
}

// Strongly correlated inputs (x = z A): over many channels GPTQ's output error is well below nearest rounding's.
TEST(WeightRounding, ReducesTheOutputErrorOnCorrelatedInputs) {
  constexpr int kTaps = 16, kRows = 512, kChannels = 32;
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> mix(kTaps * kTaps), x(kRows * kTaps, 0.0f);
  for (float& v : mix) v = normal(rng);
  for (int r = 0; r < kRows; ++r) {
    float z[kTaps];
    for (float& v : z) v = normal(rng);
    for (int i = 0; i < kTaps; ++i) {
      for (int k = 0; k < 4; ++k) x[r * kTaps + i] += z[k] * mix[k * kTaps + i];  // rank 4 + noise
      x[r * kTaps + i] += 0.05f * z[4 + i % 8];
    }
  }
  std::vector<double> h(kTaps * kTaps, 0.0);
  for (int r = 0; r < kRows; ++r) {
    for (int i = 0; i < kTaps; ++i) {
      for (int j = 0; j < kTaps; ++j) h[i * kTaps + j] += x[r * kTaps + i] * x[r * kTaps + j];
    }
  }
  const RoundingSystem s = OneGroup(h, kTaps);
  double gptq_error = 0.0, nearest_error = 0.0;
  for (int c = 0; c < kChannels; ++c) {
    std::vector<float> w(kTaps);
    float max_abs = 0.0f;
    for (float& v : w) max_abs = std::max(max_abs, std::fabs(v = normal(rng)));
    const float scale = max_abs / 127.0f;
    const std::vector<int8_t> g = Round(s, w, scale), n = Nearest(w, scale);
    for (int r = 0; r < kRows; ++r) {
      double eg = 0.0, en = 0.0;
      for (int i = 0; i < kTaps; ++i) {
        eg += (w[i] - g[i] * scale) * x[r * kTaps + i];
        en += (w[i] - n[i] * scale) * x[r * kTaps + i];
      }
      gptq_error += eg * eg;
      nearest_error += en * en;
    }
  }
  EXPECT_LT(gptq_error, 0.5 * nearest_error) << "gptq " << gptq_error << " nearest " << nearest_error;
}

// ---- moments of the float model's inputs ----

std::vector<DatasetSample> NpySamples(const TempDir& dir, const Shape& shape, const std::vector<std::vector<float>>& data) {
  std::string list;
  for (size_t k = 0; k < data.size(); ++k) {
    const std::string name = "s" + std::to_string(k) + ".npy";
    WriteNpyFloats(dir / name, shape, data[k]);
    list += name + "\n";
  }
  FILE* f = std::fopen((dir / "ds.txt").c_str(), "w");
  EXPECT_NE(f, nullptr);
  if (f != nullptr) {
    std::fputs(list.c_str(), f);
    std::fclose(f);
  }
  std::vector<DatasetSample> samples;
  EXPECT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  return samples;
}

std::vector<float> Uniform(size_t n, std::mt19937* rng) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(*rng);
  return v;
}

void ExpectMoments(const InputMoments& got, const std::vector<double>& want, uint64_t rows) {
  EXPECT_EQ(got.rows, rows);
  ASSERT_EQ(got.sums.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got.sums[i], want[i], 1e-4 * (1.0 + std::fabs(want[i]))) << i;
}

// Conv x [1, 4, 7, 6], 2 groups, kernel 3 x 2, strides (2, 1), dilations (1, 2), pads (1, 0, 2, 1): output
// 4 x 5 (H: (7 + 3 - 3) / 2 + 1, W: (6 + 1 - 3) / 1 + 1); each group's taps are (channel in group, kh, kw).
TEST(WeightRounding, ConvWindowMomentsMatchAnIm2colOracle) {
  const int64_t C = 4, H = 7, W = 6, G = 2, KH = 3, KW = 2, SH = 2, SW = 1, DH = 1, DW = 2, PT = 1, PL = 0;
  const int64_t OH = 4, OW = 5, CG = C / G, K = CG * KH * KW;
  std::mt19937 rng(3);
  Graph g;
  const int x = g.AddTensor("x", {1, C, H, W}, DataType::kFloat32);
  g.AddInput(x);
  Attributes a;
  a.SetInt("group", G);
  a.SetInts("strides", {SH, SW});
  a.SetInts("dilations", {DH, DW});
  a.SetInts("pads", {PT, PL, 2, 1});
  const std::vector<float> wv = Uniform(static_cast<size_t>(3 * CG * KH * KW * 2), &rng);
  const int y = g.AddNode("Conv", {x, g.AddFloatConstant("w", {6, CG, KH, KW}, wv)}, a, 1, "conv");
  g.AddOutput(y);
  ASSERT_TRUE(g.InferShapes().ok());
  ASSERT_EQ(g.tensors()[y].shape, (Shape{1, 6, OH, OW}));
  const std::vector<std::vector<float>> data = {Uniform(C * H * W, &rng), Uniform(C * H * W, &rng)};
  TempDir dir;
  std::map<std::string, InputMoments> moments;
  const Status s = CollectInputMoments(testing::EmitOrDie(g), NpySamples(dir, {1, C, H, W}, data), &moments);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(moments.count("conv"), 1u);
  const InputMoments& m = moments.at("conv");
  EXPECT_EQ(m.groups, G);
  EXPECT_EQ(m.taps, K);

  std::vector<double> want(static_cast<size_t>(G * K * K), 0.0);
  for (const std::vector<float>& sample : data) {
    for (int64_t oh = 0; oh < OH; ++oh) {
      for (int64_t ow = 0; ow < OW; ++ow) {
        for (int64_t grp = 0; grp < G; ++grp) {
          std::vector<double> patch;
          for (int64_t ci = 0; ci < CG; ++ci) {
            for (int64_t kh = 0; kh < KH; ++kh) {
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t ih = oh * SH - PT + kh * DH, iw = ow * SW - PL + kw * DW;
                const bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
                patch.push_back(inside ? sample[static_cast<size_t>(((grp * CG + ci) * H + ih) * W + iw)] : 0.0);
              }
            }
          }
          for (int64_t i = 0; i < K; ++i) {
            for (int64_t j = 0; j < K; ++j) want[static_cast<size_t>((grp * K + i) * K + j)] += patch[i] * patch[j];
          }
        }
      }
    }
  }
  ExpectMoments(m, want, 2 * OH * OW);
}

// ConvTranspose x [1, 2, 3, 3] -> [1, 3, oh, ow] with kernel 3 x 2, strides (2, 1), dilations (1, 2), pads
// (1, 0, 0, 1). The oracle scatters, as ONNX defines the op: input pixel i with tap k lands on output
// o = i * stride + k * dilation - pad; each output position's vector holds the inputs that land on it.
TEST(WeightRounding, ConvTransposeMomentsMatchTheScatteredTaps) {
  const int64_t C = 2, H = 3, W = 3, KH = 3, KW = 2, SH = 2, SW = 1, DH = 1, DW = 2, PT = 1, PL = 0, K = C * KH * KW;
  std::mt19937 rng(6);
  Graph g;
  const int x = g.AddTensor("x", {1, C, H, W}, DataType::kFloat32);
  g.AddInput(x);
  Attributes a;
  a.SetInts("strides", {SH, SW});
  a.SetInts("dilations", {DH, DW});
  a.SetInts("pads", {PT, PL, 0, 1});
  const int y = g.AddNode("ConvTranspose", {x, g.AddFloatConstant("w", {C, 3, KH, KW}, Uniform(C * 3 * KH * KW, &rng))},
                          a, 1, "convt");
  g.AddOutput(y);
  ASSERT_TRUE(g.InferShapes().ok());
  const int64_t OH = g.tensors()[y].shape[2], OW = g.tensors()[y].shape[3];
  const std::vector<std::vector<float>> data = {Uniform(C * H * W, &rng)};
  TempDir dir;
  std::map<std::string, InputMoments> moments;
  const Status s = CollectInputMoments(testing::EmitOrDie(g), NpySamples(dir, {1, C, H, W}, data), &moments);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(moments.count("convt"), 1u);
  EXPECT_EQ(moments.at("convt").taps, K);

  std::vector<std::vector<double>> vectors(static_cast<size_t>(OH * OW), std::vector<double>(K, 0.0));
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t ih = 0; ih < H; ++ih) {
      for (int64_t iw = 0; iw < W; ++iw) {
        for (int64_t kh = 0; kh < KH; ++kh) {
          for (int64_t kw = 0; kw < KW; ++kw) {
            const int64_t oh = ih * SH + kh * DH - PT, ow = iw * SW + kw * DW - PL;
            if (oh < 0 || oh >= OH || ow < 0 || ow >= OW) continue;
            vectors[static_cast<size_t>(oh * OW + ow)][static_cast<size_t>((c * KH + kh) * KW + kw)] =
                data[0][static_cast<size_t>((c * H + ih) * W + iw)];
          }
        }
      }
    }
  }
  std::vector<double> want(K * K, 0.0);
  for (const std::vector<double>& v : vectors) {
    for (int64_t i = 0; i < K; ++i) {
      for (int64_t j = 0; j < K; ++j) want[static_cast<size_t>(i * K + j)] += v[i] * v[j];
    }
  }
  ExpectMoments(moments.at("convt"), want, static_cast<uint64_t>(OH * OW));
}

// Gemm with transA (x [K = 3, rows = 4]), then a MatMul on its output reshaped to rank 3 ([2, 2, 3]: 4 rows of 3).
TEST(WeightRounding, MatrixProductRowMomentsMatchTheirRows) {
  std::mt19937 rng(4);
  Graph g;
  const int x = g.AddTensor("x", {3, 4}, DataType::kFloat32);
  g.AddInput(x);
  Attributes trans;
  trans.SetInt("transA", 1);
  const std::vector<float> b = Uniform(9, &rng);
  const int y = g.AddNode("Gemm", {x, g.AddFloatConstant("b", {3, 3}, b)}, trans, 1, "gemm");  // [4, 3]
  const int r = g.AddNode("Reshape", {y, g.AddConstant("shape", {3}, DataType::kInt64, std::vector<int64_t>{2, 2, 3})},
                          {}, 1, "reshape");
  const int z = g.AddNode("MatMul", {r, g.AddFloatConstant("m", {3, 2}, Uniform(6, &rng))}, {}, 1, "matmul");
  g.AddOutput(z);
  ASSERT_TRUE(g.InferShapes().ok());
  const std::vector<std::vector<float>> data = {Uniform(12, &rng)};
  TempDir dir;
  std::map<std::string, InputMoments> moments;
  const std::vector<uint8_t> model = testing::EmitOrDie(g);
  const Status s = CollectInputMoments(model, NpySamples(dir, {3, 4}, data), &moments);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(moments.count("gemm"), 1u);
  ASSERT_EQ(moments.count("matmul"), 1u);

  const std::vector<float>& a = data[0];
  std::vector<double> gemm(9, 0.0), matmul(9, 0.0);
  for (int row = 0; row < 4; ++row) {
    double y_row[3] = {0, 0, 0};  // Gemm output row: sum_k a[k][row] b[k][n]
    for (int n = 0; n < 3; ++n) {
      for (int k = 0; k < 3; ++k) y_row[n] += a[k * 4 + row] * b[k * 3 + n];
    }
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        gemm[i * 3 + j] += a[i * 4 + row] * a[j * 4 + row];
        matmul[i * 3 + j] += y_row[i] * y_row[j];
      }
    }
  }
  ExpectMoments(moments.at("gemm"), gemm, 4);
  ExpectMoments(moments.at("matmul"), matmul, 4);
}

// ---- the quantizer with GPTQ codes ----

// x [1, 3, side, side] with channels 1 and 2 equal -> 1x1 Conv with weights {1.27, 0.004, 0.004} (scale 0.01:
// codes {127, 0.4, 0.4}). Nearest rounding drops both small weights; GPTQ rounds channel 1's to 0 and moves
// its error onto channel 2 (the same input), as in CorrelatedInputsTakeTheRoundingErrorOnTheOtherWeight.
class ConvWithEqualChannels : public ::testing::Test {
 protected:
  Graph MakeGraph(int64_t side) const {
    Graph g;
    const int x = g.AddTensor("x", {1, 3, side, side}, DataType::kFloat32);
    g.AddInput(x);
    const int y = g.AddNode("Conv", {x, g.AddFloatConstant("w", {1, 3, 1, 1}, {1.27f, 0.004f, 0.004f})}, {}, 1, "conv");
    g.tensors()[y].name = "y";
    g.AddOutput(y);
    EXPECT_TRUE(g.InferShapes().ok());
    return g;
  }

  std::vector<DatasetSample> Samples(int count, int64_t side) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> wide(-1.0f, 1.0f), narrow(-0.5f, 0.5f);
    std::vector<std::vector<float>> data;
    const size_t plane = static_cast<size_t>(side * side);
    for (int k = 0; k < count; ++k) {
      std::vector<float> v(3 * plane);
      for (size_t i = 0; i < plane; ++i) {
        v[i] = wide(rng);
        v[plane + i] = v[2 * plane + i] = narrow(rng);
      }
      data.push_back(v);
    }
    return NpySamples(dir_, {1, 3, side, side}, data);
  }

  // The int8 codes of the quantized Conv's weight.
  std::vector<int8_t> QuantizedCodes(int samples_count, int64_t side, bool gptq) {
    const std::vector<DatasetSample> samples = Samples(samples_count, side);
    Graph g = MakeGraph(side);
    const std::vector<uint8_t> float_model = testing::EmitOrDie(g);
    CalibrationOptions calibration;
    calibration.progress = false;
    std::map<std::string, TensorStats> stats;
    EXPECT_TRUE(Calibrate(float_model, samples, calibration, &stats).ok());
    std::map<std::string, RoundingSystem> systems;
    EXPECT_TRUE(CollectRoundingSystems(float_model, samples, &systems).ok());
    QuantizeOptions options;
    if (gptq) options.rounding = &systems;
    const Status s = QuantizeGraph(stats, options, &g, &report_);
    EXPECT_TRUE(s.ok()) << s.message();
    for (const IrNode& n : g.nodes()) {
      if (n.op_type != "Conv") continue;
      const IrTensor& w = g.tensors()[n.inputs[1]];
      EXPECT_EQ(w.dtype, DataType::kInt8);
      EXPECT_FLOAT_EQ(w.quant.scale.at(0), 0.01f);
      return std::vector<int8_t>(reinterpret_cast<const int8_t*>(w.data.data()),
                                 reinterpret_cast<const int8_t*>(w.data.data()) + w.data.size());
    }
    ADD_FAILURE() << "no Conv";
    return {};
  }

  TempDir dir_;
  QuantizeReport report_;
};

static_assert(kMinRowsPerTap == 128, "the window counts below assume 128 windows per tap");

TEST_F(ConvWithEqualChannels, TheQuantizerTakesTheGptqCodes) {
  EXPECT_EQ(QuantizedCodes(2, 16, false), (std::vector<int8_t>{127, 0, 0}));
  EXPECT_EQ(report_.gptq_nodes, 0);
  EXPECT_EQ(QuantizedCodes(2, 16, true), (std::vector<int8_t>{127, 0, 1}));  // 512 windows >= 128 * 3 taps
  EXPECT_EQ(report_.gptq_nodes, 1);
  EXPECT_EQ(report_.weight_nodes, 1);
}

TEST_F(ConvWithEqualChannels, TooFewWindowsPerTapKeepNearestRounding) {
  EXPECT_EQ(QuantizedCodes(2, 8, true), (std::vector<int8_t>{127, 0, 0}));  // 128 windows < 128 * 3 taps
  EXPECT_EQ(report_.gptq_nodes, 0);
}

TEST(WeightRounding, ErrorsNameTheSample) {
  TempDir dir;
  Graph g;
  const int x = g.AddTensor("x", {1, 2}, DataType::kFloat32);
  g.AddInput(x);
  const int y = g.AddNode("Gemm", {x, g.AddFloatConstant("b", {2, 2}, {1, 0, 0, 1})}, {}, 1, "gemm");
  g.AddOutput(y);
  ASSERT_TRUE(g.InferShapes().ok());
  std::vector<DatasetSample> samples = NpySamples(dir, {1, 3}, {{1, 2, 3}});  // 3 values for 2
  std::map<std::string, RoundingSystem> systems;
  const Status s = CollectRoundingSystems(testing::EmitOrDie(g), samples, &systems);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_NE(s.message().find("ds.txt:1"), std::string::npos) << s.message();
  const Status corrupt = CollectRoundingSystems({1, 2, 3}, samples, &systems);  // not a model
  EXPECT_EQ(corrupt.code(), StatusCode::kModelInvalid);
  EXPECT_NE(corrupt.message().find("weight rounding: cannot load the float model: "), std::string::npos)
      << corrupt.message();
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
