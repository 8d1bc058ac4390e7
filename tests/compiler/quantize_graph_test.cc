// The int8 rewrite (compiler/quant/quantize_graph.h) end to end on a small
// CNN: calibrate on .npy samples, quantize, emit, run through the runtime, and
// compare with the float model; plus the structure of the rewritten graph.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/emit/emitter.h"
#include "compiler/quant/calibrator.h"
#include "compiler/quant/quantize_graph.h"
#include "runtime/core/npy.h"
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

// x[1,3,8,8] -> Conv 3x3 + Relu -> MaxPool 2 -> LayerNormalization (no int8
// form: stays float between a Dequantize and a Quantize) -> Conv 1x1 ->
// GlobalAveragePool -> Flatten -> Gemm -> y[1,3].
Graph SmallCnn() {
  std::mt19937 rng(7);
  Graph g;
  const int x = g.AddTensor("x", {1, 3, 8, 8}, DataType::kFloat32);
  g.AddInput(x);
  Attributes conv1;
  conv1.SetInts("pads", {1, 1, 1, 1});
  conv1.SetString("activation", "Relu");
  const int c1 = g.AddNode("Conv",
                           {x, g.AddFloatConstant("w1", {4, 3, 3, 3}, Random(&rng, 108, -0.5f, 0.5f)),
                            g.AddFloatConstant("b1", {4}, Random(&rng, 4, -0.2f, 0.2f))},
                           conv1, 1, "conv1");
  Attributes pool;
  pool.SetInts("kernel_shape", {2, 2});
  pool.SetInts("strides", {2, 2});
  const int p = g.AddNode("MaxPool", {c1}, pool, 1, "pool");
  const int ln = g.AddNode("LayerNormalization",
                           {p, g.AddFloatConstant("ln.scale", {4}, {1.0f, 0.5f, 2.0f, 1.5f}),
                            g.AddFloatConstant("ln.bias", {4}, {0.1f, -0.1f, 0.0f, 0.2f})},
                           {}, 1, "ln");
  const int c2 = g.AddNode("Conv",
                           {ln, g.AddFloatConstant("w2", {2, 4, 1, 1}, Random(&rng, 8, -1.0f, 1.0f)),
                            g.AddFloatConstant("b2", {2}, {0.3f, -0.3f})},
                           {}, 1, "conv2");
  const int gap = g.AddNode("GlobalAveragePool", {c2}, {}, 1, "gap");
  const int flat = g.AddNode("Flatten", {gap}, {}, 1, "flatten");
  Attributes gemm;
  gemm.SetInt("transB", 1);
  const int y = g.AddNode("Gemm",
                          {flat, g.AddFloatConstant("w3", {3, 2}, Random(&rng, 6, -1.0f, 1.0f)),
                           g.AddFloatConstant("b3", {3}, {0.05f, 0.0f, -0.05f})},
                          gemm, 1, "gemm");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  EXPECT_TRUE(g.InferShapes().ok());
  return g;
}

class QuantizeGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/npurt_quant_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::mt19937 rng(11);
    std::ofstream list(dir_ + "/dataset.txt");
    for (int i = 0; i < 64; ++i) {
      npy::NpyArray a;
      a.shape = {1, 3, 8, 8};
      const std::vector<float> v = Random(&rng, 192, -1.0f, 1.0f);
      a.data.assign(reinterpret_cast<const uint8_t*>(v.data()), reinterpret_cast<const uint8_t*>(v.data() + v.size()));
      const std::string name = "sample" + std::to_string(i) + ".npy";
      ASSERT_TRUE(npy::WriteNpy(dir_ + "/" + name, a).ok());
      list << name << "\n";
    }
    held_out_ = Random(&rng, 192, -1.0f, 1.0f);
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // Builds make() as float and as all-int8 (Build runs its last fusions on both); `report` gets the int8 one's.
  void BuildFloatAndInt8(const std::function<Graph()>& make, Graph* fg, Graph* qg, std::vector<uint8_t>* float_model,
                         std::vector<uint8_t>* int8_model, BuildReport* report) {
    CompileOptions o;
    *fg = make();
    ASSERT_TRUE(fg->InferShapes().ok());
    ASSERT_TRUE(Build(o, fg, float_model, nullptr).ok());
    o.quantize = true;
    o.dataset = dir_ + "/dataset.txt";
    o.int16_mac_budget = 0.0;  // everything int8
    *qg = make();
    ASSERT_TRUE(qg->InferShapes().ok());
    const Status s = Build(o, qg, int8_model, report);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  // The graph's one node, a Conv writing the output "y"; nullptr (with a failure) otherwise.
  static const IrNode* FusedConv(const Graph& g) {
    EXPECT_EQ(g.nodes().size(), 1u);
    if (g.nodes().size() != 1 || g.nodes()[0].op_type != "Conv") {
      ADD_FAILURE() << "expected one Conv";
      return nullptr;
    }
    EXPECT_EQ(g.tensors()[g.nodes()[0].outputs[0]].name, "y");
    return &g.nodes()[0];
  }
  // The int8 model's one output, an int8 tensor, within three of its steps of the float model's on the held-out
  // sample.
  void ExpectInt8NearFloat(const Graph& qg, const std::vector<uint8_t>& float_model,
                           const std::vector<uint8_t>& int8_model) {
    const IrTensor& y = qg.tensors()[qg.outputs()[0]];
    ASSERT_EQ(y.dtype, DataType::kInt8);
    const float step = y.quant.scale[0];
    const auto want = testing::RunModelFile(float_model, {held_out_});
    const auto got = testing::RunModelFile(int8_model, {held_out_});
    ASSERT_EQ(want.size(), 1u);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(got[0].size(), want[0].size());
    for (size_t i = 0; i < want[0].size(); ++i) EXPECT_NEAR(got[0][i], want[0][i], 3 * step) << "element " << i;
  }

  // Calibrates SmallCnn on the dataset and quantizes it.
  Status Quantize(const QuantizeOptions& options, Graph* g, QuantizeReport* report) {
    *g = SmallCnn();
    std::vector<uint8_t> float_model;
    NPURT_RETURN_IF_ERROR(EmitModel(*g, EmitOptions(), &float_model));
    std::vector<DatasetSample> samples;
    NPURT_RETURN_IF_ERROR(ReadDatasetFile(dir_ + "/dataset.txt", 1, &samples));
    CalibrationOptions calibration;
    calibration.progress = false;
    std::map<std::string, TensorStats> stats;
    NPURT_RETURN_IF_ERROR(Calibrate(float_model, samples, calibration, &stats));
    return QuantizeGraph(stats, options, g, report);
  }

  static const IrNode* Node(const Graph& g, const std::string& name) {
    for (const IrNode& n : g.nodes()) {
      if (n.name == name) return &n;
    }
    return nullptr;
  }

  std::string dir_;
  std::vector<float> held_out_;
};

double Cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) ab += a[i] * b[i], aa += a[i] * a[i], bb += b[i] * b[i];
  return ab / std::sqrt(aa * bb);
}

// Output cosine of the quantized SmallCnn `g` against the float one on `input`; 0 (and a failure) if either
// cannot be emitted or run. `detail` gets both outputs for the failure message.
double CosineToFloat(const Graph& g, const std::vector<float>& input, std::string* detail) {
  std::vector<uint8_t> int8_model, float_model;
  if (!EmitModel(g, EmitOptions(), &int8_model).ok() || !EmitModel(SmallCnn(), EmitOptions(), &float_model).ok()) {
    ADD_FAILURE() << "cannot emit the models";
    return 0.0;
  }
  const auto want = testing::RunModelFile(float_model, {input});
  const auto got = testing::RunModelFile(int8_model, {input});
  if (want.size() != 1 || got.size() != 1) {
    ADD_FAILURE() << "expected one output from each model, got " << want.size() << " and " << got.size();
    return 0.0;
  }
  *detail = "quantized vs float: " + ::testing::PrintToString(got[0]) + " vs " + ::testing::PrintToString(want[0]);
  return Cosine(got[0], want[0]);
}

TEST_F(QuantizeGraphTest, ConvPoolGemmRunInInt8AndMatchFloat) {
  Graph g;
  QuantizeReport report;
  ASSERT_TRUE(Quantize(QuantizeOptions(), &g, &report).ok());
  // conv1, pool, conv2, gap, flatten, gemm in int8; LayerNormalization in float
  // between one DequantizeLinear and one QuantizeLinear.
  EXPECT_EQ(report.int8_nodes, 6);
  EXPECT_EQ(report.float_nodes, 1);
  EXPECT_EQ(report.boundary_nodes, 2);
  EXPECT_EQ(report.float_macs, 0);
  EXPECT_EQ(report.int8_macs, 4 * 8 * 8 * 27 + 2 * 4 * 4 * 4 + 3 * 2);
  ASSERT_EQ(report.float_reasons.size(), 1u);
  EXPECT_NE(report.float_reasons[0].find("'ln' (LayerNormalization)"), std::string::npos);

  const IrNode* conv1 = Node(g, "conv1");
  ASSERT_NE(conv1, nullptr);
  const IrTensor& w1 = g.tensors()[conv1->inputs[1]];
  EXPECT_EQ(w1.dtype, DataType::kInt8);
  EXPECT_EQ(w1.quant.axis, 0);
  EXPECT_EQ(w1.quant.scale.size(), 4u);
  const IrTensor& b1 = g.tensors()[conv1->inputs[2]];
  EXPECT_EQ(b1.dtype, DataType::kInt32);
  // The graph input is fed in int8; the output leaves in int8 (want_float dequantizes).
  EXPECT_EQ(g.tensors()[g.inputs()[0].tensor].dtype, DataType::kInt8);
  EXPECT_EQ(g.tensors()[g.outputs()[0]].dtype, DataType::kInt8);
  // MaxPool and Flatten keep their input's parameters.
  const IrNode* pool = Node(g, "pool");
  EXPECT_EQ(g.tensors()[pool->outputs[0]].quant.scale, g.tensors()[pool->inputs[0]].quant.scale);

  std::string detail;
  EXPECT_GE(CosineToFloat(g, held_out_, &detail), 0.99) << detail;
}

TEST_F(QuantizeGraphTest, LayerMethodQuantizesWeightsPerTensor) {
  Graph g;
  QuantizeReport report;
  QuantizeOptions options;
  options.per_channel = false;
  ASSERT_TRUE(Quantize(options, &g, &report).ok());
  const IrTensor& w1 = g.tensors()[Node(g, "conv1")->inputs[1]];
  EXPECT_EQ(w1.quant.axis, -1);
  EXPECT_EQ(w1.quant.scale.size(), 1u);
}

TEST_F(QuantizeGraphTest, FloatLayersStayFloatBehindBoundaries) {
  Graph g;
  QuantizeReport report;
  QuantizeOptions options;
  options.float_layers = {"conv2"};
  ASSERT_TRUE(Quantize(options, &g, &report).ok());
  EXPECT_EQ(report.float_macs, 2 * 4 * 4 * 4);
  const IrNode* conv2 = Node(g, "conv2");
  EXPECT_EQ(g.tensors()[conv2->inputs[1]].dtype, DataType::kFloat32);
  // LayerNormalization and conv2 are float back to back: no boundary between them.
  EXPECT_EQ(g.tensors()[conv2->inputs[0]].dtype, DataType::kFloat32);
  std::vector<uint8_t> model;
  ASSERT_TRUE(EmitModel(g, EmitOptions(), &model).ok());
  EXPECT_EQ(testing::RunModelFile(model, {held_out_}).size(), 1u);
}

// A float layer inside an int16 region hands its output on in int16: the boundary after it
// quantizes to what its readers read, not to int8 (an int8 step there costs the region its precision).
TEST_F(QuantizeGraphTest, FloatLayerInsideInt16RegionQuantizesToInt16) {
  Graph g;
  QuantizeReport report;
  QuantizeOptions options;
  options.float_layers = {"conv2"};
  options.int16_mac_budget = 1.0;
  ASSERT_TRUE(Quantize(options, &g, &report).ok());
  const IrNode* conv2 = Node(g, "conv2");
  ASSERT_NE(conv2, nullptr);
  const IrNode* gap = Node(g, "gap");
  ASSERT_NE(gap, nullptr);
  const IrTensor& gap_in = g.tensors()[gap->inputs[0]];
  EXPECT_EQ(gap_in.dtype, DataType::kInt16);
  EXPECT_EQ(gap_in.name, g.tensors()[conv2->outputs[0]].name + ":int16");
  ASSERT_EQ(gap_in.quant.zero_point.size(), 1u);
  EXPECT_EQ(gap_in.quant.zero_point[0], 0);  // int16 is symmetric
  std::string detail;
  EXPECT_GE(CosineToFloat(g, held_out_, &detail), 0.99) << detail;
}

// Bias correction, hand-computed: x[1,2,1,1] with channel means 2 and 5 -> Conv 1x1, weights {1.0, 0.3}, no bias.
// Per-channel int8 weights: scale 1/127, codes {127, 38}; 38/127 = 0.299213 rounds 0.3 down by 0.000787, which
// lowers the output's mean by 0.000787 * 5: the conv gets a bias of +0.003937 (in int32 codes of scale_x * scale_w).
TEST(BiasCorrection, HandComputedShiftGoesIntoANewBias) {
  for (bool correct : {true, false}) {
    Graph g;
    const int x = g.AddTensor("x", {1, 2, 1, 1}, DataType::kFloat32);
    g.AddInput(x);
    const int y = g.AddNode("Conv", {x, g.AddFloatConstant("w", {1, 2, 1, 1}, {1.0f, 0.3f})}, {}, 1, "conv");
    g.tensors()[y].name = "y";
    g.AddOutput(y);
    ASSERT_TRUE(g.InferShapes().ok());
    std::map<std::string, TensorStats> stats;
    stats["x"].min = -1.0f, stats["x"].max = 10.0f, stats["x"].count = 8;
    stats["x"].channel_absmax = {3.0f, 10.0f};
    stats["x"].channel_sum = {8.0, 20.0};  // 4 values each: means 2 and 5
    stats["x"].channel_count = {4, 4};
    stats["y"].min = -2.0f, stats["y"].max = 6.0f, stats["y"].count = 4;
    QuantizeOptions options;
    EXPECT_FALSE(options.bias_correction);  // an option, not the default (docs/quantization.md)
    options.bias_correction = correct;
    QuantizeReport report;
    ASSERT_TRUE(QuantizeGraph(stats, options, &g, &report).ok());
    const IrNode* conv = nullptr;
    for (const IrNode& n : g.nodes()) conv = n.op_type == "Conv" ? &n : conv;
    ASSERT_NE(conv, nullptr);
    const IrTensor& w = g.tensors()[conv->inputs[1]];
    ASSERT_EQ(w.dtype, DataType::kInt8);
    EXPECT_EQ(w.data, (std::vector<uint8_t>{127, 38}));
    if (!correct) {
      EXPECT_TRUE(conv->inputs.size() < 3 || conv->inputs[2] < 0);  // no bias added
      continue;
    }
    ASSERT_EQ(conv->inputs.size(), 3u);
    const IrTensor& b = g.tensors()[conv->inputs[2]];
    ASSERT_EQ(b.dtype, DataType::kInt32);
    ASSERT_EQ(b.data.size(), 4u);
    int32_t code = 0;
    std::memcpy(&code, b.data.data(), 4);
    const double sx = g.tensors()[conv->inputs[0]].quant.scale[0], sw = w.quant.scale[0];
    EXPECT_FLOAT_EQ(static_cast<float>(sx), 11.0f / 255.0f);
    EXPECT_FLOAT_EQ(static_cast<float>(sw), 1.0f / 127.0f);
    const double shift = (127 * sw - 1.0) * 2.0 + (38 * sw - 0.3) * 5.0;  // -0.003937
    EXPECT_EQ(code, static_cast<int32_t>(std::lround(-shift / (sx * sw))));
    EXPECT_EQ(code, 12);  // 0.003937 / (11/255 / 127) = 11.59
  }
}

// PP-LCNetV3's affine after a HardSwish: Build quantizes the separate Mul and Add (calibration, smoothing
// and bias correction see them), then fuses them into the Conv, which writes the Add's int8 tensor; the
// int8 model stays within a few output steps of the float one, and Build's float model fuses too.
TEST_F(QuantizeGraphTest, BuildFusesTheOutputAffineAfterQuantization) {
  auto lab_graph = [] {
    Graph g;
    const int x = g.AddTensor("x", {1, 3, 8, 8}, DataType::kFloat32);
    g.AddInput(x);
    std::mt19937 rng(5);
    Attributes conv;
    conv.SetInts("pads", {1, 1, 1, 1});
    conv.SetString("activation", "HardSwish");
    const int c = g.AddNode("Conv", {x, g.AddFloatConstant("w", {4, 3, 3, 3}, Random(&rng, 108, -0.5f, 0.5f))}, conv,
                            1, "conv");
    const int m = g.AddNode("Mul", {c, g.AddFloatConstant("s", {1}, {0.8f})}, {}, 1, "mul");
    const int b = g.AddFloatConstant("b", {1, 4, 1, 1}, {0.5f, -0.25f, 0.1f, 0.3f});
    const int y = g.AddNode("Add", {m, b}, {}, 1, "add");
    g.tensors()[y].name = "y";
    g.AddOutput(y);
    return g;
  };
  Graph fg, qg;
  std::vector<uint8_t> float_model, int8_model;
  BuildReport report;
  ASSERT_NO_FATAL_FAILURE(BuildFloatAndInt8(lab_graph, &fg, &qg, &float_model, &int8_model, &report));
  for (const Graph* g : {&fg, &qg}) {
    const IrNode* fused = FusedConv(*g);
    ASSERT_NE(fused, nullptr);
    const IrNode& conv = *fused;
    std::vector<float> scale, shift;
    EXPECT_TRUE(conv.attrs.GetFloats("activation_scale", {}, &scale).ok());
    EXPECT_TRUE(conv.attrs.GetFloats("activation_shift", {}, &shift).ok());
    EXPECT_EQ(scale, std::vector<float>{0.8f});
    EXPECT_EQ(shift, (std::vector<float>{0.5f, -0.25f, 0.1f, 0.3f}));
  }
  EXPECT_EQ(report.quant.int8_nodes, 3);  // Conv, Mul and Add were quantized, then fused
  ExpectInt8NearFloat(qg, float_model, int8_model);
}

// Conv -> Add(x) with the Add's Relu: Build quantizes both ops, then fuses the Add into the Conv (a residual
// input; the Conv writes the Add's int8 tensor), float and int8 alike; the int8 model stays within a few steps.
TEST_F(QuantizeGraphTest, BuildFusesResidualAddsAfterQuantization) {
  auto block = [] {
    Graph g;
    const int x = g.AddTensor("x", {1, 3, 8, 8}, DataType::kFloat32);
    g.AddInput(x);
    std::mt19937 rng(6);
    Attributes conv;
    conv.SetInts("pads", {1, 1, 1, 1});
    const int c = g.AddNode("Conv", {x, g.AddFloatConstant("w", {3, 3, 3, 3}, Random(&rng, 81, -0.5f, 0.5f))}, conv,
                            1, "conv");
    Attributes relu;
    relu.SetString("activation", "Relu");
    const int y = g.AddNode("Add", {c, x}, relu, 1, "add");
    g.tensors()[y].name = "y";
    g.AddOutput(y);
    return g;
  };
  Graph fg, qg;
  std::vector<uint8_t> float_model, int8_model;
  BuildReport report;
  ASSERT_NO_FATAL_FAILURE(BuildFloatAndInt8(block, &fg, &qg, &float_model, &int8_model, &report));
  for (const Graph* g : {&fg, &qg}) {
    const IrNode* fused = FusedConv(*g);
    ASSERT_NE(fused, nullptr);
    const IrNode& conv = *fused;
    ASSERT_EQ(conv.inputs.size(), 4u);
    EXPECT_EQ(g->tensors()[conv.inputs[3]].name, "x");
    std::string activation;
    EXPECT_TRUE(conv.attrs.GetString("activation", "", &activation).ok());
    EXPECT_EQ(activation, "Relu");
  }
  EXPECT_EQ(report.quant.int8_nodes, 2);  // Conv and Add were quantized, then fused
  ExpectInt8NearFloat(qg, float_model, int8_model);
}

// The measured (empirical) correction, hand-computed: x[1,1,1,2] -> Conv 1x1, weight 1, no bias, calibrated and
// measured on the one sample x = [0.4, 255]. x's range [0, 255] has scale 1, so 0.4 reads as 0; y's too, so the
// conv alone writes [0, 255] where float has [0.4, 255]: its mean error is -0.2. The bias it gets moves the
// output by +0.2, i.e. round(0.2 / (scale_x 1 * scale_w 1/127)) = round(25.4) = 25 codes. Without the
// correction the conv has no bias at all.
TEST_F(QuantizeGraphTest, EmpiricalBiasCorrectionMovesTheBiasByTheMeasuredError) {
  npy::NpyArray a;
  a.shape = {1, 1, 1, 2};
  const float v[] = {0.4f, 255.0f};
  a.data.assign(reinterpret_cast<const uint8_t*>(v), reinterpret_cast<const uint8_t*>(v + 2));
  ASSERT_TRUE(npy::WriteNpy(dir_ + "/one.npy", a).ok());
  std::ofstream(dir_ + "/one.txt") << "one.npy\n";
  for (BiasCorrection mode : {BiasCorrection::kEmpirical, BiasCorrection::kNone}) {
    Graph g;
    const int x = g.AddTensor("x", {1, 1, 1, 2}, DataType::kFloat32);
    g.AddInput(x);
    const int y = g.AddNode("Conv", {x, g.AddFloatConstant("w", {1, 1, 1, 1}, {1.0f})}, {}, 1, "conv");
    g.tensors()[y].name = "y";
    g.AddOutput(y);
    ASSERT_TRUE(g.InferShapes().ok());
    CompileOptions o;
    EXPECT_EQ(o.bias_correction, BiasCorrection::kEmpirical);  // the default
    o.quantize = true;
    o.dataset = dir_ + "/one.txt";
    o.smooth_activations = false;
    o.int16_mac_budget = 0.0;
    o.bias_correction = mode;
    std::vector<uint8_t> model;
    const Status s = Build(o, &g, &model, nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
    const IrNode* conv = Node(g, "conv");
    ASSERT_NE(conv, nullptr);
    if (mode == BiasCorrection::kNone) {
      EXPECT_TRUE(conv->inputs.size() < 3 || conv->inputs[2] < 0);
      continue;
    }
    ASSERT_EQ(conv->inputs.size(), 3u);
    const IrTensor& b = g.tensors()[conv->inputs[2]];
    ASSERT_EQ(b.dtype, DataType::kInt32);
    int32_t code = 0;
    std::memcpy(&code, b.data.data(), 4);
    EXPECT_FLOAT_EQ(g.tensors()[conv->inputs[0]].quant.scale[0], 1.0f);
    EXPECT_FLOAT_EQ(g.tensors()[conv->inputs[1]].quant.scale[0], 1.0f / 127.0f);
    EXPECT_EQ(code, 25);
  }
}

TEST_F(QuantizeGraphTest, UnknownFloatLayerIsAnError) {
  Graph g;
  QuantizeReport report;
  QuantizeOptions options;
  options.float_layers = {"no_such_node"};
  const Status s = Quantize(options, &g, &report);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_NE(s.message().find("'no_such_node'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace compiler
}  // namespace npurt

namespace npurt {
namespace compiler {
namespace {

TEST(QuantizedStorage, NamesTheIntegerFormsAndTheFloatOnes) {
  for (const char* op : {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Concat", "Sigmoid", "Softmax",
                         "LogSoftmax", "Mish", "Reshape", "Transpose", "DepthToSpace", "Tile", "GatherElements",
                         "MaxPool"}) {
    EXPECT_STREQ(QuantizedStorage(op), "int8, int16") << op;
  }
  for (const char* op : {"LSTM", "LayerNormalization", "ReduceMean", "Equal", "Where", "ScatterND", "CumSum", "ArgMax",
                         "InstanceNormalization"}) {
    EXPECT_STREQ(QuantizedStorage(op), "float") << op;
  }
  EXPECT_STREQ(QuantizedStorage("QuantizeLinear"), "the boundaries themselves");
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
