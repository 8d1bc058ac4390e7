// compiler/quant/accuracy_analysis: the metrics on hand vectors, and the
// per-layer analysis of a two-layer int8 model whose every value is worked
// out by hand below (one layer adds an error, the next only inherits it, so
// "entire" and "single" differ in a known way).
#include "compiler/quant/accuracy_analysis.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/core/npy.h"
#include "tests/common/temp_files.h"
#include "tests/compiler/onnx_builder.h"

namespace npurt {
namespace compiler {
namespace {

using onnx_test::Floats;
using onnx_test::OnnxBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- metrics ----

TEST(AccuracyMetrics, HandVectors) {
  // ref·x = 1+4+9+20 = 34, |ref|² = 30, |x|² = 39, Σ(ref−x)² = 1.
  const float ref[] = {1, 2, 3, 4}, x[] = {1, 2, 3, 5};
  ErrorMetrics m = CompareValues(ref, x, 4);
  EXPECT_NEAR(m.cosine, 34.0 / std::sqrt(30.0 * 39.0), 1e-12);
  EXPECT_NEAR(m.cosine, 0.993999, 1e-6);  // 34 / 34.2053
  EXPECT_DOUBLE_EQ(m.euclidean, 1.0);
  EXPECT_NEAR(m.sqnr_db, 14.771213, 1e-6);  // 10·log10(30)

  // Orthogonal: cosine 0, distance √2, SQNR 10·log10(1/2).
  const float a[] = {1, 0}, b[] = {0, 1};
  m = CompareValues(a, b, 2);
  EXPECT_DOUBLE_EQ(m.cosine, 0.0);
  EXPECT_DOUBLE_EQ(m.euclidean, std::sqrt(2.0));
  EXPECT_NEAR(m.sqnr_db, -3.0103, 1e-4);

  // Opposite: cosine −1; x = 2·ref: cosine 1 but SQNR 0 dB (the error is as large as the signal).
  const float c[] = {-1, -2}, d[] = {1, 2}, e[] = {2, 4};
  EXPECT_DOUBLE_EQ(CompareValues(d, c, 2).cosine, -1.0);
  m = CompareValues(d, e, 2);
  EXPECT_NEAR(m.cosine, 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(m.sqnr_db, 0.0);
  EXPECT_DOUBLE_EQ(m.euclidean, std::sqrt(5.0));
}

TEST(AccuracyMetrics, ExactAndZeroVectors) {
  const float v[] = {0.5f, -3}, zero[] = {0, 0};
  ErrorMetrics m = CompareValues(v, v, 2);
  EXPECT_DOUBLE_EQ(m.cosine, 1.0);
  EXPECT_DOUBLE_EQ(m.euclidean, 0.0);
  EXPECT_EQ(m.sqnr_db, kInf);

  m = CompareValues(zero, zero, 2);  // both zero: identical
  EXPECT_DOUBLE_EQ(m.cosine, 1.0);
  EXPECT_EQ(m.sqnr_db, kInf);

  m = CompareValues(v, zero, 2);  // all signal lost
  EXPECT_DOUBLE_EQ(m.cosine, 0.0);
  EXPECT_DOUBLE_EQ(m.euclidean, std::sqrt(9.25));
  EXPECT_DOUBLE_EQ(m.sqnr_db, 0.0);

  m = CompareValues(zero, v, 2);  // noise where the reference is zero
  EXPECT_DOUBLE_EQ(m.cosine, 0.0);
  EXPECT_EQ(m.sqnr_db, -kInf);

  EXPECT_EQ(CompareValues(v, v, 0).cosine, 1.0);  // nothing to compare
}

TEST(AccuracyMetrics, SumsPoolLikeOneVector) {
  const float ref[] = {1, 2, 3, 4}, x[] = {1.5f, 2, 2, 4};
  ErrorSums split;
  split.Add(ref, x, 2);
  split.Add(ref + 2, x + 2, 2);
  const ErrorMetrics whole = CompareValues(ref, x, 4), pooled = split.Metrics();
  EXPECT_DOUBLE_EQ(pooled.cosine, whole.cosine);
  EXPECT_DOUBLE_EQ(pooled.euclidean, whole.euclidean);
  EXPECT_DOUBLE_EQ(pooled.sqnr_db, whole.sqnr_db);
  EXPECT_DOUBLE_EQ(whole.euclidean, std::sqrt(1.25));  // 0.5² + 1²
}

// ---- the analysis ----

using testing::TempDir;
using testing::WriteNpyFloats;

// x[1,2] -> m = Mul(x, c), c = [2.5, 0.5] -> y = Add(m, m).
//
// Calibrated on x = [102, 255]: x in [0, 255] (scale 1, zero point −128);
// m = [255, 127.5] in [0, 255] (scale 1); y = [510, 255] in [0, 510] (scale 2).
// c is quantized as an activation: [0, 2.5] at scale 2.5/255, so 2.5 -> 255
// steps and 0.5 -> 51 steps, both exact.
//
// Analysed on x = [0.4, 2]:
//   float:  m = [1, 1], y = [2, 2].
//   int8:   x -> [0, 2] (0.4 rounds to 0), m = [0, 1], y = [0, 2].
//   "mul"   entire = single (its input x is quantized either way):
//           [0, 1] vs [1, 1]: cosine 1/√2, euclidean 1, SQNR 10·log10(2/1).
//   "add"   entire: [0, 2] vs [2, 2]: cosine 1/√2, euclidean 2, SQNR 10·log10(8/4);
//           single: fed m = [1, 1] (on m's grid, exact) -> [2, 2]: cosine 1, euclidean 0, SQNR inf.
OnnxBuilder MulAddModel() {
  OnnxBuilder b(13);
  b.Input("x", {1, 2});
  b.FloatConstant("c", {2}, {2.5f, 0.5f});
  b.Node("Mul", {"x", "c"}, {"m"}, "mul");
  b.Node("Add", {"m", "m"}, {"y"}, "add");
  b.Output("y");
  return b;
}

struct Models {
  std::vector<uint8_t> float_model, quant_model;
};

void BuildModels(const OnnxBuilder& b, const TempDir& dir, const std::vector<std::string>& float_layers,
                 Models* models) {
  const std::string onnx = dir / "model.onnx";
  ASSERT_TRUE(b.Write(onnx));
  WriteNpyFloats(dir / "calib.npy", {1, 2}, {102, 255});
  std::ofstream(dir / "calib.txt") << "calib.npy\n";
  CompileOptions o;
  Status s = CompileOnnxFile(onnx, o, &models->float_model);
  ASSERT_TRUE(s.ok()) << s.message();
  o.quantize = true;
  o.dataset = dir / "calib.txt";
  o.float_layers = float_layers;
  // Plain w8a8 (rknn-toolkit2's normal): the hand-computed values below are int8 ones.
  o.smooth_activations = false;
  o.int16_mac_budget = 0.0;
  s = CompileOnnxFile(onnx, o, &models->quant_model);
  ASSERT_TRUE(s.ok()) << s.message();
}

DatasetSample Sample(const std::string& path) {
  DatasetSample s;
  s.paths = {path};
  return s;
}

void ExpectMetrics(const ErrorMetrics& m, double cosine, double euclidean, double sqnr_db, const std::string& what) {
  EXPECT_NEAR(m.cosine, cosine, 1e-6) << what;
  EXPECT_NEAR(m.euclidean, euclidean, 1e-5) << what;
  if (std::isinf(sqnr_db)) {
    EXPECT_EQ(m.sqnr_db, sqnr_db) << what;
  } else {
    EXPECT_NEAR(m.sqnr_db, sqnr_db, 1e-4) << what;
  }
}

const double kHalfSqrt2 = 1.0 / std::sqrt(2.0);
const double k3dB = 10.0 * std::log10(2.0);

TEST(AccuracyAnalysis, EntireAccumulatesSingleIsolatesTheLayer) {
  TempDir dir;
  Models models;
  ASSERT_NO_FATAL_FAILURE(BuildModels(MulAddModel(), dir, {}, &models));
  WriteNpyFloats(dir / "x.npy", {1, 2}, {0.4f, 2.0f});
  AccuracyReport report;
  Status s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, AccuracyOptions(),
                             &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(report.samples, 1u);
  ASSERT_EQ(report.layers.size(), 2u);

  const LayerAccuracy& mul = report.layers[0];
  EXPECT_EQ(mul.node, "mul");
  EXPECT_EQ(mul.op_type, "Mul");
  EXPECT_EQ(mul.tensor, "m");
  EXPECT_EQ(mul.reference, "m");
  EXPECT_EQ(mul.precision, "int8");
  EXPECT_EQ(mul.macs, 0);
  ExpectMetrics(mul.entire, kHalfSqrt2, 1.0, k3dB, "mul entire");
  ExpectMetrics(mul.single, kHalfSqrt2, 1.0, k3dB, "mul single");

  const LayerAccuracy& add = report.layers[1];
  EXPECT_EQ(add.node, "add");
  EXPECT_EQ(add.op_index, 1);
  ExpectMetrics(add.entire, kHalfSqrt2, 2.0, k3dB, "add entire");
  ExpectMetrics(add.single, 1.0, 0.0, kInf, "add single");

  ASSERT_EQ(report.outputs.size(), 1u);
  EXPECT_EQ(report.outputs[0].name, "y");
  ExpectMetrics(report.outputs[0].metrics, kHalfSqrt2, 2.0, k3dB, "output");

  // The worst by single cosine first; ties keep execution order.
  EXPECT_EQ(WorstLayers(report, 5), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(WorstLayers(report, 1), (std::vector<size_t>{0}));

  // Only "single" (what --auto-hybrid needs): "entire" keeps its defaults.
  AccuracyOptions single_only;
  single_only.entire = false;
  s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, single_only, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectMetrics(report.layers[1].single, 1.0, 0.0, kInf, "add single only");
  EXPECT_EQ(report.layers[1].entire.cosine, 1.0);
  EXPECT_EQ(report.layers[1].entire.euclidean, 0.0);
}

// AccuracyOptions::dump_dir: the first sample's values of every compared layer, float and int8, by row.
TEST(AccuracyAnalysis, DumpsGoldenAndSimulatorLayers) {
  TempDir dir;
  Models models;
  ASSERT_NO_FATAL_FAILURE(BuildModels(MulAddModel(), dir, {}, &models));
  WriteNpyFloats(dir / "x.npy", {1, 2}, {0.4f, 2.0f});
  WriteNpyFloats(dir / "x2.npy", {1, 2}, {255.0f, 255.0f});
  AccuracyOptions options;
  options.dump_dir = dir / "snapshot";
  AccuracyReport report;
  Status s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy"), Sample(dir / "x2.npy")},
                             options, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  std::ifstream map_file(dir / "snapshot/map_name_to_file.txt");
  std::stringstream map;
  map << map_file.rdbuf();
  EXPECT_EQ(map.str(), "m 0_m.npy\ny 1_y.npy\n");
  // The numbers of EntireAccumulatesSingleIsolatesTheLayer: float m = [1, 1], y = [2, 2]; int8 m = [0, 1], y = [0, 2].
  const struct {
    const char* file;
    std::vector<float> values;
  } expected[] = {{"golden/0_m.npy", {1, 1}}, {"simulator/0_m.npy", {0, 1}},
                  {"golden/1_y.npy", {2, 2}}, {"simulator/1_y.npy", {0, 2}}};
  for (const auto& e : expected) {
    npy::NpyArray a;
    ASSERT_TRUE(npy::ReadNpy(dir / (std::string("snapshot/") + e.file), &a).ok()) << e.file;
    EXPECT_EQ(a.dtype, DataType::kFloat32) << e.file;
    EXPECT_EQ(a.shape, (Shape{1, 2})) << e.file;
    ASSERT_EQ(a.data.size(), 8u) << e.file;
    std::vector<float> values(2);
    std::memcpy(values.data(), a.data.data(), 8);
    EXPECT_EQ(values, e.values) << e.file;  // the first sample's, not the second's
  }
  // A directory that cannot be made is an error naming it.
  std::ofstream(dir / "file") << "x";
  options.dump_dir = dir / "file/sub";
  s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, options, &report);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_NE(s.message().find("file/sub"), std::string::npos) << s.message();
}

// Per-channel mean errors of "single" (what the measured bias correction uses), on MulAddModel's numbers with a
// channel axis: x[1,2,1] = [0.4, 2] -> mul writes [0, 1] for [1, 1] (channel 0 off by -1, channel 1 exact);
// add, fed m = [1, 1], is exact.
TEST(AccuracyAnalysis, ChannelBiasOfTheSingleRun) {
  TempDir dir;
  OnnxBuilder b(13);
  b.Input("x", {1, 2, 1});
  b.FloatConstant("c", {2, 1}, {2.5f, 0.5f});
  b.Node("Mul", {"x", "c"}, {"m"}, "mul");
  b.Node("Add", {"m", "m"}, {"y"}, "add");
  b.Output("y");
  const std::string onnx = dir / "model.onnx";
  ASSERT_TRUE(b.Write(onnx));
  WriteNpyFloats(dir / "calib.npy", {1, 2, 1}, {102, 255});
  std::ofstream(dir / "calib.txt") << "calib.npy\n";
  CompileOptions o;
  Models models;
  ASSERT_TRUE(CompileOnnxFile(onnx, o, &models.float_model).ok());
  o.quantize = true;
  o.dataset = dir / "calib.txt";
  o.smooth_activations = false;
  o.int16_mac_budget = 0.0;
  ASSERT_TRUE(CompileOnnxFile(onnx, o, &models.quant_model).ok());
  WriteNpyFloats(dir / "x.npy", {1, 2, 1}, {0.4f, 2.0f});
  AccuracyOptions options;
  options.entire = false;
  options.channel_bias = true;
  AccuracyReport report;
  const Status s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, options, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(report.layers.size(), 2u);
  ASSERT_EQ(report.layers[0].single_channel_bias.size(), 2u);
  EXPECT_NEAR(report.layers[0].single_channel_bias[0], -1.0, 1e-6);
  EXPECT_NEAR(report.layers[0].single_channel_bias[1], 0.0, 1e-6);
  EXPECT_EQ(report.layers[1].single_channel_bias, (std::vector<double>{0.0, 0.0}));
  options.channel_bias = false;  // not asked: empty
  ASSERT_TRUE(AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, options, &report).ok());
  EXPECT_TRUE(report.layers[0].single_channel_bias.empty());
}

TEST(AccuracyAnalysis, SeveralSamplesAverageCosineAndPoolSqnr) {
  TempDir dir;
  Models models;
  ASSERT_NO_FATAL_FAILURE(BuildModels(MulAddModel(), dir, {}, &models));
  WriteNpyFloats(dir / "x.npy", {1, 2}, {0.4f, 2.0f});
  // Exact in int8: x = [2, 4] -> m = [5, 2], y = [10, 4] (all on their grids).
  WriteNpyFloats(dir / "exact.npy", {1, 2}, {2.0f, 4.0f});
  AccuracyReport report;
  Status s = AnalyzeAccuracy(models.float_model, models.quant_model,
                             {Sample(dir / "x.npy"), Sample(dir / "exact.npy")}, AccuracyOptions(), &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(report.samples, 2u);
  ASSERT_EQ(report.layers.size(), 2u);
  // add, entire: cosines 1/√2 and 1 -> mean; euclidean 2 and 0 -> 1;
  // SQNR over both: (8 + 116) / (4 + 0) -> 10·log10(31).
  ExpectMetrics(report.layers[1].entire, (kHalfSqrt2 + 1.0) / 2, 1.0, 10.0 * std::log10(31.0), "add entire");
  ExpectMetrics(report.layers[1].single, 1.0, 0.0, kInf, "add single");
}

TEST(AccuracyAnalysis, FloatLayerAndItsBoundaries) {
  // "add" kept in float: m is dequantized for it ('m:dequantize' -> 'm:float', compared with m).
  TempDir dir;
  Models models;
  ASSERT_NO_FATAL_FAILURE(BuildModels(MulAddModel(), dir, {"add"}, &models));
  WriteNpyFloats(dir / "x.npy", {1, 2}, {0.4f, 2.0f});
  AccuracyReport report;
  Status s = AnalyzeAccuracy(models.float_model, models.quant_model, {Sample(dir / "x.npy")}, AccuracyOptions(),
                             &report);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(report.layers.size(), 3u);
  EXPECT_EQ(report.layers[0].node, "mul");
  const LayerAccuracy& dq = report.layers[1];
  EXPECT_EQ(dq.op_type, "DequantizeLinear");
  EXPECT_EQ(dq.node, "m:dequantize");
  EXPECT_EQ(dq.tensor, "m:float");
  EXPECT_EQ(dq.reference, "m");
  EXPECT_EQ(dq.precision, "float32");
  ExpectMetrics(dq.entire, kHalfSqrt2, 1.0, k3dB, "dequantize entire");
  ExpectMetrics(dq.single, 1.0, 0.0, kInf, "dequantize single");  // m = [1, 1] is on m's grid
  const LayerAccuracy& add = report.layers[2];
  EXPECT_EQ(add.precision, "float32");
  ExpectMetrics(add.entire, kHalfSqrt2, 2.0, k3dB, "float add entire");
  ExpectMetrics(add.single, 1.0, 0.0, kInf, "float add single");
}

TEST(AccuracyAnalysis, ErrorsNameTheProblem) {
  TempDir dir;
  Models models;
  ASSERT_NO_FATAL_FAILURE(BuildModels(MulAddModel(), dir, {}, &models));
  WriteNpyFloats(dir / "x.npy", {1, 2}, {0.4f, 2.0f});
  WriteNpyFloats(dir / "big.npy", {1, 3}, {1, 2, 3});
  AccuracyReport report;
  auto expect_error = [&](const std::vector<uint8_t>& f, const std::vector<uint8_t>& q,
                          const std::vector<DatasetSample>& samples, const std::string& text) {
    const Status s = AnalyzeAccuracy(f, q, samples, AccuracyOptions(), &report);
    EXPECT_FALSE(s.ok()) << text;
    EXPECT_NE(s.message().find(text), std::string::npos) << "message: " << s.message();
  };
  expect_error(models.float_model, models.quant_model, {}, "accuracy analysis: no samples");
  expect_error({}, models.quant_model, {Sample(dir / "x.npy")}, "the float model is empty");
  expect_error(models.float_model, {1, 2, 3}, {Sample(dir / "x.npy")}, "the quantized model: ");
  expect_error(models.float_model, models.quant_model, {Sample(dir / "missing.npy")}, "sample 1: input 0 'x': ");
  expect_error(models.float_model, models.quant_model, {Sample(dir / "x.npy"), Sample(dir / "big.npy")},
               "sample 2: input 0 'x': '" + (dir / "big.npy") + "' [1,3] holds 3 values, the input [1,2] needs 2");
  DatasetSample two = Sample(dir / "x.npy");
  two.paths.push_back(dir / "x.npy");
  expect_error(models.float_model, models.quant_model, {two}, "sample 1: 2 paths for a model with 1 input");

  // Models that are not two versions of one graph.
  OnnxBuilder other(13);
  other.Input("x", {1, 3});
  other.Node("Relu", {"x"}, {"y"}, "relu");
  other.Output("y");
  std::vector<uint8_t> other_model;
  ASSERT_TRUE(onnx_test::Convert(other, CompileOptions(), &other_model).ok());
  expect_error(other_model, models.quant_model, {Sample(dir / "x.npy")},
               "input 0 is 'x' [1,3] in the float model but 'x' [1,2] in the quantized one");
}

TEST(AccuracyReportFiles, TextCsvAndHtml) {
  AccuracyReport report;
  report.samples = 1;
  LayerAccuracy a;
  a.node = "conv_0";
  a.op_type = "Conv";
  a.tensor = "c0";
  a.reference = "c0";
  a.precision = "int8";
  a.macs = 1500000;
  a.entire = {0.99, 1.5, 20.0};
  a.single = {0.995, 1.0, 23.0};
  LayerAccuracy b = a;
  b.op_index = 1;
  b.node = "add,<1>";
  b.op_type = "Add";
  b.macs = 0;
  b.entire = {0.9, 3.0, 10.0};
  b.single = {1.0, 0.0, kInf};
  report.layers = {a, b};
  report.outputs = {{"c0", a.entire}};

  const std::string text = FormatAccuracyText(report);
  EXPECT_NE(text.find("[Conv] conv_0"), std::string::npos) << text;
  EXPECT_NE(text.find("0.990000  | 1.5"), std::string::npos) << text;
  EXPECT_NE(text.find("0.995000  | 1"), std::string::npos) << text;
  EXPECT_NE(text.find("inf"), std::string::npos) << text;
  EXPECT_NE(text.find("1.50M"), std::string::npos) << text;

  const std::string csv = FormatAccuracyCsv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "index,op_index,layer,op_type,tensor,reference,precision,macs,entire_cosine,entire_euclidean,"
            "entire_sqnr_db,single_cosine,single_euclidean,single_sqnr_db");
  EXPECT_NE(csv.find("\n0,0,conv_0,Conv,c0,c0,int8,1500000,0.9900000,1.5,20.0000,0.9950000,1,23.0000\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\n1,1,\"add,<1>\",Add,c0,c0,int8,0,0.9000000,3,10.0000,1.0000000,0,inf\n"), std::string::npos)
      << csv;

  const std::string html = FormatAccuracyHtml(report, "t<1>", 1);
  EXPECT_EQ(html.find("<!DOCTYPE html>"), 0u);
  EXPECT_NE(html.find("<title>t&lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained, static
  EXPECT_EQ(html.find("http://", html.find("</svg>")), std::string::npos);
  EXPECT_NE(html.find("The worst layer by single cosine"), std::string::npos);
  EXPECT_NE(html.find("add,&lt;1&gt;"), std::string::npos);  // names escaped
  // Only conv_0 (single 0.995 < 1) is highlighted.
  EXPECT_NE(html.find("<tr class=\"worst\"><td>0</td><td>conv_0</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<tr class=\"worst\"><td>1</td>"), std::string::npos);
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
