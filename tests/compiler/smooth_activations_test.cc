// Activation smoothing (compiler/quant/smooth_activations.h): the rewrite is
// exact (the float model computes the same outputs), divides each smoothed
// channel by the hand-computed s_k = sqrt(max|X_k| / max|W_k|) and leaves
// alone the tensors it cannot rewrite exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "compiler/emit/emitter.h"
#include "compiler/passes/graph_utils.h"
#include "compiler/quant/smooth_activations.h"
#include "tests/common/run_model.h"

namespace npurt {
namespace compiler {
namespace {

std::vector<float> Random(std::mt19937* rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(*rng);
  return v;
}

int Smooth(const std::map<std::string, TensorStats>& stats, Graph* g) {
  int count = -1;
  const Status s = SmoothActivations(stats, g, &count);
  EXPECT_TRUE(s.ok()) << s.message();
  return count;
}

// x[1,2,5,5] -> conv0 (2->3, Relu) -> t0 -> Mul(t0, a) -> Add(., b) -> t1 -> conv1 3x3 pad 1 -> y.
// t0 is read by the Mul only (not a Conv): not smoothed. t1 is written by the affine pair and read by
// conv1 alone: smoothed. With `extra_reader`, t1 is also a graph output: left alone.
Graph AffineThenConv(bool extra_reader) {
  std::mt19937 rng(5);
  Graph g;
  const int x = g.AddTensor("x", {1, 2, 5, 5}, DataType::kFloat32);
  g.AddInput(x);
  Attributes relu;
  relu.SetString("activation", "Relu");
  const int t0 = g.AddNode("Conv",
                           {x, g.AddFloatConstant("w0", {3, 2, 1, 1}, Random(&rng, 6, -1.0f, 1.0f)),
                            g.AddFloatConstant("b0", {3}, {0.1f, 0.2f, 0.3f})},
                           relu, 1, "conv0");
  const int m = g.AddNode("Mul", {t0, g.AddFloatConstant("a", {1, 3, 1, 1}, {4.0f, 0.5f, 1.0f})}, {}, 1, "mul");
  const int t1 = g.AddNode("Add", {g.AddFloatConstant("b", {}, {0.25f}), m}, {}, 1, "add");  // constant first
  g.tensors()[t1].name = "t1";
  Attributes pads;
  pads.SetInts("pads", {1, 1, 1, 1});
  const int y = g.AddNode("Conv", {t1, g.AddFloatConstant("w1", {2, 3, 3, 3}, Random(&rng, 54, -0.5f, 0.5f))}, pads,
                          1, "conv1");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  if (extra_reader) g.AddOutput(t1);
  EXPECT_TRUE(g.InferShapes().ok());
  return g;
}

std::vector<float> WeightColumnMax(const Graph& g, const std::string& conv) {
  for (const IrNode& n : g.nodes()) {
    if (n.name != conv) continue;
    std::vector<float> w;
    EXPECT_TRUE(ReadConstantFloats(g, n.inputs[1], &w));
    const Shape& s = g.tensors()[n.inputs[1]].shape;
    std::vector<float> m(static_cast<size_t>(s[1]), 0.0f);
    const int64_t taps = s[2] * s[3];
    for (size_t i = 0; i < w.size(); ++i) {
      float& v = m[static_cast<size_t>((static_cast<int64_t>(i) / taps) % s[1])];
      v = std::max(v, std::fabs(w[i]));
    }
    return m;
  }
  ADD_FAILURE() << "no node " << conv;
  return {};
}

TEST(SmoothActivations, AffinePairIsRescaledExactlyWithHandComputedFactors) {
  Graph g = AffineThenConv(false);
  const std::vector<float> w_max = WeightColumnMax(g, "conv1");
  std::map<std::string, TensorStats> stats;
  stats["t1"].channel_absmax = {16.0f, 0.25f, 0.0f};  // loud, quiet, and never seen (s = 1)
  std::vector<uint8_t> before, after;
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &before).ok());
  EXPECT_EQ(Smooth(stats, &g), 1);
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &after).ok());

  // s_k = sqrt(max|X_k| / max|W_k|): conv1's input channel k is multiplied by s_k.
  const std::vector<float> w_after = WeightColumnMax(g, "conv1");
  const float s0 = std::sqrt(16.0f / w_max[0]), s1 = std::sqrt(0.25f / w_max[1]);
  EXPECT_NEAR(w_after[0], w_max[0] * s0, 1e-5f * w_after[0]);
  EXPECT_NEAR(w_after[1], w_max[1] * s1, 1e-5f * w_after[1]);
  EXPECT_FLOAT_EQ(w_after[2], w_max[2]);

  // Same function: the float model before and after agree on random inputs.
  std::mt19937 rng(9);
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<float> x = Random(&rng, 50, -2.0f, 2.0f);
    const auto want = testing::RunModelFile(before, {x});
    const auto got = testing::RunModelFile(after, {x});
    ASSERT_EQ(want.size(), 1u);
    ASSERT_EQ(got.size(), 1u);
    for (size_t i = 0; i < want[0].size(); ++i) EXPECT_NEAR(got[0][i], want[0][i], 1e-4f * (1.0f + std::fabs(want[0][i])));
  }
}

TEST(SmoothActivations, ConvWithReluProducerAbsorbsTheFactors) {
  // t0 is read by the Mul in AffineThenConv; here conv0 (Relu) feeds conv1 directly.
  std::mt19937 rng(3);
  Graph g;
  const int x = g.AddTensor("x", {1, 2, 4, 4}, DataType::kFloat32);
  g.AddInput(x);
  Attributes relu;
  relu.SetString("activation", "Relu");
  const int t0 = g.AddNode("Conv",
                           {x, g.AddFloatConstant("w0", {3, 2, 1, 1}, Random(&rng, 6, -1.0f, 1.0f)),
                            g.AddFloatConstant("b0", {3}, {0.5f, -0.2f, 0.1f})},
                           relu, 1, "conv0");
  g.tensors()[t0].name = "t0";
  const int y = g.AddNode("Conv", {t0, g.AddFloatConstant("w1", {2, 3, 1, 1}, Random(&rng, 6, -1.0f, 1.0f))}, {}, 1,
                          "conv1");
  g.AddOutput(y);
  ASSERT_TRUE(g.InferShapes().ok());
  std::map<std::string, TensorStats> stats;
  stats["t0"].channel_absmax = {100.0f, 0.01f, 1.0f};
  std::vector<uint8_t> before, after;
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &before).ok());
  EXPECT_EQ(Smooth(stats, &g), 1);
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &after).ok());
  const std::vector<float> xv = Random(&rng, 32, -3.0f, 3.0f);
  const auto want = testing::RunModelFile(before, {xv});
  const auto got = testing::RunModelFile(after, {xv});
  ASSERT_EQ(got.size(), 1u);
  for (size_t i = 0; i < want[0].size(); ++i) EXPECT_NEAR(got[0][i], want[0][i], 1e-4f * (1.0f + std::fabs(want[0][i])));
}

TEST(SmoothActivations, DepthwiseProducerAbsorbsTheFactorsPerOutputChannel) {
  // A stride-2 depthwise conv without activation (PP-LCNetV3's downsampling) feeding a pointwise conv:
  // output channel k of the depthwise conv is its own, so its weights and bias take 1 / s_k.
  std::mt19937 rng(11);
  Graph g;
  const int x = g.AddTensor("x", {1, 3, 6, 6}, DataType::kFloat32);
  g.AddInput(x);
  Attributes dw;
  dw.SetInt("group", 3);
  dw.SetInts("strides", {2, 2});
  dw.SetInts("pads", {1, 1, 1, 1});
  const int t0 = g.AddNode("Conv",
                           {x, g.AddFloatConstant("w0", {3, 1, 3, 3}, Random(&rng, 27, -1.0f, 1.0f)),
                            g.AddFloatConstant("b0", {3}, {0.5f, -0.2f, 0.1f})},
                           dw, 1, "dw");
  g.tensors()[t0].name = "t0";
  const int y = g.AddNode("Conv", {t0, g.AddFloatConstant("w1", {2, 3, 1, 1}, {0.5f, -1.0f, 0.25f, 2.0f, 0.125f, -0.5f})},
                          {}, 1, "pw");
  g.AddOutput(y);
  ASSERT_TRUE(g.InferShapes().ok());
  std::map<std::string, TensorStats> stats;
  stats["t0"].channel_absmax = {50.0f, 0.02f, 2.0f};
  std::vector<uint8_t> before, after;
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &before).ok());
  EXPECT_EQ(Smooth(stats, &g), 1);
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &after).ok());
  // max|W_k| of pw's input columns: 2, 1, 0.5; s_k = sqrt(max|X_k| / max|W_k|) = 5, 0.1414, 2.
  const std::vector<float> w_after = WeightColumnMax(g, "pw");
  EXPECT_NEAR(w_after[0], 2.0f * 5.0f, 1e-4f);
  EXPECT_NEAR(w_after[1], 1.0f * std::sqrt(0.02f), 1e-5f);
  EXPECT_NEAR(w_after[2], 0.5f * 2.0f, 1e-5f);
  const std::vector<float> xv = Random(&rng, 108, -3.0f, 3.0f);
  const auto want = testing::RunModelFile(before, {xv});
  const auto got = testing::RunModelFile(after, {xv});
  ASSERT_EQ(got.size(), 1u);
  for (size_t i = 0; i < want[0].size(); ++i) EXPECT_NEAR(got[0][i], want[0][i], 1e-4f * (1.0f + std::fabs(want[0][i])));
}

TEST(SmoothActivations, LeavesGraphOutputsNonConvReadersAndMissingStatsAlone) {
  Graph g = AffineThenConv(true);  // t1 is also a graph output
  std::map<std::string, TensorStats> stats;
  stats["t1"].channel_absmax = {16.0f, 0.25f, 1.0f};
  EXPECT_EQ(Smooth(stats, &g), 0);
  Graph h = AffineThenConv(false);
  EXPECT_EQ(Smooth({}, &h), 0);  // no per-channel statistics
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
