// compiler/quant: the dataset file, the calibrator (on a small conv model
// whose every intermediate value is computed by hand here, fed from .npy files
// and from PNG images written with stb_image_write), and the run observer it
// relies on (Context::Run(Profiler*)).
#include <gtest/gtest.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/quant/calibrator.h"
#include "compiler/quant/dataset.h"
#include "runtime/core/context.h"
#include "runtime/core/npy.h"
#include "tests/common/temp_files.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace compiler {
namespace {

using Floats = std::vector<float>;

#define EXPECT_CONTAINS(status, text)                                                  \
  do {                                                                                 \
    const Status& st_ = (status);                                                      \
    EXPECT_FALSE(st_.ok());                                                            \
    EXPECT_NE(st_.message().find(text), std::string::npos) << "message: " << st_.message(); \
  } while (0)

using testing::TempDir;
using testing::WriteNpyFloats;

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

// Interleaved pixels, row by row.
void WritePng(const std::string& path, int w, int h, int channels, const std::vector<uint8_t>& pixels) {
  ASSERT_EQ(pixels.size(), static_cast<size_t>(w * h * channels));
  ASSERT_NE(stbi_write_png(path.c_str(), w, h, channels, pixels.data(), w * channels), 0);
}

// ---- the dataset file ----

TEST(DatasetFile, ReadsSamplesCommentsAndRelativePaths) {
  TempDir dir;
  std::filesystem::create_directories(dir / "sub");
  for (const char* name : {"a.npy", "b.PNG", "sub/c.jpg", "sub/d.bmp", "e.jpeg"}) WriteText(dir / name, "x");
  WriteText(dir / "ds.txt",
            "# calibration set\n"
            "\n"
            "a.npy b.PNG\n"
            "   # indented comment\n"
            "sub/c.jpg\t" + (dir / "e.jpeg") + "\r\n"
            "  sub/d.bmp   a.npy  \n");
  std::vector<DatasetSample> samples;
  Status s = ReadDatasetFile(dir / "ds.txt", 2, &samples);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].paths, (std::vector<std::string>{dir / "a.npy", dir / "b.PNG"}));
  EXPECT_EQ(samples[0].line, 3);
  EXPECT_EQ(samples[0].file, dir / "ds.txt");
  EXPECT_EQ(samples[1].paths, (std::vector<std::string>{dir / "sub/c.jpg", dir / "e.jpeg"}));
  EXPECT_EQ(samples[1].line, 5);
  EXPECT_EQ(samples[2].paths, (std::vector<std::string>{dir / "sub/d.bmp", dir / "a.npy"}));
  EXPECT_EQ(samples[2].line, 6);
}

TEST(DatasetFile, RelativeToTheWorkingDirectoryWhenGivenWithoutDirectory) {
  TempDir dir;
  WriteText(dir / "a.npy", "x");
  WriteText(dir / "ds.txt", "a.npy\n");
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::vector<DatasetSample> samples;
  Status s = ReadDatasetFile("ds.txt", 1, &samples);
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].paths, (std::vector<std::string>{"a.npy"}));
}

TEST(DatasetFile, Errors) {
  TempDir dir;
  WriteText(dir / "a.npy", "x");
  WriteText(dir / "b.gif", "x");
  const std::string ds = dir / "ds.txt";
  std::vector<DatasetSample> samples;

  WriteText(ds, "a.npy\n# two on line 3\na.npy a.npy\n");
  Status s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_EQ(s.message(), ds + ":3: 2 paths for a model with 1 input");
  s = ReadDatasetFile(ds, 3, &samples);
  EXPECT_EQ(s.message(), ds + ":1: 1 path for a model with 3 inputs");

  WriteText(ds, "a.npy\nb.gif\n");
  s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.message(), ds + ":2: 'b.gif' has an unknown extension (expected .jpg, .jpeg, .png, .bmp or .npy)");
  WriteText(ds, "noext\n");
  s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.message(), ds + ":1: 'noext' has an unknown extension (expected .jpg, .jpeg, .png, .bmp or .npy)");

  WriteText(ds, "a.npy\nmissing.png\n");
  s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.message(), ds + ":2: cannot read '" + (dir / "missing.png") + "': No such file or directory");

  s = ReadDatasetFile(dir / "nope.txt", 1, &samples);
  EXPECT_EQ(s.message(), "cannot open dataset '" + (dir / "nope.txt") + "': No such file or directory");
  s = ReadDatasetFile(dir.path(), 1, &samples);
  EXPECT_EQ(s.message(), "dataset '" + dir.path() + "' is a directory");

  WriteText(ds, "# only a comment\n\n   \n");
  s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.message(), "dataset '" + ds + "' has no samples");
  WriteText(ds, "");
  s = ReadDatasetFile(ds, 1, &samples);
  EXPECT_EQ(s.message(), "dataset '" + ds + "' has no samples");
  EXPECT_TRUE(samples.empty());
}

// ---- the calibrator ----

// x[1,3,2,2] -> Conv 1x1 (3 -> 2) -> conv_out -> Relu -> y[1,2,2,2]
//   conv_out[0] = x0 - x1
//   conv_out[1] = 0.5 x0 + 0.25 x1 + 2 x2 - 1
// Every value below is exact in float32.
Graph SmallConvGraph(std::vector<float> mean = {}, std::vector<float> std_dev = {}, std::vector<int> order = {},
                     int64_t channels = 3) {
  Graph g;
  const int x = g.AddTensor("x", {1, channels, 2, 2}, DataType::kFloat32);
  IrInput& in = g.AddInput(x);
  in.mean = std::move(mean);
  in.std = std::move(std_dev);
  in.channel_order = std::move(order);
  Floats w = {1.0f, -1.0f, 0.0f, 0.5f, 0.25f, 2.0f};
  w.resize(static_cast<size_t>(2 * channels), 0.0f);
  const int wt = g.AddFloatConstant("w", {2, channels, 1, 1}, w);
  const int bt = g.AddFloatConstant("b", {2}, {0.0f, -1.0f});
  Attributes conv;
  conv.SetInts("kernel_shape", {1, 1});
  const int c = g.AddNode("Conv", {x, wt, bt}, conv, 1, "conv");
  g.tensors()[c].name = "conv_out";
  const int y = g.AddNode("Relu", {c}, {}, 1, "relu");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  return g;
}

CalibrationOptions Quiet(bool histograms = true) {
  CalibrationOptions o;
  o.histograms = histograms;
  o.progress = false;
  return o;
}

void ExpectRange(const std::map<std::string, TensorStats>& stats, const std::string& name, float min, float max,
                 uint64_t count) {
  auto it = stats.find(name);
  ASSERT_NE(it, stats.end()) << name;
  EXPECT_EQ(it->second.min, min) << name;
  EXPECT_EQ(it->second.max, max) << name;
  EXPECT_EQ(it->second.count, count) << name;
}

// Two .npy samples (planar NCHW values):
//   1: x0 {1,2,3,4} x1 {0,1,-2,8} x2 {0.5,-0.5,1,0} -> conv0 {1,1,5,-4}  conv1 {0.5,-0.75,2,3}
//   2: x0 {0,0,0,10} x1 {0,0,0,0} x2 {0,0,0,-3}     -> conv0 {0,0,0,10}  conv1 {-1,-1,-1,-2}
TEST(Calibrate, NpySamplesGiveExactRangesOfInputsAndIntermediates) {
  TempDir dir;
  WriteNpyFloats(dir / "s1.npy", {1, 3, 2, 2}, {1, 2, 3, 4, 0, 1, -2, 8, 0.5f, -0.5f, 1, 0});
  WriteNpyFloats(dir / "s2.npy", {3, 4}, {0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, -3});  // any shape with 12 values
  WriteText(dir / "ds.txt", "s1.npy\ns2.npy\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());

  // .npy data is not normalized: mean/std and channel order of the model do not apply.
  const std::vector<uint8_t> model = testing::EmitOrDie(SmallConvGraph({100, 100, 100}, {7, 7, 7}, {2, 1, 0}));
  std::map<std::string, TensorStats> stats;
  Status s = Calibrate(model, samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(stats.size(), 3u);
  ExpectRange(stats, "x", -3.0f, 10.0f, 24);
  ExpectRange(stats, "conv_out", -4.0f, 10.0f, 16);
  ExpectRange(stats, "y", 0.0f, 10.0f, 16);

  // Histograms over [min, max]: min in the first bin, max in the last.
  const TensorStats& y = stats.at("y");
  EXPECT_EQ(y.hist_min, 0.0f);
  EXPECT_EQ(y.hist_max, 10.0f);
  ASSERT_EQ(y.histogram.size(), static_cast<size_t>(kHistogramBins));
  uint64_t total = 0;
  for (uint64_t c : y.histogram) total += c;
  EXPECT_EQ(total, 16u);
  // y: sample 1 {1,1,5,0, 0.5,0,2,3}, sample 2 {0,0,0,10, 0,0,0,0}: 9 zeros.
  // Bin of v: floor(v / 10 * 2048).
  std::map<int, uint64_t> expected = {{0, 9}, {102, 1}, {204, 2}, {409, 1}, {614, 1}, {1024, 1}, {2047, 1}};
  for (int k = 0; k < kHistogramBins; ++k) {
    EXPECT_EQ(y.histogram[k], expected.count(k) ? expected[k] : 0u) << "bin " << k;
  }
  const TensorStats& x = stats.at("x");
  EXPECT_EQ(x.histogram[0], 1u);                      // -3
  EXPECT_EQ(x.histogram[kHistogramBins - 1], 1u);     // 10

  // Histograms off: one pass, ranges only.
  s = Calibrate(model, samples, Quiet(false), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "conv_out", -4.0f, 10.0f, 16);
  EXPECT_TRUE(stats.at("conv_out").histogram.empty());
}

// The same model fed PNG images: uint8 NHWC RGB through the runtime's input
// conversion, so mean/std (and the channel order) of the model apply.
// Pixels (R,G,B): p00 (10,20,30) p01 (30,60,200) p10 (0,0,0) p11 (40,100,0);
// mean {10,20,30}, std {2,4,5}.
const std::vector<uint8_t> kPixels = {10, 20, 30, 30, 60, 200, 0, 0, 0, 40, 100, 0};

TEST(Calibrate, PngImagesGoThroughMeanStd) {
  TempDir dir;
  WritePng(dir / "img.png", 2, 2, 3, kPixels);
  WriteText(dir / "ds.txt", "img.png\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  std::map<std::string, TensorStats> stats;
  // x = ((R-10)/2, (G-20)/4, (B-30)/5): p00 (0,0,0) p01 (10,10,34) p10 (-5,-5,-6) p11 (15,20,-6)
  // conv0 {0,0,0,-5}, conv1 {-1,74.5,-16.75,-0.5}
  Status s = Calibrate(testing::EmitOrDie(SmallConvGraph({10, 20, 30}, {2, 4, 5})), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", -6.0f, 34.0f, 12);
  ExpectRange(stats, "conv_out", -16.75f, 74.5f, 8);
  ExpectRange(stats, "y", 0.0f, 74.5f, 8);

  // Reversed channel order (BGR model): internal channel c reads image channel 2 - c.
  // x = ((B-10)/2, (G-20)/4, (R-30)/5): p00 (10,0,-4) p01 (95,10,0) p10 (-5,-5,-6) p11 (-5,20,2)
  // conv0 {10,85,0,-25}, conv1 {-4,49,-16.75,5.5}
  s = Calibrate(testing::EmitOrDie(SmallConvGraph({10, 20, 30}, {2, 4, 5}, {2, 1, 0})), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", -6.0f, 95.0f, 12);
  ExpectRange(stats, "conv_out", -25.0f, 85.0f, 8);
  ExpectRange(stats, "y", 0.0f, 85.0f, 8);

  // quant_img_RGB2BGR: the image decoded as BGR for an RGB-ordered model gives the same values, and the
  // model itself is unchanged (its input conversion does not reorder).
  samples[0].swap_red_blue = {true};
  s = Calibrate(testing::EmitOrDie(SmallConvGraph({10, 20, 30}, {2, 4, 5})), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", -6.0f, 95.0f, 12);
  ExpectRange(stats, "conv_out", -25.0f, 85.0f, 8);
  ExpectRange(stats, "y", 0.0f, 85.0f, 8);
}

TEST(Calibrate, ImagesAreResizedBilinearly) {
  // A 4x4 image whose 2x2 blocks average to kPixels: halving with half-pixel
  // centres samples each block's centre, the mean of its four pixels.
  std::vector<uint8_t> big(4 * 4 * 3);
  const int delta[2][2] = {{2, -2}, {-2, 2}};
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      for (int c = 0; c < 3; ++c) {
        const int v = kPixels[((y / 2) * 2 + x / 2) * 3 + c];
        big[(y * 4 + x) * 3 + c] = static_cast<uint8_t>(v >= 2 ? v + delta[y % 2][x % 2] : v);
      }
    }
  }
  std::vector<uint8_t> small(2 * 2 * 3);
  ResizeBilinearU8(big.data(), 4, 4, 3, small.data(), 2, 2);
  EXPECT_EQ(small, kPixels);

  TempDir dir;
  WritePng(dir / "big.png", 4, 4, 3, big);
  WriteText(dir / "ds.txt", "big.png\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  std::map<std::string, TensorStats> stats;
  Status s = Calibrate(testing::EmitOrDie(SmallConvGraph({10, 20, 30}, {2, 4, 5})), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", -6.0f, 34.0f, 12);
  ExpectRange(stats, "conv_out", -16.75f, 74.5f, 8);
}

TEST(Calibrate, ResizeKeepsSizeAndInterpolatesUpscaling) {
  // 2x1 -> 4x1: half-pixel centres at -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
  const std::vector<uint8_t> src = {0, 100};
  std::vector<uint8_t> dst(4);
  ResizeBilinearU8(src.data(), 2, 1, 1, dst.data(), 4, 1);
  EXPECT_EQ(dst, (std::vector<uint8_t>{0, 25, 75, 100}));
}

TEST(Calibrate, GreyImageFeedsAllThreeChannels) {
  TempDir dir;
  WritePng(dir / "grey.png", 2, 2, 1, {0, 50, 100, 200});
  WriteText(dir / "ds.txt", "grey.png\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  std::map<std::string, TensorStats> stats;
  // x = v for every channel: conv0 = 0, conv1 = 2.75 v - 1: {-1, 136.5, 274, 549}.
  Status s = Calibrate(testing::EmitOrDie(SmallConvGraph()), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", 0.0f, 200.0f, 12);
  ExpectRange(stats, "conv_out", -1.0f, 549.0f, 8);
}

TEST(Calibrate, RgbImageFeedsAOneChannelInputAsGrey) {
  TempDir dir;
  WritePng(dir / "rgb.png", 2, 2, 3, {7, 7, 7, 9, 9, 9, 0, 0, 0, 255, 255, 255});
  WriteText(dir / "ds.txt", "rgb.png\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  std::map<std::string, TensorStats> stats;
  Status s = Calibrate(testing::EmitOrDie(SmallConvGraph({}, {}, {}, 1)), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectRange(stats, "x", 0.0f, 255.0f, 4);
}

TEST(Calibrate, InputErrorsNameTheSample) {
  TempDir dir;
  WriteNpyFloats(dir / "short.npy", {5}, {1, 2, 3, 4, 5});
  npy::NpyArray ints;
  ints.dtype = DataType::kInt64;
  ints.shape = {12};
  ints.data.assign(12 * 8, 0);
  ASSERT_TRUE(npy::WriteNpy(dir / "ints.npy", ints).ok());
  WritePng(dir / "img.png", 2, 2, 3, kPixels);
  WriteText(dir / "broken.png", "not a png");
  const std::vector<uint8_t> model = testing::EmitOrDie(SmallConvGraph());
  std::vector<DatasetSample> samples;
  std::map<std::string, TensorStats> stats;
  const std::string ds = dir / "ds.txt";

  WriteText(ds, "# first\nshort.npy\n");
  ASSERT_TRUE(ReadDatasetFile(ds, 1, &samples).ok());
  Status s = Calibrate(model, samples, Quiet(), &stats);
  EXPECT_EQ(s.message(), ds + ":2: input 0 'x': '" + (dir / "short.npy") +
                             "' [5] holds 5 values, the input [1,3,2,2] needs 12");

  WriteText(ds, "ints.npy\n");
  ASSERT_TRUE(ReadDatasetFile(ds, 1, &samples).ok());
  s = Calibrate(model, samples, Quiet(), &stats);
  EXPECT_EQ(s.message(), ds + ":1: input 0 'x': '" + (dir / "ints.npy") +
                             "' holds INT64 data; calibration .npy files must be float32");

  WriteText(ds, "broken.png\n");
  ASSERT_TRUE(ReadDatasetFile(ds, 1, &samples).ok());
  s = Calibrate(model, samples, Quiet(), &stats);
  EXPECT_CONTAINS(s, ds + ":1: input 0 'x': cannot decode '" + (dir / "broken.png") + "': ");

  // Images feed 4-D inputs of 1 or 3 channels only.
  WriteText(ds, "img.png\n");
  ASSERT_TRUE(ReadDatasetFile(ds, 1, &samples).ok());
  s = Calibrate(testing::EmitOrDie(SmallConvGraph({}, {}, {}, 4)), samples, Quiet(), &stats);
  EXPECT_EQ(s.message(), ds + ":1: input 0 'x': 4 channels; images feed 1- or 3-channel inputs only (give a .npy file)");
  s = Calibrate(testing::EmitOrDie(testing::AddMulGraph()), {DatasetSample{{dir / "img.png", dir / "img.png"}, 3, ds}},
                Quiet(), &stats);
  EXPECT_EQ(s.message(), ds + ":3: input 0 'a': not an image input ([2,3]); give a .npy file");

  // Samples made by hand are checked against the model too.
  s = Calibrate(model, {DatasetSample{{dir / "img.png", dir / "img.png"}, 0, ""}}, Quiet(), &stats);
  EXPECT_EQ(s.message(), "sample 1: 2 paths for a model with 1 input");
  s = Calibrate(model, {}, Quiet(), &stats);
  EXPECT_EQ(s.message(), "calibration: the dataset has no samples");
  s = Calibrate({1, 2, 3}, {DatasetSample{{dir / "img.png"}, 1, ds}}, Quiet(), &stats);
  EXPECT_CONTAINS(s, "calibration: cannot load the float model: ");
}

TEST(Calibrate, TwoInputsAndEveryOpOutput) {
  // AddMulGraph: sum = a + b, prod = sum * a.
  TempDir dir;
  WriteNpyFloats(dir / "a.npy", {2, 3}, {1, 2, 3, -4, 5, 6});
  WriteNpyFloats(dir / "b.npy", {2, 3}, {1, 1, 1, 1, 1, -10});
  WriteText(dir / "ds.txt", "a.npy b.npy\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 2, &samples).ok());
  std::map<std::string, TensorStats> stats;
  Status s = Calibrate(testing::EmitOrDie(testing::AddMulGraph()), samples, Quiet(), &stats);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(stats.size(), 4u);
  ExpectRange(stats, "a", -4.0f, 6.0f, 6);
  ExpectRange(stats, "b", -10.0f, 1.0f, 6);
  ExpectRange(stats, "sum", -4.0f, 6.0f, 6);    // {2,3,4,-3,6,-4}
  ExpectRange(stats, "prod", -24.0f, 30.0f, 6);  // {2,6,12,12,30,-24}
}

TEST(Calibrate, ProgressIsSilentWhenStderrIsNotATerminal) {
  if (isatty(2) == 1) GTEST_SKIP() << "stderr is a terminal";
  TempDir dir;
  WriteNpyFloats(dir / "s.npy", {1, 3, 2, 2}, Floats(12, 1.0f));
  WriteText(dir / "ds.txt", "s.npy\ns.npy\n");
  std::vector<DatasetSample> samples;
  ASSERT_TRUE(ReadDatasetFile(dir / "ds.txt", 1, &samples).ok());
  CalibrationOptions o;
  o.progress = true;
  std::map<std::string, TensorStats> stats;
  ::testing::internal::CaptureStderr();
  Status s = Calibrate(testing::EmitOrDie(SmallConvGraph()), samples, o, &stats);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(s.ok()) << s.message();
}

// ---- the run observer ----

class CountingObserver : public Profiler {
 public:
  void BeginOp(int index, const OpNode& node) override { begun.push_back(node.name); }
  void EndOp(int index, const OpNode& node) override {
    ended.push_back(node.name);
    if (node.name == "conv") conv_first = node.outputs[0]->as<const float>()[0];
  }
  std::vector<std::string> begun, ended;
  float conv_first = 0;
};

TEST(ContextObserver, SeesEveryOpAndItsOutputsAlongsidePerfProfiling) {
  std::shared_ptr<const Model> model;
  const std::vector<uint8_t> file = testing::EmitOrDie(testing::ConvReluPoolGraph());
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  ContextOptions options;
  options.collect_perf = true;
  std::unique_ptr<Context> ctx;
  ASSERT_TRUE(Context::Create(model, options, &ctx).ok());
  const Floats x(48, 1.0f);
  InputArg arg;
  arg.buffer.data = x.data();
  arg.buffer.size = x.size() * sizeof(float);
  ASSERT_TRUE(ctx->SetInputs({arg}).ok());
  CountingObserver observer;
  Status s = ctx->Run(&observer);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(observer.begun, (std::vector<std::string>{"conv", "relu", "gap"}));
  EXPECT_EQ(observer.ended, observer.begun);
  EXPECT_FLOAT_EQ(observer.conv_first, 0.1f * 3 + 0.5f);  // centre tap only, x = 1
  EXPECT_NE(ctx->perf_detail().find("Conv"), std::string::npos);
  // Without an observer nothing changes.
  ASSERT_TRUE(ctx->Run().ok());
  EXPECT_EQ(observer.begun.size(), 3u);
}

TEST(ContextObserver, InputsCanSkipNormalization) {
  Graph g = SmallConvGraph({1, 1, 1}, {2, 2, 2});
  const std::vector<uint8_t> file = testing::EmitOrDie(g);
  std::shared_ptr<const Model> model;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  std::unique_ptr<Context> ctx;
  ASSERT_TRUE(Context::Create(model, ContextOptions(), &ctx).ok());
  const Floats x(12, 5.0f);
  InputArg arg;
  arg.buffer.data = x.data();
  arg.buffer.size = x.size() * sizeof(float);
  for (bool normalize : {true, false}) {
    arg.normalize = normalize;
    ASSERT_TRUE(ctx->SetInputs({arg}).ok());
    ASSERT_TRUE(ctx->Run().ok());
    Floats y(8);
    ASSERT_TRUE(ctx->GetOutput(0, true, y.data(), y.size() * sizeof(float)).ok());
    // conv1 = 2.75 x - 1 with x = (5 - 1) / 2 = 2 or x = 5.
    EXPECT_EQ(y[4], normalize ? 4.5f : 12.75f);
  }
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
