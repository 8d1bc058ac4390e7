// The fp16 float path (CompileOptions::float_dtype, docs/design.md "fp16 arithmetic model"): what the model
// file records, which constants are rounded, per-op output rounding and overflow at run time, the
// once-per-run warning, and the accuracy analysis naming the first layer that overflowed. Per-op-family
// values against numpy: tests/python/test_float16.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/quant/accuracy_analysis.h"
#include "runtime/core/log.h"
#include "runtime/core/model.h"
#include "runtime/core/types.h"
#include "tests/common/temp_files.h"
#include "tests/compiler/onnx_builder.h"

namespace npurt {
namespace compiler {
namespace {

using onnx_test::Floats;
using onnx_test::OnnxBuilder;

float Half(float x) { return HalfToFloat(FloatToHalf(x)); }

// y = (x * k) + 1 with k = 1000 by default: x = 100 makes 1e5, beyond fp16's 65504, in "scale".
OnnxBuilder ScaleShiftModel(float k = 1000.0f) {
  OnnxBuilder b(13);
  b.Input("x", {1, 4});
  b.FloatInitializer("k", {1}, {k});
  b.FloatInitializer("one", {1}, {1.0f});
  b.Node("Mul", {"x", "k"}, {"s"}, "scale");
  b.Node("Add", {"s", "one"}, {"y"}, "shift");
  b.Output("y");
  return b;
}

CompileOptions WithFloat(DataType t) {
  CompileOptions o;
  o.float_dtype = t;
  return o;
}

struct Logged {
  std::vector<std::string> warnings;
  static void Collect(LogLevel level, const char* line, void* self) {
    if (level == LogLevel::kWarning) static_cast<Logged*>(self)->warnings.push_back(line);
  }
};

class CaptureWarnings {
 public:
  CaptureWarnings() : saved_(GetLogLevel()) {
    SetLogLevel(LogLevel::kWarning);
    SetLogCallback(&Logged::Collect, &log_);
  }
  ~CaptureWarnings() {
    SetLogCallback(nullptr, nullptr);
    SetLogLevel(saved_);
  }
  const std::vector<std::string>& warnings() const { return log_.warnings; }

 private:
  LogLevel saved_;
  Logged log_;
};

TEST(Float16, TheModelRecordsItsFloatTypeAndStoresFp16Constants) {
  // 0.1 is no fp16 value: the file must hold its nearest one (0.0999755859375), 70000 becomes inf.
  OnnxBuilder b(13);
  b.Input("x", {1, 3});
  b.FloatInitializer("c", {3}, {0.1f, 70000.0f, -2.5f});
  b.Node("Mul", {"x", "c"}, {"y"}, "mul");
  b.Output("y");
  for (DataType t : {DataType::kFloat16, DataType::kFloat32}) {
    SCOPED_TRACE(DataTypeName(t));
    std::vector<uint8_t> file;
    const Status s = onnx_test::Convert(b, WithFloat(t), &file);
    ASSERT_TRUE(s.ok()) << s.message();
    std::shared_ptr<const Model> m;
    ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
    EXPECT_EQ(m->float_dtype(), t);
    const std::vector<Floats> y = onnx_test::RunModel(file, {{1.0f, 1.0f, 1.0f}});
    ASSERT_EQ(y.size(), 1u);
    if (t == DataType::kFloat16) {
      EXPECT_EQ(y[0], (Floats{Half(0.1f), INFINITY, -2.5f}));
    } else {
      EXPECT_EQ(y[0], (Floats{0.1f, 70000.0f, -2.5f}));
    }
  }
}

OnnxBuilder MatMulModel(const Floats& w, int64_t k, int64_t n) {
  OnnxBuilder b(13);
  b.Input("x", {1, k});
  b.FloatInitializer("w", {k, n}, w);
  b.Node("MatMul", {"x", "w"}, {"y"}, "mm");
  b.Output("y");
  return b;
}

TEST(Float16, TheFileStoresFp16WeightsAtHalfTheSizeAndTheRuntimeWidensThem) {
  const int64_t k = 256, n = 64;
  Floats w(static_cast<size_t>(k * n)), x(static_cast<size_t>(k));
  for (size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.11f * static_cast<float>(i));
  std::vector<uint8_t> half_model, float_model;
  ASSERT_TRUE(onnx_test::Convert(MatMulModel(w, k, n), WithFloat(DataType::kFloat16), &half_model).ok());
  ASSERT_TRUE(onnx_test::Convert(MatMulModel(w, k, n), WithFloat(DataType::kFloat32), &float_model).ok());
  // 64 KiB of float32 weights become 32 KiB.
  EXPECT_LT(half_model.size() + 30000, float_model.size());
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(half_model.data(), half_model.size(), &m).ok());
  EXPECT_GE(m->weights_size(), static_cast<uint64_t>(k * n) * 4);  // float32 in memory
  // The same numbers as a float32 model fed the fp16 values, its output rounded: fp32 arithmetic inside.
  Floats w16 = w, x16 = x;
  for (float& v : w16) v = Half(v);
  for (float& v : x16) v = Half(v);
  std::vector<uint8_t> rounded_model;
  ASSERT_TRUE(onnx_test::Convert(MatMulModel(w16, k, n), WithFloat(DataType::kFloat32), &rounded_model).ok());
  const std::vector<Floats> got = onnx_test::RunModel(half_model, {x});
  const std::vector<Floats> ref = onnx_test::RunModel(rounded_model, {x16});
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(ref.size(), 1u);
  ASSERT_EQ(got[0].size(), static_cast<size_t>(n));
  for (size_t i = 0; i < got[0].size(); ++i) EXPECT_EQ(got[0][i], Half(ref[0][i])) << i;
}

TEST(Float16, ResizeScalesStayExactSoTheRecordedShapeHolds) {
  // 1.7 is no fp16 value; the shape 4 -> 6 the compiler recorded must not move (PrepareNodes checks it).
  OnnxBuilder b(13);
  b.Input("x", {1, 1, 4, 4});
  b.FloatInitializer("roi", {0}, {});
  b.FloatInitializer("scales", {4}, {1.0f, 1.0f, 1.7f, 1.7f});
  onnx::NodeProto* n = b.Node("Resize", {"x", "roi", "scales"}, {"y"}, "resize");
  OnnxBuilder::AttrString(n, "mode", "nearest");
  b.Output("y");
  Graph g;
  ASSERT_TRUE(onnx_test::Import(b, CompileOptions(), &g).ok());
  std::vector<uint8_t> file;
  const Status s = Build(WithFloat(DataType::kFloat16), &g, &file, nullptr);
  ASSERT_TRUE(s.ok()) << s.message();
  bool found = false;
  for (const IrTensor& t : g.tensors()) {
    if (t.name != "scales") continue;
    found = true;
    float v[4];
    std::memcpy(v, t.data.data(), sizeof(v));
    EXPECT_EQ(v[2], 1.7f);
  }
  EXPECT_TRUE(found);
  Floats x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.1f * static_cast<float>(i);
  const std::vector<Floats> y = onnx_test::RunModel(file, {x});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].size(), 36u);
  EXPECT_EQ(y[0][0], Half(x[0]));
  EXPECT_EQ(y[0][35], Half(x[15]));
}

TEST(Float16, EveryOpRoundsAndARunWarnsOnceNamingTheFirstOverflow) {
  // "scale" rounds x * 1000: 1.0001 * 1000 = 1000.1 is stored as 1000 (fp16's step at 1000 is 0.5),
  // so "shift" gives 1001, not 1001.1; 100 * 1000 overflows to inf in "scale".
  std::vector<uint8_t> half_model, float_model;
  ASSERT_TRUE(onnx_test::Convert(ScaleShiftModel(), WithFloat(DataType::kFloat16), &half_model).ok());
  ASSERT_TRUE(onnx_test::Convert(ScaleShiftModel(), WithFloat(DataType::kFloat32), &float_model).ok());
  const Floats x = {1.0001f, -0.002f, 100.0f, 3.0f};
  CaptureWarnings log;
  const std::vector<Floats> h = onnx_test::RunModel(half_model, {x});
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0][0], 1001.0f);
  EXPECT_EQ(h[0][1], Half(Half(Half(-0.002f) * 1000.0f) + 1.0f));
  EXPECT_EQ(h[0][2], INFINITY);
  EXPECT_EQ(h[0][3], 3000.0f);  // 3001 lies halfway between fp16's 3000 and 3002: to even
  ASSERT_EQ(log.warnings().size(), 1u);
  EXPECT_NE(log.warnings()[0].find("fp16 overflow: op 'scale' (Mul) wrote 1 values"), std::string::npos)
      << log.warnings()[0];

  const std::vector<Floats> f = onnx_test::RunModel(float_model, {x});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FLOAT_EQ(f[0][0], 1001.1f);
  EXPECT_FLOAT_EQ(f[0][2], 100001.0f);
  EXPECT_EQ(log.warnings().size(), 1u);  // float32 does not overflow, nothing more logged
}

TEST(Float16, AnInputBeyondFp16WarnsAtImport) {
  std::vector<uint8_t> file;
  ASSERT_TRUE(onnx_test::Convert(ScaleShiftModel(1.0f), WithFloat(DataType::kFloat16), &file).ok());
  CaptureWarnings log;
  const std::vector<Floats> y = onnx_test::RunModel(file, {{1e5f, 0.3f, 2.0f, -1e6f}});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0], (Floats{INFINITY, Half(Half(0.3f) + 1.0f), 3.0f, -INFINITY}));
  ASSERT_FALSE(log.warnings().empty());
  EXPECT_NE(log.warnings()[0].find("input 0: 2 values beyond fp16's range"), std::string::npos) << log.warnings()[0];
}

TEST(Float16, AccuracyAnalysisNamesTheFirstLayerThatOverflowed) {
  // Without a dataset Build makes the fp16 model and keeps the float32 one as its reference.
  testing::TempDir dir;
  Graph g;
  ASSERT_TRUE(onnx_test::Import(ScaleShiftModel(), CompileOptions(), &g).ok());
  std::vector<uint8_t> half_model;
  BuildReport report;
  ASSERT_TRUE(Build(WithFloat(DataType::kFloat16), &g, &half_model, &report).ok());
  EXPECT_FALSE(report.quantized);
  ASSERT_FALSE(report.float_reference.empty());
  std::shared_ptr<const Model> ref;
  ASSERT_TRUE(Model::Load(report.float_reference.data(), report.float_reference.size(), &ref).ok());
  EXPECT_EQ(ref->float_dtype(), DataType::kFloat32);

  testing::WriteNpyFloats(dir / "x.npy", {1, 4}, {1.0001f, -0.002f, 100.0f, 3.0f});
  DatasetSample sample;
  sample.paths = {dir / "x.npy"};
  AccuracyReport accuracy;
  CaptureWarnings quiet;  // the fp16 run's own warning
  const Status s = AnalyzeAccuracy(report.float_reference, half_model, {sample}, AccuracyOptions(), &accuracy);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(accuracy.layers.size(), 2u);
  EXPECT_EQ(accuracy.layers[0].node, "scale");
  EXPECT_EQ(accuracy.layers[0].precision, "float16");
  EXPECT_EQ(accuracy.layers[0].entire.nonfinite, 1);
  EXPECT_FLOAT_EQ(static_cast<float>(accuracy.layers[0].entire.ref_max), 100000.0f);
  EXPECT_EQ(FirstNonFiniteLayer(accuracy), 0);
  EXPECT_EQ(FirstLayerBelow(accuracy, kFp16CosineThreshold), 0);  // cosine NaN
  const std::string text = DescribeFirstDepartures(accuracy, kFp16CosineThreshold);
  EXPECT_NE(text.find("first overflow: layer 'scale' (Mul, float16): 1 values inf or NaN where float32 has finite "
                      "ones; float32 range [-2, 100000] (beyond fp16's 65504)"),
            std::string::npos)
      << text;
  EXPECT_NE(FormatAccuracyText(accuracy).find("# first overflow: layer 'scale'"), std::string::npos);

  // A model that fits fp16: nothing overflows, every layer stays above 0.999.
  testing::WriteNpyFloats(dir / "small.npy", {1, 4}, {0.5f, -0.25f, 2.0f, 3.0f});
  sample.paths = {dir / "small.npy"};
  ASSERT_TRUE(AnalyzeAccuracy(report.float_reference, half_model, {sample}, AccuracyOptions(), &accuracy).ok());
  EXPECT_EQ(FirstNonFiniteLayer(accuracy), -1);
  EXPECT_EQ(FirstLayerBelow(accuracy, kFp16CosineThreshold), -1);
  EXPECT_EQ(DescribeFirstDepartures(accuracy, kFp16CosineThreshold), "");
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
