// `npurt convert`: the conversion settings the CLI passes on (target platform,
// custom string, preprocessing), and the ONNX files the CLI tests in
// tests/CMakeLists.txt convert. ConvertCliFiles.Write writes them into
// $NPURT_ONNX_TEST_DIR (the ctest fixture `onnx_cli_files` sets it); without
// that variable it is skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/core/npy.h"
#include "tests/common/temp_files.h"
#include "tests/compiler/onnx_builder.h"

namespace npurt {
namespace {

using compiler::CompileOptions;
using onnx_test::ExpectNear;
using onnx_test::Floats;
using onnx_test::OnnxBuilder;

// x[1,3,4,4] -> Conv 1x1 (3 -> 2) -> Relu -> y[1,2,4,4]; `dims` < 0 are named dynamic dims.
OnnxBuilder SmallConvModel(const onnx_test::Ints& dims = {1, 3, 4, 4}) {
  OnnxBuilder b(11, 8);
  b.Input("x", dims, onnx::TensorProto::FLOAT, {"p2o.DynamicDimension.0", "", "p2o.DynamicDimension.1", "p2o.DynamicDimension.2"});
  b.FloatConstant("w", {2, 3, 1, 1}, {1, 1, 1, -1, 0, 0});
  b.FloatConstant("b", {2}, {0, 0.5f});
  b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv2d_0");
  b.Node("Relu", {"c"}, {"y"}, "relu_0");
  b.Output("y");
  return b;
}

TEST(ConvertCli, TargetPlatformAndCustomStringAreRecorded) {
  CompileOptions o;
  o.target_platform = "rk3566";
  o.custom_string = "ppocr det v4";
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(SmallConvModel(), o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->target_platform(), "rk3566");
  EXPECT_EQ(m->custom_string(), "ppocr det v4");
  EXPECT_EQ(m->framework(), "ONNX");

  o.target_platform = "rk9999";
  s = onnx_test::Convert(SmallConvModel(), o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unknown target platform 'rk9999' (known: "), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("rk3588"), std::string::npos) << s.message();
}

TEST(ConvertCli, EveryTargetPlatformConvertsAndRuns) {
  for (const char* platform : {"rk3588", "rk3576", "rk3568", "rk3566", "rk3562", "rv1106", "rv1103"}) {
    CompileOptions o;
    o.target_platform = platform;
    Floats x(48);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 16) - 4.0f;  // channel c, pixel p
    auto out = onnx_test::ConvertAndRun(SmallConvModel(), o, {x});
    ASSERT_EQ(out.size(), 1u) << platform;
    Floats want(32);
    for (int p = 0; p < 16; ++p) {
      const float c0 = x[p], c1 = x[16 + p], c2 = x[32 + p];
      want[p] = std::max(c0 + c1 + c2, 0.0f);
      want[16 + p] = std::max(-c0 + 0.5f, 0.0f);
    }
    ExpectNear(out[0], want);
  }
}

TEST(ConvertCli, CompileOnnxFileMatchesImportAndOptimizePlusEmit) {
  CompileOptions o;
  o.input_shapes["x"] = {1, 3, 4, 4};
  const OnnxBuilder b = SmallConvModel({-1, 3, -1, -1});
  std::vector<uint8_t> direct;
  ASSERT_TRUE(onnx_test::Convert(b, o, &direct).ok());
  compiler::Graph g;
  ASSERT_TRUE(onnx_test::Import(b, o, &g).ok());
  std::vector<uint8_t> emitted;
  ASSERT_TRUE(compiler::EmitModel(g, compiler::EmitOptions(), &emitted).ok());
  EXPECT_EQ(direct, emitted);
}

// SmallConvModel's output for one frame x[3,4,4], by hand.
Floats SmallConvOracle(const Floats& x, size_t offset) {
  Floats want(32);
  for (size_t p = 0; p < 16; ++p) {
    const float c0 = x[offset + p], c1 = x[offset + 16 + p], c2 = x[offset + 32 + p];
    want[p] = std::max(c0 + c1 + c2, 0.0f);
    want[16 + p] = std::max(-c0 + 0.5f, 0.0f);
  }
  return want;
}

// --batch-size (rknn_batch_size): the batch-1 model takes 3 frames per run, each computed as alone.
TEST(ConvertCli, BatchSizeRunsEveryFrameOfTheBatch) {
  CompileOptions o;
  o.batch_size = 3;
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(SmallConvModel(), o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->tensors()[m->inputs()[0].tensor].shape, (Shape{3, 3, 4, 4}));
  EXPECT_EQ(m->tensors()[m->outputs()[0].tensor].shape, (Shape{3, 2, 4, 4}));
  Floats x(3 * 48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 7 % 23) - 9) * 0.25f;
  const std::vector<Floats> out = onnx_test::RunModel(file, {x});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].size(), 3u * 32);
  for (size_t f = 0; f < 3; ++f) {
    ExpectNear(Floats(out[0].begin() + static_cast<std::ptrdiff_t>(f * 32),
                      out[0].begin() + static_cast<std::ptrdiff_t>((f + 1) * 32)),
               SmallConvOracle(x, f * 48));
  }
}

TEST(ConvertCli, BatchSizeNeedsBatchOneInputsAndOutputsThatFollow) {
  CompileOptions o;
  o.batch_size = 4;
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(SmallConvModel({2, 3, 4, 4}), o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "--batch-size 4: input 'x' has shape [2,3,4,4]; the batch size applies to inputs whose "
                         "first dim is 1");
  // A Reshape to [1, -1] merges the frames: refused, naming the output.
  OnnxBuilder flat = SmallConvModel();
  flat.Int64Initializer("flat_shape", {2}, {1, -1});
  flat.Node("Reshape", {"y", "flat_shape"}, {"f"}, "reshape_0");
  flat.graph().mutable_output(0)->set_name("f");
  s = onnx_test::Convert(flat, o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--batch-size 4: output 'f' has shape [1,128], not 4 frames"), std::string::npos)
      << s.message();
  // Without --batch-size the same model converts.
  o.batch_size = 1;
  EXPECT_TRUE(onnx_test::Convert(flat, o, &file).ok());
}

// Calibration feeds a one-frame sample to every slot of the batch: the int8 batch model computes each frame
// exactly as the int8 batch-1 model calibrated on the same samples.
TEST(ConvertCli, QuantizedBatchModelMatchesTheBatchOneModelFrameByFrame) {
  testing::TempDir dir;
  std::ofstream calib(dir / "calib.txt");
  for (int i = 0; i < 3; ++i) {
    Floats v(48);
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((static_cast<int>(k) * 37 + i * 11) % 29) / 14.0f - 1.0f;
    testing::WriteNpyFloats(dir / ("s" + std::to_string(i) + ".npy"), {1, 3, 4, 4}, v);
    calib << "s" << i << ".npy\n";
  }
  calib.close();
  CompileOptions o;
  o.quantize = true;
  o.dataset = dir / "calib.txt";
  o.weight_rounding = compiler::WeightRounding::kNearest;
  std::vector<uint8_t> one, three;
  Status s = onnx_test::Convert(SmallConvModel(), o, &one);
  ASSERT_TRUE(s.ok()) << s.message();
  o.batch_size = 3;
  s = onnx_test::Convert(SmallConvModel(), o, &three);
  ASSERT_TRUE(s.ok()) << s.message();
  Floats x(3 * 48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 5 % 17) - 8) * 0.11f;
  const std::vector<Floats> batched = onnx_test::RunModel(three, {x});
  ASSERT_EQ(batched.size(), 1u);
  ASSERT_EQ(batched[0].size(), 3u * 32);
  for (size_t f = 0; f < 3; ++f) {
    const Floats frame(x.begin() + static_cast<std::ptrdiff_t>(f * 48), x.begin() + static_cast<std::ptrdiff_t>((f + 1) * 48));
    const std::vector<Floats> alone = onnx_test::RunModel(one, {frame});
    ASSERT_EQ(alone.size(), 1u);
    const Floats got(batched[0].begin() + static_cast<std::ptrdiff_t>(f * 32),
                     batched[0].begin() + static_cast<std::ptrdiff_t>((f + 1) * 32));
    EXPECT_EQ(got, alone[0]) << "frame " << f;
    ExpectNear(got, SmallConvOracle(x, f * 48), 0.05f);  // and both near the float oracle
  }
}

// SmallConvModel's output for one frame of h x w pixels, by hand.
Floats SmallConvOracleHw(const Floats& x, int64_t h, int64_t w) {
  const size_t plane = static_cast<size_t>(h * w);
  Floats want(2 * plane);
  for (size_t p = 0; p < plane; ++p) {
    want[p] = std::max(x[p] + x[plane + p] + x[2 * plane + p], 0.0f);
    want[plane + p] = std::max(-x[p] + 0.5f, 0.0f);
  }
  return want;
}

Floats FrameOf(int64_t h, int64_t w, int seed) {
  Floats x(static_cast<size_t>(3 * h * w));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>((i * 7 + seed) % 19) - 9) * 0.1f;
  return x;
}

// --dynamic-input (rknn-toolkit2's dynamic_input): one graph per set, weights stored once, the largest
// set first; every set computes what the model computes at that size.
TEST(ConvertCli, DynamicInputCompilesEverySetSharingTheWeights) {
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{4, 4}, {6, 10}, {2, 3}};
  CompileOptions o;
  for (auto [h, w] : sizes) o.dynamic_input.push_back({{1, 3, h, w}});
  std::vector<uint8_t> file, one;
  Status s = onnx_test::Convert(SmallConvModel({-1, 3, -1, -1}), o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  ASSERT_TRUE(m->dynamic());
  ASSERT_EQ(m->shape_sets().size(), 3u);
  EXPECT_EQ(m->tensors()[m->inputs()[0].tensor].shape, (Shape{1, 3, 6, 10})) << "the largest set first";
  CompileOptions single;
  single.input_shapes["x"] = {1, 3, 4, 4};
  ASSERT_TRUE(onnx_test::Convert(SmallConvModel({-1, 3, -1, -1}), single, &one).ok());
  std::shared_ptr<const Model> m1;
  ASSERT_TRUE(Model::Load(one.data(), one.size(), &m1).ok());
  EXPECT_EQ(m->weights_size(), m1->weights_size()) << "the weights are stored once";
  for (size_t k = 0; k < sizes.size(); ++k) {
    const auto [h, w] = sizes[k];
    const Floats x = FrameOf(h, w, static_cast<int>(k));
    const std::vector<Floats> out = onnx_test::RunModel(file, {x}, static_cast<int>(k));
    ASSERT_EQ(out.size(), 1u);
    ExpectNear(out[0], SmallConvOracleHw(x, h, w));
  }
}

// Quantized: calibrated on the largest set, whose quantized graph every set runs at its own shapes.
TEST(ConvertCli, DynamicInputQuantizesOnTheLargestSet) {
  testing::TempDir dir;
  std::ofstream calib(dir / "calib.txt");
  for (int i = 0; i < 3; ++i) {
    testing::WriteNpyFloats(dir / ("s" + std::to_string(i) + ".npy"), {1, 3, 6, 10}, FrameOf(6, 10, 20 + i));
    calib << "s" << i << ".npy\n";
  }
  calib.close();
  CompileOptions o;
  o.quantize = true;
  o.dataset = dir / "calib.txt";
  o.dynamic_input = {{{1, 3, 4, 4}}, {{1, 3, 6, 10}}};
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(SmallConvModel({-1, 3, -1, -1}), o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  ASSERT_EQ(m->shape_sets().size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const ModelGraph& g = m->shape_sets()[k];
    EXPECT_EQ(g.tensors[g.inputs[0].tensor].dtype, DataType::kInt8) << "set " << k;
    EXPECT_EQ(g.tensors[g.inputs[0].tensor].quant.scale, m->tensors()[m->inputs()[0].tensor].quant.scale);
    const int64_t h = k == 0 ? 4 : 6, w = k == 0 ? 4 : 10;
    const Floats x = FrameOf(h, w, static_cast<int>(k));
    const std::vector<Floats> out = onnx_test::RunModel(file, {x}, static_cast<int>(k));
    ASSERT_EQ(out.size(), 1u);
    ExpectNear(out[0], SmallConvOracleHw(x, h, w), 0.05f);
  }
}

TEST(ConvertCli, DynamicInputErrors) {
  std::vector<uint8_t> file;
  CompileOptions o;
  o.dynamic_input = {{{1, 3, 4, 4}}, {{1, 3, 4, 4}}};
  Status s = onnx_test::Convert(SmallConvModel({-1, 3, -1, -1}), o, &file);
  EXPECT_EQ(s.message(), "dynamic input sets 0 and 1 are the same");
  o.dynamic_input = {{{1, 3, 4, 4}, {1, 3, 2, 2}}};
  s = onnx_test::Convert(SmallConvModel({-1, 3, -1, -1}), o, &file);
  EXPECT_EQ(s.message(), "dynamic input set 0: 2 input shapes for a model with 1 inputs (x)");
  // A shape computed at conversion (Shape -> Reshape) cannot follow another set in the quantized graph.
  OnnxBuilder baked = SmallConvModel({-1, 3, -1, -1});
  baked.Node("Shape", {"y"}, {"y_shape"}, "shape_0");
  baked.Node("Reshape", {"y", "y_shape"}, {"r"}, "reshape_0");
  baked.graph().mutable_output(0)->set_name("r");
  testing::TempDir dir;
  testing::WriteNpyFloats(dir / "s.npy", {1, 3, 6, 10}, FrameOf(6, 10, 1));
  std::ofstream(dir / "calib.txt") << "s.npy\n";
  o.dynamic_input = {{{1, 3, 4, 4}}, {{1, 3, 6, 10}}};
  o.quantize = true;
  o.dataset = dir / "calib.txt";
  o.weight_rounding = compiler::WeightRounding::kNearest;
  s = onnx_test::Convert(baked, o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("dynamic input set 0: node 'reshape_0'"), std::string::npos) << s.message();
  // In float every set is imported on its own, so the same model converts.
  o.quantize = false;
  s = onnx_test::Convert(baked, o, &file);
  EXPECT_TRUE(s.ok()) << s.message();
  // A value (not a shape) computed from the input shape: y / H. Every shape would follow, but set 0
  // would divide by the largest set's H: refused when quantizing, fine in float.
  OnnxBuilder scaled = SmallConvModel({-1, 3, -1, -1});
  scaled.Node("Shape", {"y"}, {"y_shape"}, "shape_1");
  scaled.Int64Initializer("h_index", {}, {2});
  scaled.Node("Gather", {"y_shape", "h_index"}, {"h"}, "gather_0");
  OnnxBuilder::AttrInt(scaled.Node("Cast", {"h"}, {"h_float"}, "cast_0"), "to", onnx::TensorProto::FLOAT);
  scaled.Node("Div", {"y", "h_float"}, {"q"}, "div_0");
  scaled.graph().mutable_output(0)->set_name("q");
  o.quantize = true;
  s = onnx_test::Convert(scaled, o, &file);
  EXPECT_EQ(s.message(), "dynamic input set 0: node 'div_0' differs from the largest set's (a value computed from "
                         "the input shape); quantize each shape as its own model");
  o.quantize = false;
  s = onnx_test::Convert(scaled, o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  const Floats x = FrameOf(4, 4, 3);
  const std::vector<Floats> out = onnx_test::RunModel(file, {x}, 0);
  ASSERT_EQ(out.size(), 1u);
  Floats want = SmallConvOracleHw(x, 4, 4);
  for (float& v : want) v /= 4.0f;
  ExpectNear(out[0], want);
}

// Writes the files the CLI tests use into NPURT_ONNX_TEST_DIR (set by the ctest
// fixture); run on its own, into a fresh temporary directory.
TEST(ConvertCliFiles, Write) {
  const char* dir_env = std::getenv("NPURT_ONNX_TEST_DIR");
  char temp[] = "/tmp/npurt_cli_filesXXXXXX";
  const std::string dir = dir_env != nullptr ? dir_env : (mkdtemp(temp) != nullptr ? temp : "");
  ASSERT_FALSE(dir.empty());
  struct RemoveTemp {
    std::string path;
    ~RemoveTemp() {
      if (!path.empty()) std::filesystem::remove_all(path);
    }
  } cleanup{dir_env != nullptr ? "" : dir};
  ASSERT_TRUE(SmallConvModel().Write(dir + "/static.onnx"));
  ASSERT_TRUE(SmallConvModel({-1, 3, -1, -1}).Write(dir + "/dynamic.onnx"));
  // Two layers, so that an intermediate tensor can be int16 (hybrid tests): Conv+Relu, then a depthwise 3x3.
  OnnxBuilder two = SmallConvModel();
  two.FloatConstant("dw", {2, 1, 3, 3}, {0.1f, 0.2f, 0.1f, 0.2f, 0.5f, 0.2f, 0.1f, 0.2f, 0.1f,
                                        -0.1f, 0.0f, 0.1f, -0.2f, 1.0f, 0.2f, -0.1f, 0.0f, 0.1f});
  onnx::NodeProto* dw = two.Node("Conv", {"y", "dw"}, {"z"}, "conv2d_dw");
  OnnxBuilder::AttrInt(dw, "group", 2);
  OnnxBuilder::AttrInts(dw, "pads", {1, 1, 1, 1});
  two.graph().mutable_output(0)->set_name("z");
  ASSERT_TRUE(two.Write(dir + "/two_layers.onnx"));

  // LayerNorm over large activations: x in [-1, 1] times 6e4 (an fp16 value), then doubled, beyond fp16's
  // 65504 in "double" wherever |x| > 0.55, so the fp16 model's LayerNorm reads inf; `npurt accuracy` must
  // name "double". overflow_constant.onnx: a gain of 1e5, which fp16 cannot hold (convert warns).
  for (float gain : {6e4f, 1e5f}) {
    OnnxBuilder overflow(17);
    overflow.Input("x", {1, 3, 4, 4});
    overflow.FloatInitializer("gain", {1}, {gain});
    overflow.FloatInitializer("gamma", {4}, {1.0f, 1.0f, 1.0f, 1.0f});
    overflow.FloatInitializer("beta", {4}, {0.0f, 0.0f, 0.0f, 0.0f});
    overflow.Node("Mul", {"x", "gain"}, {"big"}, "amplify");
    overflow.Node("Add", {"big", "big"}, {"twice"}, "double");
    overflow.Node("LayerNormalization", {"twice", "gamma", "beta"}, {"y"}, "norm");
    overflow.Output("y");
    ASSERT_TRUE(overflow.Write(dir + (gain == 1e5f ? "/overflow_constant.onnx" : "/overflow.onnx")));
  }

  OnnxBuilder unsupported(13);
  unsupported.Input("x", {1, 4});
  unsupported.Int64Initializer("k", {1}, {2});
  unsupported.Node("TopK", {"x", "k"}, {"values", "indices"}, "topk_0");
  unsupported.Output("values");
  ASSERT_TRUE(unsupported.Write(dir + "/unsupported.onnx"));

  std::string garbage;
  for (int i = 0; i < 1000; ++i) garbage += static_cast<char>((i * 7919 + 13) & 0xff);
  ASSERT_TRUE(onnx_test::WriteBytes(dir + "/corrupt.onnx", garbage));
  const std::string full = SmallConvModel().Serialize();
  ASSERT_TRUE(onnx_test::WriteBytes(dir + "/truncated.onnx", full.substr(0, full.size() - 7)));

  // Calibration datasets for static.onnx (x[1,3,4,4]) in rknn-toolkit2's format.
  std::ofstream calib(dir + "/calib.txt");
  for (int i = 0; i < 4; ++i) {
    npy::NpyArray a;
    a.shape = {1, 3, 4, 4};
    std::vector<float> v(48);
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((static_cast<int>(k) * 37 + i * 11) % 29) / 14.0f - 1.0f;
    a.data.assign(reinterpret_cast<const uint8_t*>(v.data()), reinterpret_cast<const uint8_t*>(v.data() + v.size()));
    const std::string name = "calib" + std::to_string(i) + ".npy";
    ASSERT_TRUE(npy::WriteNpy(dir + "/" + name, a).ok());
    calib << name << "\n";
  }
  ASSERT_TRUE(static_cast<bool>(calib));
  std::ofstream(dir + "/calib_two_paths.txt") << "calib0.npy\ncalib1.npy calib2.npy\n";
  std::ofstream(dir + "/calib_missing.txt") << "calib0.npy\nno_such_image.png\n";

  // rknn-toolkit2 style settings for dynamic.onnx.
  std::ofstream yml(dir + "/config.yml");
  yml << "# npurt convert --config\n"
      << "model: " << dir << "/dynamic.onnx\n"
      << "output: " << dir << "/from_config.rknn\n"
      << "target_platform: rk3568\n"
      << "inputs: [x]\n"
      << "input_size_list:\n  - [1, 3, 8, 8]\n"
      << "mean_values: [[0, 0, 0]]\n"
      << "std_values: [[255, 255, 255]]\n"
      << "quant_img_RGB2BGR: true\n"
      << "custom_string: from yaml\n"
      << "optimization_level: 3\n";
  ASSERT_TRUE(static_cast<bool>(yml));
  std::ofstream nested(dir + "/rknn_convert.yml");
  nested << "models:\n"
         << "  name: small\n"
         << "  platform: onnx\n"
         << "  model_file_path: " << dir << "/dynamic.onnx\n"
         << "  subgraphs:\n"
         << "    inputs: [x]\n"
         << "    input_size_list:\n      - 1,3,16,16\n"
         << "  configs:\n"
         << "    mean_values: [127.5, 127.5, 127.5]\n"
         << "    std_values: [127.5, 127.5, 127.5]\n";
  ASSERT_TRUE(static_cast<bool>(nested));
  // rknn_convert's paths: relative to the YAML file (the test runs elsewhere); name: names the output.
  std::ofstream relative(dir + "/relative.yml");
  relative << "models:\n"
           << "  name: named_by_config\n"
           << "  platform: onnx\n"
           << "  model_file_path: ./dynamic.onnx\n"
           << "  subgraphs:\n"
           << "    inputs: [x]\n"
           << "    input_size_list:\n      - 1,3,16,16\n";
  ASSERT_TRUE(static_cast<bool>(relative));
  // rknn-toolkit2's config(dynamic_input=...) layout and rknn_batch_size.
  std::ofstream dynamic(dir + "/dynamic_input.yml");
  dynamic << "model: " << dir << "/dynamic.onnx\n"
          << "output: " << dir << "/dynamic_from_config.rknn\n"
          << "dynamic_input:\n  - [[1, 3, 6, 6]]\n  - [[1, 3, 12, 10]]\n"
          << "rknn_batch_size: 2\n";
  ASSERT_TRUE(static_cast<bool>(dynamic));
  std::ofstream(dir + "/bad_dynamic_input.yml") << "model: " << dir << "/dynamic.onnx\n"
                                                 << "dynamic_input: [1, 3, 8, 8]\n";
  std::ofstream(dir + "/bad_batch_size.yml") << "model: " << dir << "/static.onnx\n"
                                              << "rknn_batch_size: 0\n";
  // A frame that fits none of dynamic_sets.rknn's shape sets (4x4 and 8x8).
  testing::WriteNpyFloats(dir + "/frame_5x5.npy", {1, 3, 5, 5}, Floats(75, 0.5f));
}

}  // namespace
}  // namespace npurt
