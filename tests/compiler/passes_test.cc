// The compiler's graph passes. Each test builds a small graph with the IR, runs
// a pass (or the whole pipeline), checks the resulting structure, and checks
// that the graph before and after computes the same outputs: both are emitted
// as model files and run through the runtime on the same seeded random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compiler/passes/graph_utils.h"
#include "compiler/passes/pass_pipeline.h"
#include "compiler/passes/passes.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "tests/common/run_model.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace {

using compiler::Graph;
using compiler::IrNode;
using compiler::UniqueTensorName;
using Floats = std::vector<float>;

// ---- helpers ----

Floats RandomFloats(size_t n, std::mt19937* rng, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  Floats v(n);
  for (float& f : v) f = dist(*rng);
  return v;
}

Floats RandomFloats(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  return RandomFloats(n, &rng, lo, hi);
}

size_t Count(const Shape& shape) { return static_cast<size_t>(NumElements(shape)); }

// Emits `graph` and runs it once through the runtime; returns every output as float32 NCHW.
std::vector<Floats> RunGraph(const Graph& graph, const std::vector<Floats>& inputs) {
  return testing::RunModelFile(testing::EmitOrDie(graph), inputs);
}

// Seeded random values for every graph input, in [lo, hi].
std::vector<Floats> RandomInputs(const Graph& graph, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::vector<Floats> inputs;
  for (const compiler::IrInput& in : graph.inputs()) {
    inputs.push_back(RandomFloats(Count(graph.tensors()[in.tensor].shape), &rng, lo, hi));
  }
  return inputs;
}

// The largest |after - before| / max(1, |before|) over every output element,
// running both graphs on the same seeded random inputs in [lo, hi] (3 seeds);
// infinity when the outputs differ in number or size.
double MaxRelativeError(const Graph& before, const Graph& after, float lo, float hi) {
  double worst = 0.0;
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    const std::vector<Floats> inputs = RandomInputs(before, seed, lo, hi);
    const std::vector<Floats> want = RunGraph(before, inputs);
    const std::vector<Floats> got = RunGraph(after, inputs);
    if (want.size() != before.outputs().size() || got.size() != want.size()) return HUGE_VAL;
    for (size_t o = 0; o < want.size(); ++o) {
      if (got[o].size() != want[o].size() || want[o].empty()) return HUGE_VAL;
      for (size_t i = 0; i < want[o].size(); ++i) {
        const double w = want[o][i], g = got[o][i];
        if (std::isnan(w) || std::isnan(g)) return HUGE_VAL;
        worst = std::max(worst, std::fabs(g - w) / std::max(1.0, std::fabs(w)));
      }
    }
  }
  return worst;
}

// `before` and `after` compute the same outputs (relative `tolerance`, absolute
// near zero).
void ExpectSameResults(const Graph& before, const Graph& after, float lo = -4.0f, float hi = 4.0f,
                       double tolerance = 1e-5) {
  EXPECT_LE(MaxRelativeError(before, after, lo, hi), tolerance);
}

std::vector<std::string> OpTypes(const Graph& graph) {
  std::vector<std::string> ops;
  for (const IrNode& n : graph.nodes()) ops.push_back(n.op_type);
  return ops;
}

int CountOps(const Graph& graph, const std::string& op) {
  const std::vector<std::string> ops = OpTypes(graph);
  return static_cast<int>(std::count(ops.begin(), ops.end(), op));
}

const IrNode* FindNode(const Graph& graph, const std::string& op) {
  for (const IrNode& n : graph.nodes()) {
    if (n.op_type == op) return &n;
  }
  return nullptr;
}

std::string StringAttr(const IrNode& node, const std::string& name) {
  std::string v;
  EXPECT_TRUE(node.attrs.GetString(name, "", &v).ok());
  return v;
}

Floats FloatsAttr(const IrNode& node, const std::string& name) {
  Floats v;
  EXPECT_TRUE(node.attrs.GetFloats(name, {}, &v).ok());
  return v;
}

// Every node input is a graph input, a constant or written by an earlier node;
// every tensor is written at most once.
void ExpectTopologicallyOrdered(const Graph& graph) {
  std::vector<bool> ready(graph.tensors().size(), false);
  for (const compiler::IrInput& in : graph.inputs()) ready[in.tensor] = true;
  for (size_t t = 0; t < graph.tensors().size(); ++t) ready[t] = ready[t] || graph.tensors()[t].is_constant;
  std::vector<bool> written(graph.tensors().size(), false);
  for (const IrNode& n : graph.nodes()) {
    for (int i : n.inputs) {
      if (i >= 0) EXPECT_TRUE(ready[i]) << n.name << " reads '" << graph.tensors()[i].name << "' before it is written";
    }
    for (int o : n.outputs) {
      EXPECT_FALSE(written[o]) << graph.tensors()[o].name << " written twice";
      written[o] = ready[o] = true;
    }
  }
  for (int o : graph.outputs()) EXPECT_TRUE(ready[o]) << "output '" << graph.tensors()[o].name << "' never written";
}

// Graph inputs and outputs kept their tensors and names; the graph is ordered
// and passes shape inference.
void ExpectInterfaceKept(const Graph& before, Graph& after) {
  ASSERT_EQ(after.inputs().size(), before.inputs().size());
  for (size_t i = 0; i < before.inputs().size(); ++i) {
    EXPECT_EQ(after.inputs()[i].tensor, before.inputs()[i].tensor);
    EXPECT_EQ(after.tensors()[after.inputs()[i].tensor].name, before.tensors()[before.inputs()[i].tensor].name);
  }
  ASSERT_EQ(after.outputs(), before.outputs());
  for (int o : before.outputs()) EXPECT_EQ(after.tensors()[o].name, before.tensors()[o].name);
  ExpectTopologicallyOrdered(after);
  Status s = after.InferShapes();
  EXPECT_TRUE(s.ok()) << s.message();
}

// Runs `pass` on `graph` after shape inference, as RunPasses (and before it
// the importer) does: the passes match on known shapes.
int Apply(int (*pass)(Graph*), Graph* graph) {
  Status s = graph->InferShapes();
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? pass(graph) : -1;
}

// Names a node's output and returns it.
int Named(Graph* g, int tensor, const std::string& name) {
  g->tensors()[tensor].name = name;
  return tensor;
}

int Input(Graph* g, const std::string& name, Shape shape) {
  const int t = g->AddTensor(name, std::move(shape), DataType::kFloat32);
  g->AddInput(t);
  return t;
}

// A one-element constant. Shape [1] (what paddle2onnx writes) rather than a
// rank-0 scalar: the passes treat both alike, and the model loader currently
// rejects rank-0 tensors ("misaligned shape") in emitted files.
int Scalar(Graph* g, const std::string& name, float v) {
  return g->AddFloatConstant(UniqueTensorName(*g, name), {1}, {v});
}

Attributes ConvAttrs(int64_t group = 1) {
  Attributes a;
  a.SetInts("pads", {1, 1, 1, 1});
  if (group != 1) a.SetInt("group", group);
  return a;
}

// x[1,cin,6,6] -> Conv(cin->cout, 3x3, pad 1) with constant weights (and bias).
int AddConv(Graph* g, int x, int64_t cin, int64_t cout, uint32_t seed, bool bias = true, int64_t group = 1) {
  const int w = g->AddFloatConstant("w" + std::to_string(seed), {cout, cin / group, 3, 3},
                                    RandomFloats(Count({cout, cin / group, 3, 3}), seed, -0.5f, 0.5f));
  std::vector<int> inputs = {x, w};
  if (bias) inputs.push_back(g->AddFloatConstant("b" + std::to_string(seed), {cout}, RandomFloats(cout, seed + 1)));
  return g->AddNode("Conv", inputs, ConvAttrs(group));
}

// BatchNormalization on `x` with `channels` channels and constant parameters.
int AddBatchNorm(Graph* g, int x, int64_t channels, uint32_t seed, float epsilon = 1e-5f) {
  const int scale = g->AddFloatConstant("bn_scale" + std::to_string(seed), {channels},
                                        RandomFloats(channels, seed, 0.5f, 1.5f));
  const int bias = g->AddFloatConstant("bn_bias" + std::to_string(seed), {channels}, RandomFloats(channels, seed + 1));
  const int mean = g->AddFloatConstant("bn_mean" + std::to_string(seed), {channels}, RandomFloats(channels, seed + 2));
  const int var = g->AddFloatConstant("bn_var" + std::to_string(seed), {channels},
                                      RandomFloats(channels, seed + 3, 0.5f, 2.0f));
  Attributes a;
  a.SetFloat("epsilon", epsilon);
  return g->AddNode("BatchNormalization", {x, scale, bias, mean, var}, a);
}

// ---- the harness itself ----

TEST(PassTestHarness, SeesADifferentResult) {
  Graph a, b;
  a.AddOutput(Named(&a, a.AddNode("Relu", {Input(&a, "x", {2, 8})}), "y"));
  Attributes clip;
  clip.SetFloat("min", 0.0f);
  clip.SetFloat("max", 3.0f);  // differs from Relu only above 3
  b.AddOutput(Named(&b, b.AddNode("Clip", {Input(&b, "x", {2, 8})}, clip), "y"));
  EXPECT_EQ(MaxRelativeError(a, a, -4.0f, 4.0f), 0.0);
  EXPECT_GT(MaxRelativeError(a, b, -4.0f, 4.0f), 1e-3);
}

// ---- DeadNodeElimination ----

TEST(DeadNodeElimination, RemovesNodesThatReachNoOutput) {
  Graph g;
  const int x = Input(&g, "x", {2, 8});
  const int unused_input = Input(&g, "unused", {2, 8});
  const int r = g.AddNode("Relu", {x});
  const int dead1 = g.AddNode("Sigmoid", {r});   // read only by the dead Tanh
  g.AddNode("Tanh", {dead1});                    // read by nobody
  g.AddNode("Exp", {unused_input});              // the only reader of an input
  g.AddOutput(Named(&g, g.AddNode("Tanh", {r}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateDeadNodes, &g), 3);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Tanh"}));
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(DeadNodeElimination, KeepsLiveGraphUnchanged) {
  Graph g = testing::ConvReluPoolGraph();
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateDeadNodes, &g), 0);
  EXPECT_EQ(OpTypes(g), OpTypes(before));
}

TEST(DeadNodeElimination, KeepsMultiOutputNodeWithOneLiveOutput) {
  Graph g;
  const int x = Input(&g, "x", {4, 6});
  Attributes a;
  a.SetInt("axis", 1);
  const int first = g.AddNode("Split", {x}, a, 2);
  g.AddOutput(Named(&g, g.AddNode("Relu", {first}), "y"));  // Split's second output is unused
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateDeadNodes, &g), 0);
  ExpectSameResults(before, g);
}

// ---- IdentityElimination ----

TEST(IdentityElimination, ReadersReadTheInput) {
  Graph g;
  const int x = Input(&g, "x", {2, 3});
  const int i1 = g.AddNode("Identity", {x});
  const int i2 = g.AddNode("Identity", {i1});
  const int r = g.AddNode("Relu", {i2});
  g.AddOutput(Named(&g, g.AddNode("Sigmoid", {r}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateIdentities, &g), 2);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Sigmoid"}));
  EXPECT_EQ(g.nodes()[0].inputs[0], x);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(IdentityElimination, OutputIdentityMakesProducerWriteTheOutput) {
  Graph g;
  const int x = Input(&g, "x", {2, 3});
  const int t = g.AddNode("Relu", {x});
  const int y = Named(&g, g.AddNode("Identity", {t}), "y");
  const int z = Named(&g, g.AddNode("Sigmoid", {t}), "z");  // another reader of the Identity's input
  g.AddOutput(y);
  g.AddOutput(z);
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateIdentities, &g), 1);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Sigmoid"}));
  EXPECT_EQ(g.nodes()[0].outputs[0], y);
  EXPECT_EQ(g.nodes()[1].inputs[0], y);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(IdentityElimination, KeepsIdentityWritingAnOutputFromInputConstantOrOutput) {
  Graph g;
  const int x = Input(&g, "x", {2, 3});
  const int c = g.AddFloatConstant("c", {2, 3}, RandomFloats(6, 7));
  const int r = Named(&g, g.AddNode("Relu", {x}), "r");
  g.AddOutput(Named(&g, g.AddNode("Identity", {x}), "from_input"));
  g.AddOutput(Named(&g, g.AddNode("Identity", {c}), "from_constant"));
  g.AddOutput(r);
  g.AddOutput(Named(&g, g.AddNode("Identity", {r}), "from_output"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateIdentities, &g), 0);
  EXPECT_EQ(CountOps(g, "Identity"), 3);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(IdentityElimination, IdentityOfConstantFeedingANode) {
  Graph g;
  const int x = Input(&g, "x", {2, 3});
  const int c = g.AddFloatConstant("c", {2, 3}, RandomFloats(6, 7));
  const int ci = g.AddNode("Identity", {c});
  g.AddOutput(Named(&g, g.AddNode("Add", {x, ci}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::EliminateIdentities, &g), 1);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Add"}));
  EXPECT_EQ(g.nodes()[0].inputs[1], c);
  ExpectSameResults(before, g);
}

TEST(IdentityElimination, InferenceDropoutGoesTrainingDropoutStays) {
  // Dropout is not a runtime op (the importer drops it); structure only, no shapes needed.
  Graph g;
  const int x = Input(&g, "x", {2, 3});
  const int d1 = g.AddNode("Dropout", {x, g.AddFloatConstant("ratio", {1}, {0.5f})}, {}, 2);  // mask unused
  g.AddOutput(Named(&g, g.AddNode("Relu", {d1}), "y"));
  const int train = g.AddConstant<uint8_t>("train", {}, DataType::kBool, {1});
  const int d2 = g.AddNode("Dropout", {x, -1, train});
  g.AddOutput(Named(&g, g.AddNode("Relu", {d2}), "z"));
  EXPECT_EQ(compiler::EliminateIdentities(&g), 1);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Dropout", "Relu"}));
  EXPECT_EQ(g.nodes()[0].inputs[0], x);
}

// ---- FoldBatchNorm ----

TEST(FoldBatchNorm, FoldsIntoConvWithBias) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 11);
  const int y = Named(&g, AddBatchNorm(&g, c, 4, 21, 1e-3f), "y");
  g.AddOutput(y);
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 1);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(g.nodes()[0].outputs[0], y);
  EXPECT_NE(g.nodes()[0].inputs[1], before.nodes()[0].inputs[1]);  // new weights
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FoldBatchNorm, FoldsIntoConvWithoutBiasAndDepthwise) {
  Graph g;
  const int x = Input(&g, "x", {1, 4, 6, 6});
  const int c1 = AddConv(&g, x, 4, 4, 12, /*bias=*/false);
  const int b1 = AddBatchNorm(&g, c1, 4, 22);
  const int c2 = AddConv(&g, b1, 4, 4, 13, /*bias=*/true, /*group=*/4);
  g.AddOutput(Named(&g, AddBatchNorm(&g, c2, 4, 23), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 2);
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Conv"}));
  EXPECT_EQ(g.nodes()[0].inputs.size(), 3u);  // a bias was added
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

// x[1,cin,5,5] -> ConvTranspose(cin->cout, 2x2, stride 2) with constant weights [cin, cout/group, 2, 2].
int AddConvTranspose(Graph* g, int x, int64_t cin, int64_t cout, uint32_t seed, bool bias, int64_t group) {
  const Shape ws = {cin, cout / group, 2, 2};
  const int w = g->AddFloatConstant("wt" + std::to_string(seed), ws, RandomFloats(Count(ws), seed, -0.5f, 0.5f));
  std::vector<int> inputs = {x, w};
  if (bias) inputs.push_back(g->AddFloatConstant("bt" + std::to_string(seed), {cout}, RandomFloats(cout, seed + 1)));
  Attributes a;
  a.SetInts("strides", {2, 2});
  if (group != 1) a.SetInt("group", group);
  return g->AddNode("ConvTranspose", inputs, a);
}

TEST(FoldBatchNorm, FoldsIntoConvTransposeWithAndWithoutGroups) {
  Graph g;
  const int x = Input(&g, "x", {1, 4, 5, 5});
  const int t1 = AddConvTranspose(&g, x, 4, 6, 31, /*bias=*/true, /*group=*/1);
  const int b1 = AddBatchNorm(&g, t1, 6, 32);
  // Grouped: output channel g*3+m reads W[c, m] for the input channels c of group g.
  const int t2 = AddConvTranspose(&g, b1, 6, 6, 33, /*bias=*/false, /*group=*/2);
  g.AddOutput(Named(&g, AddBatchNorm(&g, t2, 6, 34), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 2);
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"ConvTranspose", "ConvTranspose"}));
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FoldBatchNorm, SharedWeightsAreNotModifiedInPlace) {
  Graph g;
  const int x = Input(&g, "x", {1, 2, 5, 5});
  const int w = g.AddFloatConstant("w", {2, 2, 3, 3}, RandomFloats(36, 3));
  const int c1 = g.AddNode("Conv", {x, w}, ConvAttrs());
  const int c2 = g.AddNode("Conv", {x, w}, ConvAttrs());  // same weights, no BN
  g.AddOutput(Named(&g, AddBatchNorm(&g, c1, 2, 24), "y"));
  g.AddOutput(Named(&g, c2, "z"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 1);
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 0);
  EXPECT_EQ(g.tensors()[w].data, before.tensors()[w].data);
  ExpectSameResults(before, g);
}

TEST(FoldBatchNorm, NoFoldWhenWeightsAreNotConstant) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int w = Input(&g, "w", {4, 3, 3, 3});
  const int c = g.AddNode("Conv", {x, w}, ConvAttrs());
  g.AddOutput(Named(&g, AddBatchNorm(&g, c, 4, 25), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 0);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "BatchNormalization"}));
  ExpectSameResults(before, g);
}

TEST(FoldBatchNorm, NoFoldWhenBnParamsAreNotConstant) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int scale = Input(&g, "scale", {4});
  const int c = AddConv(&g, x, 3, 4, 14);
  const int bias = g.AddFloatConstant("bias", {4}, RandomFloats(4, 1));
  const int mean = g.AddFloatConstant("mean", {4}, RandomFloats(4, 2));
  const int var = g.AddFloatConstant("var", {4}, RandomFloats(4, 3, 0.5f, 1.0f));
  g.AddOutput(Named(&g, g.AddNode("BatchNormalization", {c, scale, bias, mean, var}), "y"));
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 0);
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 1);
}

TEST(FoldBatchNorm, NoFoldWhenConvOutputHasAnotherReader) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 15);
  g.AddOutput(Named(&g, AddBatchNorm(&g, c, 4, 26), "y"));
  g.AddOutput(Named(&g, g.AddNode("Relu", {c}), "z"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 0);
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 1);
  ExpectSameResults(before, g);
}

TEST(FoldBatchNorm, NoFoldWhenConvOutputIsGraphOutput) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = Named(&g, AddConv(&g, x, 3, 4, 16), "c");
  g.AddOutput(Named(&g, AddBatchNorm(&g, c, 4, 27), "y"));
  g.AddOutput(c);
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 0);
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 1);
}

TEST(FoldBatchNorm, StandaloneBatchNormStays) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 4, 4});
  const int r = g.AddNode("Relu", {x});
  g.AddOutput(Named(&g, AddBatchNorm(&g, r, 3, 28), "y"));
  EXPECT_EQ(Apply(compiler::FoldBatchNorm, &g), 0);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "BatchNormalization"}));
}

// ---- FoldConvAffine ----

TEST(FoldConvAffine, MulAndAddFoldIntoConv) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 61);
  const int m = g.AddNode("Mul", {c, g.AddFloatConstant("scale", {1}, {1.7f})});                // scalar
  const int a = g.AddNode("Add", {g.AddFloatConstant("shift", {4, 1, 1}, RandomFloats(4, 62)), m});  // per channel
  const int y = Named(&g, a, "y");
  g.AddOutput(y);
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldConvAffine, &g), 2);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(g.nodes()[0].outputs[0], y);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FoldConvAffine, BiasAddAndPerChannelMulFoldIntoGroupedConvTranspose) {
  // paddle2onnx's ConvTranspose with its bias as a separate Add, then a per-channel Mul.
  Graph g;
  const int x = Input(&g, "x", {1, 4, 5, 5});
  const int t = AddConvTranspose(&g, x, 4, 6, 63, /*bias=*/false, /*group=*/2);
  const int a = g.AddNode("Add", {t, g.AddFloatConstant("bias", {1, 6, 1, 1}, RandomFloats(6, 64))});
  const int m = g.AddNode("Mul", {a, g.AddFloatConstant("scale", {6, 1, 1}, RandomFloats(6, 65, 0.5f, 2.0f))});
  g.AddOutput(Named(&g, m, "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldConvAffine, &g), 2);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"ConvTranspose"});
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FoldConvAffine, SubAndDivWithoutBias) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 63, /*bias=*/false);
  const int s = g.AddNode("Sub", {c, g.AddFloatConstant("sub", {1, 4, 1, 1}, RandomFloats(4, 64))});
  g.AddOutput(Named(&g, g.AddNode("Div", {s, g.AddFloatConstant("div", {1}, {0.8f})}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldConvAffine, &g), 2);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(g.nodes()[0].inputs.size(), 3u);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FoldConvAffine, NoFoldOfNonChannelConstantsOrReversedOperands) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  // Varies along width.
  g.AddOutput(Named(&g, g.AddNode("Mul", {AddConv(&g, x, 3, 4, 65), g.AddFloatConstant("w6", {6}, RandomFloats(6, 1))}),
                    "y1"));
  // constant - conv, constant / conv.
  g.AddOutput(Named(&g, g.AddNode("Sub", {g.AddFloatConstant("c1", {1}, {1.0f}), AddConv(&g, x, 3, 4, 66)}), "y2"));
  g.AddOutput(Named(&g, g.AddNode("Div", {g.AddFloatConstant("c2", {1}, {1.0f}), AddConv(&g, x, 3, 4, 67)}), "y3"));
  // Divides by zero; multiplies by a value known at run time only.
  g.AddOutput(Named(&g, g.AddNode("Div", {AddConv(&g, x, 3, 4, 68), g.AddFloatConstant("zero", {1}, {0.0f})}), "y4"));
  const int s = Input(&g, "s", {1});
  g.AddOutput(Named(&g, g.AddNode("Mul", {AddConv(&g, x, 3, 4, 69), s}), "y5"));
  // Broadcasting grows the output.
  g.AddOutput(Named(&g, g.AddNode("Add", {AddConv(&g, x, 3, 4, 70), g.AddFloatConstant("c5", {2, 1, 1, 1}, {1, 2})}),
                    "y6"));
  EXPECT_EQ(Apply(compiler::FoldConvAffine, &g), 0);
  EXPECT_EQ(CountOps(g, "Conv"), 6);
  EXPECT_EQ(g.nodes().size(), 12u);
}

TEST(FoldConvAffine, NoFoldWhenConvOutputHasAnotherReaderOrIsAnOutput) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c1 = AddConv(&g, x, 3, 4, 71);
  g.AddOutput(Named(&g, g.AddNode("Mul", {c1, Scalar(&g, "k", 2.0f)}), "y1"));
  g.AddOutput(Named(&g, g.AddNode("Relu", {c1}), "y2"));
  const int c2 = Named(&g, AddConv(&g, x, 3, 4, 72), "c2");
  g.AddOutput(c2);
  g.AddOutput(Named(&g, g.AddNode("Add", {c2, Scalar(&g, "k", 2.0f)}), "y3"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FoldConvAffine, &g), 0);
  EXPECT_EQ(g.nodes().size(), before.nodes().size());
  ExpectSameResults(before, g);
}

// ---- FuseActivation ----

struct ActivationCase {
  const char* name;
  std::string fused;
  Floats params;
};

// Appends the activation `which` reading `x`; Clip in both opset forms.
int AddActivation(Graph* g, const std::string& which, int x) {
  Attributes a;
  if (which == "Relu" || which == "HardSwish") return g->AddNode(which, {x});
  if (which == "LeakyRelu") {
    a.SetFloat("alpha", 0.1f);
    return g->AddNode(which, {x}, a);
  }
  if (which == "HardSigmoid") {
    a.SetFloat("alpha", 0.3f);
    a.SetFloat("beta", 0.4f);
    return g->AddNode(which, {x}, a);
  }
  if (which == "ClipAttrs") {
    a.SetFloat("min", -0.5f);
    a.SetFloat("max", 1.5f);
    return g->AddNode("Clip", {x}, a);
  }
  if (which == "ClipInputs") return g->AddNode("Clip", {x, Scalar(g, "lo", -0.5f), Scalar(g, "hi", 1.5f)});
  if (which == "ClipMaxOnly") return g->AddNode("Clip", {x, -1, Scalar(g, "hi", 1.5f)});
  ADD_FAILURE() << which;
  return -1;
}

class FuseActivation : public ::testing::TestWithParam<ActivationCase> {};

TEST_P(FuseActivation, IntoConvConvTransposeAndGemm) {
  const ActivationCase& c = GetParam();
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  g.AddOutput(Named(&g, AddActivation(&g, c.name, AddConv(&g, x, 3, 4, 31)), "y"));
  const int a = Input(&g, "a", {3, 5});
  const int b = g.AddFloatConstant("gemm_b", {5, 4}, RandomFloats(20, 32));
  const int bias = g.AddFloatConstant("gemm_c", {4}, RandomFloats(4, 33));
  g.AddOutput(Named(&g, AddActivation(&g, c.name, g.AddNode("Gemm", {a, b, bias})), "z"));
  g.AddOutput(Named(&g, AddActivation(&g, c.name, AddConvTranspose(&g, x, 3, 4, 36, true, 1)), "t"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 3);
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Gemm", "ConvTranspose"}));
  for (const IrNode& n : g.nodes()) {
    EXPECT_EQ(StringAttr(n, "activation"), c.fused);
    EXPECT_EQ(FloatsAttr(n, "activation_params"), c.params);
  }
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, FuseActivation,
    ::testing::Values(ActivationCase{"Relu", "Relu", {}}, ActivationCase{"HardSwish", "HardSwish", {}},
                      ActivationCase{"LeakyRelu", "LeakyRelu", {0.1f}},
                      ActivationCase{"HardSigmoid", "HardSigmoid", {0.3f, 0.4f}},
                      ActivationCase{"ClipAttrs", "Clip", {-0.5f, 1.5f}},
                      ActivationCase{"ClipInputs", "Clip", {-0.5f, 1.5f}},
                      ActivationCase{"ClipMaxOnly", "Clip", {-std::numeric_limits<float>::infinity(), 1.5f}}),
    [](const ::testing::TestParamInfo<ActivationCase>& info) { return std::string(info.param.name); });

TEST(FuseActivations, ReluIntoAddOnly) {
  Graph g;
  const int x = Input(&g, "x", {2, 8});
  const int w = Input(&g, "w", {2, 8});
  g.AddOutput(Named(&g, g.AddNode("Relu", {g.AddNode("Add", {x, w})}), "y"));
  g.AddOutput(Named(&g, AddActivation(&g, "ClipAttrs", g.AddNode("Add", {x, w})), "z"));  // Add fuses Relu only
  g.AddOutput(Named(&g, g.AddNode("Relu", {g.AddNode("Mul", {x, w})}), "m"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Add", "Add", "Clip", "Mul", "Relu"}));
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "Relu");
  EXPECT_FALSE(g.nodes()[0].attrs.Has("activation_params"));
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(FuseActivations, NoFusionWhenProducerOutputHasTwoReaders) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 34);
  g.AddOutput(Named(&g, g.AddNode("Relu", {c}), "y"));
  g.AddOutput(Named(&g, g.AddNode("Sigmoid", {c}), "z"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 0);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu", "Sigmoid"}));
  ExpectSameResults(before, g);
}

TEST(FuseActivations, NoFusionWhenProducerOutputIsGraphOutput) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = Named(&g, AddConv(&g, x, 3, 4, 35), "c");
  g.AddOutput(c);
  g.AddOutput(Named(&g, g.AddNode("Relu", {c}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 0);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu"}));
  ExpectSameResults(before, g);
}

TEST(FuseActivations, NoFusionOfRuntimeClipBoundsOrOtherOps) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int lo = Input(&g, "lo", {1});
  g.AddOutput(Named(&g, g.AddNode("Clip", {AddConv(&g, x, 3, 4, 36), lo}), "y"));  // bound known at run time only
  g.AddOutput(Named(&g, g.AddNode("Sigmoid", {AddConv(&g, x, 3, 4, 37)}), "z"));  // not fusable
  const int a = Input(&g, "a", {3, 5});
  const int b = g.AddFloatConstant("mm_b", {5, 4}, RandomFloats(20, 38));
  g.AddOutput(Named(&g, g.AddNode("Relu", {g.AddNode("MatMul", {a, b})}), "m"));  // MatMul has no activation
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 0);
  EXPECT_EQ(CountOps(g, "Clip") + CountOps(g, "Sigmoid") + CountOps(g, "Relu"), 3);
  ExpectSameResults(before, g);
}

TEST(FuseActivations, OneActivationPerProducer) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int r = g.AddNode("Relu", {AddConv(&g, x, 3, 4, 39)});
  g.AddOutput(Named(&g, AddActivation(&g, "ClipAttrs", r), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Clip"}));
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "Relu");
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

// ---- FuseOutputAffines ----

// Conv -> `activation` (fused) -> Mul(scale) -> Add(shift), the constants' shapes as given.
Graph AffineAfterActivation(const std::string& activation, Shape scale_shape, Shape shift_shape, bool constant_first) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int act = AddActivation(&g, activation, AddConv(&g, x, 3, 4, 81));
  const int scale = g.AddFloatConstant("scale", scale_shape, RandomFloats(Count(scale_shape), 82, 0.5f, 2.0f));
  const int shift = g.AddFloatConstant("shift", shift_shape, RandomFloats(Count(shift_shape), 83));
  const int mul = g.AddNode("Mul", constant_first ? std::vector<int>{scale, act} : std::vector<int>{act, scale});
  const std::vector<int> add = constant_first ? std::vector<int>{shift, mul} : std::vector<int>{mul, shift};
  g.AddOutput(Named(&g, g.AddNode("Add", add), "y"));
  return g;
}

TEST(FuseOutputAffines, MulThenAddAfterAnActivation) {
  for (const char* activation : {"HardSwish", "Relu", "LeakyRelu"}) {
    for (bool constant_first : {false, true}) {
      Graph g = AffineAfterActivation(activation, {1, 4, 1, 1}, {1}, constant_first);
      const Graph before = g;
      EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
      EXPECT_EQ(Apply(compiler::FuseOutputAffines, &g), 1) << activation;
      ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
      EXPECT_EQ(FloatsAttr(g.nodes()[0], "activation_scale"), RandomFloats(4, 82, 0.5f, 2.0f));
      EXPECT_EQ(FloatsAttr(g.nodes()[0], "activation_shift"), RandomFloats(1, 83));  // one value stays one
      ExpectInterfaceKept(before, g);
      ExpectSameResults(before, g, -2.0f, 2.0f, 1e-6);  // oneDNN may fuse the multiply-add
    }
  }
}

TEST(FuseOutputAffines, MulAloneAddAloneAndPerChannelShapes) {
  for (const Shape& shape : {Shape{6}, Shape{4, 1, 1}, Shape{1, 4, 1, 1}, Shape{}, Shape{1, 1, 1, 1}}) {
    // [6] runs along the width: not one value per channel, so it stays.
    const bool per_channel = shape != Shape{6};
    Graph g;
    const int x = Input(&g, "x", {1, 3, 6, 6});
    const int v = g.AddFloatConstant("v", shape, RandomFloats(Count(shape), 84));
    g.AddOutput(Named(&g, g.AddNode("Mul", {AddActivation(&g, "Relu", AddConv(&g, x, 3, 4, 85)), v}), "y"));
    g.AddOutput(Named(&g, g.AddNode("Add", {AddActivation(&g, "Relu", AddConv(&g, x, 3, 4, 86)), v}), "z"));
    const Graph before = g;
    EXPECT_EQ(Apply(compiler::FuseActivations, &g), 2);
    const int fused = Apply(compiler::FuseOutputAffines, &g);
    if (!per_channel) {
      EXPECT_EQ(fused, 0) << ShapeToString(shape);
      continue;
    }
    EXPECT_EQ(fused, 2) << ShapeToString(shape);
    ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Conv"}));
    EXPECT_TRUE(g.nodes()[0].attrs.Has("activation_scale"));
    EXPECT_FALSE(g.nodes()[0].attrs.Has("activation_shift"));
    EXPECT_FALSE(g.nodes()[1].attrs.Has("activation_scale"));
    EXPECT_TRUE(g.nodes()[1].attrs.Has("activation_shift"));
    ExpectInterfaceKept(before, g);
    ExpectSameResults(before, g, -2.0f, 2.0f, 1e-6);
  }
}

TEST(FuseOutputAffines, NoFusionWithoutActivationSharedOutputSecondAffineOrActivatedAdd) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  // No activation: fold_conv_affine's case.
  g.AddOutput(Named(&g, g.AddNode("Mul", {AddConv(&g, x, 3, 4, 87), Scalar(&g, "s", 2.0f)}), "a"));
  // The activation's output read twice.
  const int shared = AddActivation(&g, "Relu", AddConv(&g, x, 3, 4, 88));
  g.AddOutput(Named(&g, g.AddNode("Mul", {shared, Scalar(&g, "s", 2.0f)}), "b"));
  g.AddOutput(Named(&g, g.AddNode("Sigmoid", {shared}), "c"));
  // Mul -> Add -> Mul: the first two fuse, the Conv then has its affine and the last Mul stays.
  const int chain = g.AddNode("Add", {g.AddNode("Mul", {AddActivation(&g, "Relu", AddConv(&g, x, 3, 4, 89)),
                                                       Scalar(&g, "s", 2.0f)}),
                                      Scalar(&g, "t", 0.5f)});
  g.AddOutput(Named(&g, g.AddNode("Mul", {chain, Scalar(&g, "s", 3.0f)}), "d"));
  // An Add with a fused Relu of its own.
  const int relu_add = g.AddNode("Add", {AddActivation(&g, "Relu", AddConv(&g, x, 3, 4, 90)), Scalar(&g, "t", -0.5f)});
  g.AddOutput(Named(&g, g.AddNode("Relu", {relu_add}), "e"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 4);
  EXPECT_EQ(Apply(compiler::FuseOutputAffines, &g), 1);
  EXPECT_EQ(CountOps(g, "Mul"), 3);
  EXPECT_EQ(CountOps(g, "Add"), 1);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f, 1e-6);
}

// ---- FuseResidualAdds ----

// ResNet's basic block: Relu(Conv(Relu(Conv(x))) + x), the residual on either side of the Add, with and
// without the second Conv's bias.
TEST(FuseResidualAdds, ResNetBlockWithTheAddsRelu) {
  for (bool residual_first : {false, true}) {
    for (bool bias : {true, false}) {
      Graph g;
      const int x = Input(&g, "x", {1, 4, 6, 6});
      const int c2 = AddConv(&g, AddActivation(&g, "Relu", AddConv(&g, x, 4, 4, 91)), 4, 4, 92, bias);
      const int sum = g.AddNode("Add", residual_first ? std::vector<int>{x, c2} : std::vector<int>{c2, x});
      g.AddOutput(Named(&g, AddActivation(&g, "Relu", sum), "y"));
      const Graph before = g;
      EXPECT_EQ(Apply(compiler::FuseActivations, &g), 2);
      EXPECT_EQ(Apply(compiler::FuseResidualAdds, &g), 1);
      ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Conv"}));
      const IrNode& fused = g.nodes()[1];
      ASSERT_EQ(fused.inputs.size(), 4u);
      EXPECT_EQ(fused.inputs[3], x);
      EXPECT_EQ(fused.inputs[2] >= 0, bias);  // an omitted bias stays omitted
      EXPECT_EQ(StringAttr(fused, "activation"), "Relu");
      EXPECT_EQ(g.tensors()[fused.outputs[0]].name, "y");
      ExpectInterfaceKept(before, g);
      ExpectSameResults(before, g, -2.0f, 2.0f);
    }
  }
}

// The residual computed after the Conv: the fused node takes the Add's place in the order.
TEST(FuseResidualAdds, ResidualComputedAfterTheConv) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 5, 5});
  const int c = AddConv(&g, x, 3, 4, 93);
  const int r = AddConv(&g, x, 3, 4, 94);  // after c in the node order
  g.AddOutput(Named(&g, g.AddNode("Add", {c, AddActivation(&g, "Relu", r)}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
  EXPECT_EQ(Apply(compiler::FuseResidualAdds, &g), 1);
  ASSERT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.nodes()[1].inputs.size(), 4u);
  EXPECT_EQ(g.nodes()[1].inputs[3], g.nodes()[0].outputs[0]);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

TEST(FuseResidualAdds, NoFusionWithActivationSharedOutputBroadcastOrConstant) {
  Graph g;
  const int x = Input(&g, "x", {1, 4, 6, 6});
  // The Conv has an activation of its own.
  g.AddOutput(Named(&g, g.AddNode("Add", {AddActivation(&g, "Relu", AddConv(&g, x, 4, 4, 95)), x}), "a"));
  // The Conv's output read twice.
  const int shared = AddConv(&g, x, 4, 4, 96);
  g.AddOutput(Named(&g, g.AddNode("Add", {shared, x}), "b"));
  g.AddOutput(Named(&g, g.AddNode("Sigmoid", {shared}), "c"));
  // A broadcast operand (one value per channel).
  const int per_channel = g.AddFloatConstant("pc", {1, 4, 1, 1}, RandomFloats(4, 97));
  g.AddOutput(Named(&g, g.AddNode("Add", {AddConv(&g, x, 4, 4, 98), g.AddNode("Sigmoid", {per_channel})}), "d"));
  // A constant of the output's shape.
  const int full = g.AddFloatConstant("full", {1, 4, 6, 6}, RandomFloats(144, 99));
  g.AddOutput(Named(&g, g.AddNode("Add", {AddConv(&g, x, 4, 4, 100), full}), "e"));
  // The Conv's output is a graph output too.
  const int out = AddConv(&g, x, 4, 4, 101);
  g.AddOutput(Named(&g, out, "f"));
  g.AddOutput(Named(&g, g.AddNode("Add", {out, x}), "g"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
  EXPECT_EQ(Apply(compiler::FuseResidualAdds, &g), 0);
  EXPECT_EQ(CountOps(g, "Add"), 5);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

// ---- FactorGatedAdds ----

// PP-OCRv4 det's RSE block: x + x * HardSigmoid(Conv(GlobalAveragePool(x))), the product on either side of the
// Add and the gate on either side of the Mul; then Build's output-affine fusion folds the + 1 into the gate's
// convolution.
TEST(FactorGatedAdds, SqueezeExciteResidual) {
  for (int order = 0; order < 4; ++order) {
    Graph g;
    const int x = Input(&g, "x", {1, 4, 6, 6});
    const int pooled = g.AddNode("GlobalAveragePool", {x});
    const int w = g.AddFloatConstant("w", {4, 4, 1, 1}, RandomFloats(16, 102, -0.5f, 0.5f));
    const int gate = AddActivation(&g, "HardSigmoid", g.AddNode("Conv", {pooled, w}));
    const int product = g.AddNode("Mul", order % 2 == 0 ? std::vector<int>{x, gate} : std::vector<int>{gate, x});
    g.AddOutput(Named(&g, g.AddNode("Add", order < 2 ? std::vector<int>{x, product} : std::vector<int>{product, x}),
                      "y"));
    const Graph before = g;
    EXPECT_EQ(Apply(compiler::FuseActivations, &g), 1);
    EXPECT_EQ(Apply(compiler::FactorGatedAdds, &g), 1) << order;
    ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"GlobalAveragePool", "Conv", "Add", "Mul"}));
    ExpectInterfaceKept(before, g);
    ExpectSameResults(before, g, -2.0f, 2.0f);
    EXPECT_EQ(Apply(compiler::FuseOutputAffines, &g), 1);
    ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"GlobalAveragePool", "Conv", "Mul"}));
    EXPECT_EQ(FloatsAttr(g.nodes()[1], "activation_shift"), Floats{1.0f});
    ExpectSameResults(before, g, -2.0f, 2.0f);
  }
}

TEST(FactorGatedAdds, NoFactoringWhenTheProductIsSharedBroadcastsOrTheAddIsActivated) {
  Graph g;
  const int x = Input(&g, "x", {1, 4, 6, 6});
  const int gate = g.AddNode("Sigmoid", {Input(&g, "s", {1, 4, 1, 1})});
  // The product read twice.
  const int shared = g.AddNode("Mul", {x, gate});
  g.AddOutput(Named(&g, g.AddNode("Add", {x, shared}), "a"));
  g.AddOutput(Named(&g, g.AddNode("Relu", {shared}), "b"));
  // x broadcasts onto the gate (the sum is larger than x).
  const int small = Input(&g, "small", {1, 4, 1, 1});
  g.AddOutput(Named(&g, g.AddNode("Add", {small, g.AddNode("Mul", {small, x})}), "c"));
  // The Add has a fused Relu.
  Attributes relu;
  relu.SetString("activation", "Relu");
  g.AddOutput(Named(&g, g.AddNode("Add", {x, g.AddNode("Mul", {x, gate})}, relu), "d"));
  // Another operand than the Mul's.
  const int other = Input(&g, "other", {1, 4, 6, 6});
  g.AddOutput(Named(&g, g.AddNode("Add", {other, g.AddNode("Mul", {x, gate})}), "e"));
  ASSERT_TRUE(g.InferShapes().ok());
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::FactorGatedAdds, &g), 0);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

// ---- RecognizeHardSwish ----

enum class HardSwishForm { kMulThenDiv, kMulThenMulSixth, kDivThenMul, kReversedOperands, kClipInputs };

// x * Clip(x + 3, 0, 6) / 6 in one of its spellings.
int AddDecomposedHardSwish(Graph* g, int x, HardSwishForm form) {
  const bool reversed = form == HardSwishForm::kReversedOperands;
  const int three = Scalar(g, "three", 3.0f);
  const int a = g->AddNode("Add", reversed ? std::vector<int>{three, x} : std::vector<int>{x, three});
  int c;
  if (form == HardSwishForm::kClipInputs) {
    c = g->AddNode("Clip", {a, Scalar(g, "zero", 0.0f), Scalar(g, "six", 6.0f)});
  } else {
    Attributes clip;
    clip.SetFloat("min", 0.0f);
    clip.SetFloat("max", 6.0f);
    c = g->AddNode("Clip", {a}, clip);
  }
  switch (form) {
    case HardSwishForm::kMulThenMulSixth:
      return g->AddNode("Mul", {g->AddNode("Mul", {x, c}), Scalar(g, "sixth", 1.0f / 6.0f)});
    case HardSwishForm::kDivThenMul:
      return g->AddNode("Mul", {x, g->AddNode("Div", {c, Scalar(g, "six", 6.0f)})});
    case HardSwishForm::kReversedOperands:
      return g->AddNode("Div", {g->AddNode("Mul", {c, x}), Scalar(g, "six", 6.0f)});
    default: return g->AddNode("Div", {g->AddNode("Mul", {x, c}), Scalar(g, "six", 6.0f)});
  }
}

class RecognizeHardSwish : public ::testing::TestWithParam<HardSwishForm> {};

TEST_P(RecognizeHardSwish, ClipForm) {
  Graph g;
  const int x = Input(&g, "x", {1, 4, 5, 5});
  const int y = Named(&g, AddDecomposedHardSwish(&g, x, GetParam()), "y");
  g.AddOutput(y);
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::RecognizeHardSwish, &g), 1);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"HardSwish"});
  EXPECT_EQ(g.nodes()[0].inputs, std::vector<int>{x});
  EXPECT_EQ(g.nodes()[0].outputs, std::vector<int>{y});
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -6.0f, 6.0f);
}

INSTANTIATE_TEST_SUITE_P(Forms, RecognizeHardSwish,
                         ::testing::Values(HardSwishForm::kMulThenDiv, HardSwishForm::kMulThenMulSixth,
                                           HardSwishForm::kDivThenMul, HardSwishForm::kReversedOperands,
                                           HardSwishForm::kClipInputs));

TEST(RecognizeHardSwishPattern, HardSigmoidForm) {
  Graph g;
  const int x = Input(&g, "x", {2, 16});
  Attributes a;
  a.SetFloat("alpha", 0.1666667f);  // paddle's spelling of 1/6
  a.SetFloat("beta", 0.5f);
  const int hs = g.AddNode("HardSigmoid", {x}, a);
  g.AddOutput(Named(&g, g.AddNode("Mul", {hs, x}), "y"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::RecognizeHardSwish, &g), 1);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"HardSwish"});
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -6.0f, 6.0f);
}

TEST(RecognizeHardSwishPattern, NoMatchOnOtherConstantsOrOperands) {
  Graph g;
  const int x = Input(&g, "x", {2, 16});
  const int w = Input(&g, "w", {2, 16});
  Attributes clip;
  clip.SetFloat("min", 0.0f);
  clip.SetFloat("max", 6.0f);
  // Add 2 instead of 3.
  const int c1 = g.AddNode("Clip", {g.AddNode("Add", {x, Scalar(&g, "two", 2.0f)})}, clip);
  g.AddOutput(Named(&g, g.AddNode("Div", {g.AddNode("Mul", {x, c1}), Scalar(&g, "six", 6.0f)}), "y1"));
  // Multiplies another tensor than the Add's.
  const int c2 = g.AddNode("Clip", {g.AddNode("Add", {x, Scalar(&g, "three", 3.0f)})}, clip);
  g.AddOutput(Named(&g, g.AddNode("Div", {g.AddNode("Mul", {w, c2}), Scalar(&g, "six", 6.0f)}), "y2"));
  // HardSigmoid with the default alpha 0.2.
  g.AddOutput(Named(&g, g.AddNode("Mul", {x, g.AddNode("HardSigmoid", {x})}), "y3"));
  // Divides by 5.
  const int c4 = g.AddNode("Clip", {g.AddNode("Add", {x, Scalar(&g, "three", 3.0f)})}, clip);
  g.AddOutput(Named(&g, g.AddNode("Div", {g.AddNode("Mul", {x, c4}), Scalar(&g, "five", 5.0f)}), "y4"));
  EXPECT_EQ(Apply(compiler::RecognizeHardSwish, &g), 0);
  EXPECT_EQ(CountOps(g, "HardSwish"), 0);
}

TEST(RecognizeHardSwishPattern, NoMatchWhenIntermediateIsReadElsewhereOrAnOutput) {
  Graph g;
  const int x = Input(&g, "x", {2, 16});
  Attributes clip;
  clip.SetFloat("min", 0.0f);
  clip.SetFloat("max", 6.0f);
  const int c1 = Named(&g, g.AddNode("Clip", {g.AddNode("Add", {x, Scalar(&g, "three", 3.0f)})}, clip), "c1");
  g.AddOutput(Named(&g, g.AddNode("Div", {g.AddNode("Mul", {x, c1}), Scalar(&g, "six", 6.0f)}), "y1"));
  g.AddOutput(c1);  // the Clip's output is also a graph output
  const int c2 = g.AddNode("Clip", {g.AddNode("Add", {x, Scalar(&g, "three", 3.0f)})}, clip);
  const int m2 = g.AddNode("Mul", {x, c2});
  g.AddOutput(Named(&g, g.AddNode("Div", {m2, Scalar(&g, "six", 6.0f)}), "y2"));
  g.AddOutput(Named(&g, g.AddNode("Relu", {m2}), "y3"));  // the product has a second reader
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::RecognizeHardSwish, &g), 0);
  EXPECT_EQ(CountOps(g, "HardSwish"), 0);
  ExpectSameResults(before, g, -6.0f, 6.0f);
}

// ---- RecognizeLayerNorm ----

struct LayerNormSpec {
  Shape x_shape = {1, 5, 16};
  std::vector<int64_t> axes = {-1};
  bool axes_as_input = false;
  bool square_with_mul = false;
  bool eps_first = false;
  Shape gamma_shape = {16};  // empty: no Mul
  Shape beta_shape = {16};   // empty: no Add
};

// The decomposed LayerNorm of `spec` on `x`; the returned tensor is its output.
int AddDecomposedLayerNorm(Graph* g, int x, const LayerNormSpec& spec) {
  auto reduce_mean = [&](int in) {
    Attributes a;
    if (spec.axes_as_input) {
      const int axes = g->AddInt64Constant(UniqueTensorName(*g, "axes"), {static_cast<int64_t>(spec.axes.size())},
                                           spec.axes);
      return g->AddNode("ReduceMean", {in, axes}, a);
    }
    a.SetInts("axes", spec.axes);
    return g->AddNode("ReduceMean", {in}, a);
  };
  const int m = reduce_mean(x);
  const int d = g->AddNode("Sub", {x, m});
  const int p = spec.square_with_mul ? g->AddNode("Mul", {d, d}) : g->AddNode("Pow", {d, Scalar(g, "two", 2.0f)});
  const int v = reduce_mean(p);
  const int eps = g->AddFloatConstant(UniqueTensorName(*g, "eps"), {1}, {1e-5f});
  const int e = g->AddNode("Add", spec.eps_first ? std::vector<int>{eps, v} : std::vector<int>{v, eps});
  int out = g->AddNode("Div", {d, g->AddNode("Sqrt", {e})});
  if (!spec.gamma_shape.empty()) {
    const int gamma = g->AddFloatConstant(UniqueTensorName(*g, "gamma"), spec.gamma_shape,
                                          RandomFloats(Count(spec.gamma_shape), 41, 0.5f, 1.5f));
    out = g->AddNode("Mul", {out, gamma});
  }
  if (!spec.beta_shape.empty()) {
    const int beta = g->AddFloatConstant(UniqueTensorName(*g, "beta"), spec.beta_shape,
                                         RandomFloats(Count(spec.beta_shape), 42));
    out = g->AddNode("Add", {beta, out});
  }
  return out;
}

void ExpectLayerNormRecognized(const LayerNormSpec& spec, int64_t axis, std::vector<std::string> ops = {}) {
  Graph g;
  const int x = Input(&g, "x", spec.x_shape);
  const int y = Named(&g, AddDecomposedLayerNorm(&g, x, spec), "y");
  g.AddOutput(y);
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::RecognizeLayerNorm, &g), 1);
  if (ops.empty()) ops = {"LayerNormalization"};
  ASSERT_EQ(OpTypes(g), ops);
  const IrNode* ln = FindNode(g, "LayerNormalization");
  ASSERT_NE(ln, nullptr);
  int64_t got_axis = 0;
  float epsilon = 0.0f;
  EXPECT_TRUE(ln->attrs.GetInt("axis", -1, &got_axis).ok());
  EXPECT_TRUE(ln->attrs.GetFloat("epsilon", 0.0f, &epsilon).ok());
  EXPECT_EQ(got_axis, axis);
  EXPECT_EQ(epsilon, 1e-5f);
  EXPECT_EQ(ln->inputs[0], x);
  EXPECT_EQ(ln->inputs.size(), spec.beta_shape.empty() ? 2u : 3u);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 3.0f);
}

TEST(RecognizeLayerNorm, LastAxisWithScaleAndBias) { ExpectLayerNormRecognized(LayerNormSpec(), 2); }

TEST(RecognizeLayerNorm, PositiveAxisAsPaddleWritesIt) {
  LayerNormSpec spec;
  spec.axes = {2};
  ExpectLayerNormRecognized(spec, 2);
}

TEST(RecognizeLayerNorm, AxesInputSquareByMulEpsFirst) {
  LayerNormSpec spec;
  spec.axes_as_input = true;
  spec.square_with_mul = true;
  spec.eps_first = true;
  ExpectLayerNormRecognized(spec, 2);
}

TEST(RecognizeLayerNorm, WithoutScaleOrBias) {
  LayerNormSpec spec;
  spec.gamma_shape = {};
  spec.beta_shape = {};
  ExpectLayerNormRecognized(spec, 2);
}

TEST(RecognizeLayerNorm, BiasWithoutScale) {
  LayerNormSpec spec;
  spec.gamma_shape = {};
  spec.beta_shape = {1, 1, 16};
  ExpectLayerNormRecognized(spec, 2);
}

TEST(RecognizeLayerNorm, TwoTrailingAxesWithBroadcastScale) {
  LayerNormSpec spec;
  spec.x_shape = {2, 3, 4, 8};
  spec.axes = {2, 3};
  spec.gamma_shape = {8};     // broadcast over dim 2: becomes a new [4, 8] constant
  spec.beta_shape = {1, 1};   // one value
  ExpectLayerNormRecognized(spec, 2);
}

TEST(RecognizeLayerNorm, ScaleAlongAnotherDimStaysOutside) {
  LayerNormSpec spec;
  spec.x_shape = {1, 5, 16};
  spec.gamma_shape = {5, 1};  // per row, not per normalized element
  spec.beta_shape = {};
  ExpectLayerNormRecognized(spec, 2, {"LayerNormalization", "Mul"});
}

TEST(RecognizeLayerNorm, NoMatchOverNonTrailingAxes) {
  Graph g;
  LayerNormSpec spec;
  spec.axes = {1};
  spec.gamma_shape = {};
  spec.beta_shape = {};
  const int x = Input(&g, "x", spec.x_shape);
  g.AddOutput(Named(&g, AddDecomposedLayerNorm(&g, x, spec), "y"));
  EXPECT_EQ(Apply(compiler::RecognizeLayerNorm, &g), 0);
  EXPECT_EQ(CountOps(g, "LayerNormalization"), 0);
}

TEST(RecognizeLayerNorm, NoMatchWhenCenteredValueHasAnotherReader) {
  Graph g;
  LayerNormSpec spec;
  const int x = Input(&g, "x", spec.x_shape);
  g.AddOutput(Named(&g, AddDecomposedLayerNorm(&g, x, spec), "y"));
  // The Sub's output (node 1) also goes to a graph output through a Relu.
  const int d = g.nodes()[1].outputs[0];
  ASSERT_EQ(g.nodes()[1].op_type, "Sub");
  g.AddOutput(Named(&g, g.AddNode("Relu", {d}), "z"));
  const Graph before = g;
  EXPECT_EQ(Apply(compiler::RecognizeLayerNorm, &g), 0);
  EXPECT_EQ(CountOps(g, "LayerNormalization"), 0);
  ExpectSameResults(before, g);
}

TEST(RecognizeLayerNorm, NoMatchWhenVarianceIsAnOutputOrEpsilonUnknown) {
  Graph g;
  LayerNormSpec spec;
  const int x = Input(&g, "x", spec.x_shape);
  g.AddOutput(Named(&g, AddDecomposedLayerNorm(&g, x, spec), "y"));
  ASSERT_EQ(g.nodes()[3].op_type, "ReduceMean");
  g.AddOutput(Named(&g, g.nodes()[3].outputs[0], "variance"));
  EXPECT_EQ(Apply(compiler::RecognizeLayerNorm, &g), 0);

  Graph h;
  const int hx = Input(&h, "x", spec.x_shape);
  const int eps = Input(&h, "eps", {1});
  h.AddOutput(Named(&h, AddDecomposedLayerNorm(&h, hx, spec), "y"));
  ASSERT_EQ(h.nodes()[4].op_type, "Add");
  h.nodes()[4].inputs[1] = eps;
  EXPECT_EQ(Apply(compiler::RecognizeLayerNorm, &h), 0);
}

// ---- The pipeline ----

// x -> Identity -> Conv -> BN -> hard-swish (Clip form) -> Conv -> Relu -> y
//                                                       \-> GlobalAveragePool -> z
// plus a dead branch and a decomposed LayerNorm on a second input.
Graph PipelineGraph() {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int xi = g.AddNode("Identity", {x});
  const int bn = AddBatchNorm(&g, AddConv(&g, xi, 3, 4, 51), 4, 52);
  const int hs = AddDecomposedHardSwish(&g, bn, HardSwishForm::kMulThenDiv);
  g.AddNode("Sigmoid", {hs});  // dead
  g.AddOutput(Named(&g, g.AddNode("Relu", {AddConv(&g, hs, 4, 2, 53)}), "y"));
  g.AddOutput(Named(&g, g.AddNode("GlobalAveragePool", {hs}), "z"));
  const int t = Input(&g, "t", {1, 5, 16});
  g.AddOutput(Named(&g, AddDecomposedLayerNorm(&g, t, LayerNormSpec()), "n"));
  return g;
}

TEST(PassPipeline, RunsEveryPass) {
  Graph g = PipelineGraph();
  const Graph before = g;
  ASSERT_TRUE(compiler::RunPasses(compiler::PassOptions(), &g).ok());
  // The recognized HardSwish reads the folded Conv's output alone, so it fuses
  // (its own output having three readers, one dead, does not matter).
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Conv", "GlobalAveragePool", "LayerNormalization"}));
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "HardSwish");
  EXPECT_EQ(StringAttr(g.nodes()[1], "activation"), "Relu");
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

TEST(PassPipeline, RecognizedHardSwishFusesIntoConv) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int bn = AddBatchNorm(&g, AddConv(&g, x, 3, 4, 54), 4, 55);
  Attributes a;
  a.SetFloat("alpha", 1.0f / 6.0f);
  g.AddOutput(Named(&g, g.AddNode("Mul", {bn, g.AddNode("HardSigmoid", {bn}, a)}), "y"));
  const Graph before = g;
  ASSERT_TRUE(compiler::RunPasses(compiler::PassOptions(), &g).ok());
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "HardSwish");
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

// PP-LCNetV3's block as paddle2onnx writes it: Conv -> Mul(scale) -> Add(bias)
// -> hard-swish -> Mul(scale) -> Add(bias): the first affine folds into the
// weights; the second becomes the Conv's output affine when Build runs
// FuseOutputAffines.
TEST(PassPipeline, LearnableAffineBlock) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 73);
  const int lab1 = g.AddNode("Add", {g.AddNode("Mul", {c, Scalar(&g, "s1", 1.3f)}), Scalar(&g, "b1", -0.2f)});
  const int hs = AddDecomposedHardSwish(&g, lab1, HardSwishForm::kClipInputs);
  const int lab2 = g.AddNode("Add", {g.AddNode("Mul", {hs, Scalar(&g, "s2", 0.9f)}), Scalar(&g, "b2", 0.1f)});
  g.AddOutput(Named(&g, lab2, "y"));
  const Graph before = g;
  ASSERT_TRUE(compiler::RunPasses(compiler::PassOptions(), &g).ok());
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Mul", "Add"}));
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "HardSwish");
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
  // Build fuses the second affine last (compiler/passes/passes.h).
  EXPECT_EQ(Apply(compiler::FuseOutputAffines, &g), 1);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(FloatsAttr(g.nodes()[0], "activation_scale"), Floats{0.9f});
  EXPECT_EQ(FloatsAttr(g.nodes()[0], "activation_shift"), Floats{0.1f});
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

// ConvTranspose-free relative of the PP-OCRv4 det head: Conv -> Add(bias as
// [1,C,1,1]) -> BatchNormalization -> Relu. The affine and BN folds alternate.
TEST(PassPipeline, ConvBiasAddThenBatchNorm) {
  Graph g;
  const int x = Input(&g, "x", {1, 3, 6, 6});
  const int c = AddConv(&g, x, 3, 4, 74, /*bias=*/false);
  const int a = g.AddNode("Add", {c, g.AddFloatConstant("bias", {1, 4, 1, 1}, RandomFloats(4, 75))});
  g.AddOutput(Named(&g, g.AddNode("Relu", {AddBatchNorm(&g, a, 4, 76)}), "y"));
  const Graph before = g;
  ASSERT_TRUE(compiler::RunPasses(compiler::PassOptions(), &g).ok());
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(StringAttr(g.nodes()[0], "activation"), "Relu");
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

TEST(PassPipeline, OptionsTurnPassesOff) {
  Graph g = PipelineGraph();
  const Graph before = g;
  compiler::PassOptions options;
  options.fuse_activations = false;
  options.fold_batchnorm = false;
  options.fold_conv_affine = false;
  options.recognize_patterns = false;
  ASSERT_TRUE(compiler::RunPasses(options, &g).ok());
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 1);
  EXPECT_EQ(CountOps(g, "Relu"), 1);
  EXPECT_EQ(CountOps(g, "Clip"), 1);
  EXPECT_EQ(CountOps(g, "ReduceMean"), 2);
  EXPECT_EQ(CountOps(g, "Identity"), 0);  // cleanup always runs
  EXPECT_EQ(CountOps(g, "Sigmoid"), 0);
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g, -2.0f, 2.0f);
}

TEST(PassPipeline, ConvReluFixture) {
  Graph g = testing::ConvReluPoolGraph();
  const Graph before = g;
  ASSERT_TRUE(compiler::RunPasses(compiler::PassOptions(), &g).ok());
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "GlobalAveragePool"}));
  ExpectInterfaceKept(before, g);
  ExpectSameResults(before, g);
}

}  // namespace
}  // namespace npurt
