// eval_fashion_mnist: what INT8 quantization costs on a real task.
//
// The float and the int8 conversion of bench/fashion_mnist/fashion_cnn.onnx run
// side by side through the RKNN C API on the 10 000 Fashion-MNIST test images
// (Debian's dataset-fashion-mnist); the program reports both top-1 accuracies,
// the drop, how often the two agree and how close their logits are, and fails
// when the drop or the logit cosine pass a threshold.
//
//   eval_fashion_mnist write-calib calib/ --count 100      # PNGs + rknn-toolkit2 dataset.txt
//   npurt convert fashion_cnn.onnx -o f32.rknn --mean-values 0 --std-values 255
//   npurt convert fashion_cnn.onnx -o i8.rknn --mean-values 0 --std-values 255
//         --quantize --dataset calib/dataset.txt
//   eval_fashion_mnist eval --float f32.rknn --int8 i8.rknn [--limit N]
//
// Images go in as the board would feed them: uint8 NHWC, the runtime applies
// the mean/std recorded at conversion (the model expects pixel / 255).
// `--input f32` feeds float NCHW pixel / 255 instead, for models converted
// without --mean-values/--std-values; calibrate those with `write-calib
// --format npy` (float32 pixel / 255 in the ONNX layout), since PNGs would
// reach such a model unnormalized.
//
// Exit status: 0 thresholds met, 1 a threshold failed, 2 bad usage or an error.

#include <stb_image_write.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "idx_file.h"
#include "rknn_api.h"

#ifndef FASHION_MNIST_DEFAULT_DATA_DIR
#define FASHION_MNIST_DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#endif

namespace fashion_mnist {
namespace {

constexpr int kNumClasses = 10;
constexpr const char* kClassNames[kNumClasses] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                  "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
constexpr int kExitFail = 1;
constexpr int kExitError = 2;

enum class InputMode { kUint8Nhwc, kFloatNchw };

// One classifier behind an rknn_context (the pattern of examples/ppocr/rknn_model.h):
// one input image, one output of kNumClasses logits, every return code checked.
class RknnClassifier {
 public:
  RknnClassifier() = default;
  ~RknnClassifier() {
    if (ctx_ != 0) rknn_destroy(ctx_);
  }
  RknnClassifier(const RknnClassifier&) = delete;
  RknnClassifier& operator=(const RknnClassifier&) = delete;

  bool Load(const std::string& path, size_t image_pixels, std::string* error) {
    path_ = path;
    std::vector<char> model_path(path.begin(), path.end());  // rknn_init takes a non-const pointer
    model_path.push_back('\0');
    int ret = rknn_init(&ctx_, model_path.data(), 0, 0, nullptr);  // size 0: a file path
    if (ret != RKNN_SUCC) {
      ctx_ = 0;
      return Fail("rknn_init", ret, error);
    }
    rknn_input_output_num io{};
    ret = rknn_query(ctx_, RKNN_QUERY_IN_OUT_NUM, &io, sizeof(io));
    if (ret != RKNN_SUCC) return Fail("rknn_query(IN_OUT_NUM)", ret, error);
    rknn_tensor_attr in{}, out{};
    in.index = 0;
    out.index = 0;
    if ((ret = rknn_query(ctx_, RKNN_QUERY_INPUT_ATTR, &in, sizeof(in))) != RKNN_SUCC)
      return Fail("rknn_query(INPUT_ATTR)", ret, error);
    if ((ret = rknn_query(ctx_, RKNN_QUERY_OUTPUT_ATTR, &out, sizeof(out))) != RKNN_SUCC)
      return Fail("rknn_query(OUTPUT_ATTR)", ret, error);
    if (io.n_input != 1 || io.n_output != 1 || in.n_elems != image_pixels || out.n_elems != kNumClasses) {
      *error = "'" + path + "' has " + std::to_string(io.n_input) + " input(s) of " + std::to_string(in.n_elems) +
               " elements and " + std::to_string(io.n_output) + " output(s) of " + std::to_string(out.n_elems) +
               "; expected one " + std::to_string(image_pixels) + "-pixel grey image in, " +
               std::to_string(kNumClasses) + " logits out";
      return false;
    }
    return true;
  }

  // Sets the input (the runtime converts, normalizes and relayouts), runs,
  // and copies the logits out as float32.
  bool Run(const void* data, size_t bytes, InputMode mode, float* logits, std::string* error) {
    rknn_input in{};
    in.index = 0;
    in.buf = const_cast<void*>(data);  // only read: rknn_inputs_set copies it
    in.size = static_cast<uint32_t>(bytes);
    in.type = mode == InputMode::kUint8Nhwc ? RKNN_TENSOR_UINT8 : RKNN_TENSOR_FLOAT32;
    in.fmt = mode == InputMode::kUint8Nhwc ? RKNN_TENSOR_NHWC : RKNN_TENSOR_NCHW;
    int ret = rknn_inputs_set(ctx_, 1, &in);
    if (ret != RKNN_SUCC) return Fail("rknn_inputs_set", ret, error);
    if ((ret = rknn_run(ctx_, nullptr)) != RKNN_SUCC) return Fail("rknn_run", ret, error);
    rknn_output out{};
    out.index = 0;
    out.want_float = 1;
    if ((ret = rknn_outputs_get(ctx_, 1, &out, nullptr)) != RKNN_SUCC) return Fail("rknn_outputs_get", ret, error);
    std::memcpy(logits, out.buf, kNumClasses * sizeof(float));
    if ((ret = rknn_outputs_release(ctx_, 1, &out)) != RKNN_SUCC) return Fail("rknn_outputs_release", ret, error);
    return true;
  }

 private:
  bool Fail(const char* call, int ret, std::string* error) const {
    *error = std::string(call) + " failed for '" + path_ + "': error " + std::to_string(ret);
    return false;
  }

  rknn_context ctx_ = 0;
  std::string path_;
};

int ArgMax(const float* v) { return static_cast<int>(std::max_element(v, v + kNumClasses) - v); }

double Cosine(const float* a, const float* b) {
  double ab = 0, aa = 0, bb = 0;
  for (int i = 0; i < kNumClasses; ++i) {
    ab += double{a[i]} * b[i];
    aa += double{a[i]} * a[i];
    bb += double{b[i]} * b[i];
  }
  if (aa == 0 || bb == 0) return aa == bb ? 1.0 : 0.0;  // two zero vectors agree; one alone does not
  return ab / std::sqrt(aa * bb);
}

// ---- write-calib ---------------------------------------------------------

struct CalibOptions {
  std::string data_dir = FASHION_MNIST_DEFAULT_DATA_DIR;
  std::string out_dir;
  size_t count = 100;
  std::string format = "png";
};

// The first training images of each class, as evenly over the classes as
// `count` allows: the training set is already shuffled, so this is a
// deterministic, class-balanced sample without a random generator.
std::vector<size_t> StratifiedPick(const ImageSet& set, size_t count) {
  std::vector<size_t> quota(kNumClasses, count / kNumClasses);
  for (size_t c = 0; c < count % kNumClasses; ++c) ++quota[c];
  std::vector<size_t> picked;
  for (size_t i = 0; i < set.count && picked.size() < count; ++i) {
    const int label = set.labels[i];
    if (label < kNumClasses && quota[label] > 0) {
      --quota[label];
      picked.push_back(i);
    }
  }
  return picked;
}

// A float32 .npy of shape [1,1,rows,cols] holding pixel / 255: the model's own
// input, for models converted without mean/std.
bool WriteNpy(const std::string& path, const uint8_t* image, size_t rows, size_t cols) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, " + std::to_string(rows) + ", " +
                       std::to_string(cols) + "), }";
  // NPY 1.0: magic, version, uint16 header length; the header is space-padded
  // and newline-terminated so the data starts 64-byte aligned.
  const size_t preamble = 10;
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header += '\n';
  std::vector<float> values(rows * cols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = image[i] / 255.0f;
  std::ofstream f(path, std::ios::binary);
  const char magic[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const uint16_t len = static_cast<uint16_t>(header.size());
  const char len_le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(magic, sizeof(magic));
  f.write(len_le, sizeof(len_le));
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  return static_cast<bool>(f);
}

int WriteCalib(const CalibOptions& opt) {
  std::string error;
  ImageSet train;
  if (!ReadImageSet(opt.data_dir, "train", &train, &error)) {
    std::fprintf(stderr, "write-calib: %s\n", error.c_str());
    return kExitError;
  }
  const std::vector<size_t> picked = StratifiedPick(train, opt.count);
  if (picked.size() != opt.count) {
    std::fprintf(stderr, "write-calib: the training set has only %zu images for a class-balanced sample of %zu\n",
                 picked.size(), opt.count);
    return kExitError;
  }
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "write-calib: cannot create '%s': %s\n", opt.out_dir.c_str(), ec.message().c_str());
    return kExitError;
  }
  const std::string list_path = opt.out_dir + "/dataset.txt";
  std::ofstream list(list_path);
  list << "# " << opt.count << " Fashion-MNIST training images, class-balanced (eval_fashion_mnist write-calib)\n";
  for (size_t i : picked) {
    // Relative names: the dataset file resolves them against its own directory.
    char name[64];
    std::snprintf(name, sizeof(name), "train_%05zu_c%d.%s", i, train.labels[i], opt.format.c_str());
    const std::string path = opt.out_dir + "/" + name;
    const int w = static_cast<int>(train.cols), h = static_cast<int>(train.rows);
    const bool written = opt.format == "npy" ? WriteNpy(path, train.image(i), train.rows, train.cols)
                                             : stbi_write_png(path.c_str(), w, h, 1, train.image(i), w) != 0;
    if (!written) {
      std::fprintf(stderr, "write-calib: cannot write '%s'\n", path.c_str());
      return kExitError;
    }
    list << name << "\n";
  }
  list.close();
  if (!list) {
    std::fprintf(stderr, "write-calib: cannot write '%s'\n", list_path.c_str());
    return kExitError;
  }
  std::printf("wrote %zu %s images and %s\n", picked.size(), opt.format.c_str(), list_path.c_str());
  return 0;
}

// ---- eval ----------------------------------------------------------------

struct EvalOptions {
  std::string data_dir = FASHION_MNIST_DEFAULT_DATA_DIR;
  std::string float_model, int8_model;
  size_t limit = 0;  // 0: every test image
  std::string input = "u8";
  double max_drop = 0.5;       // top-1 points int8 may lose against float
  double min_cosine = 0.99;    // smallest float-vs-int8 logit cosine over all images
  double min_cosine_mean = 0.99;  // their mean (the OCR evaluator's threshold; this model meets both)
  double min_float_top1 = 80;  // guards against a wrong input convention, which would sink both models alike
};

struct ModelStats {
  size_t correct = 0;
  size_t class_total[kNumClasses] = {}, class_correct[kNumClasses] = {};
  double seconds = 0;  // inputs_set + run + outputs_get, summed over images
};

double Percent(size_t part, size_t whole) { return whole == 0 ? 0.0 : 100.0 * part / whole; }

int Eval(const EvalOptions& opt) {
  std::string error;
  ImageSet test;
  if (!ReadImageSet(opt.data_dir, "t10k", &test, &error)) {
    std::fprintf(stderr, "eval: %s\n", error.c_str());
    return kExitError;
  }
  const size_t n = opt.limit == 0 ? test.count : std::min(opt.limit, test.count);
  const size_t pixels = test.rows * test.cols;
  const InputMode mode = opt.input == "f32" ? InputMode::kFloatNchw : InputMode::kUint8Nhwc;

  RknnClassifier models[2];
  const std::string* paths[2] = {&opt.float_model, &opt.int8_model};
  for (int m = 0; m < 2; ++m) {
    if (!models[m].Load(*paths[m], pixels, &error)) {
      std::fprintf(stderr, "eval: %s\n", error.c_str());
      return kExitError;
    }
  }

  ModelStats stats[2];
  size_t agree = 0;
  double cos_min = std::numeric_limits<double>::infinity(), cos_sum = 0;
  size_t cos_min_index = 0;
  std::vector<float> scaled(pixels);
  float logits[2][kNumClasses];
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* image = test.image(i);
    const void* data = image;
    size_t bytes = pixels;
    if (mode == InputMode::kFloatNchw) {
      for (size_t p = 0; p < pixels; ++p) scaled[p] = image[p] / 255.0f;
      data = scaled.data();
      bytes = pixels * sizeof(float);
    }
    const int label = test.labels[i];
    for (int m = 0; m < 2; ++m) {
      const auto start = std::chrono::steady_clock::now();
      if (!models[m].Run(data, bytes, mode, logits[m], &error)) {
        std::fprintf(stderr, "eval: image %zu: %s\n", i, error.c_str());
        return kExitError;
      }
      stats[m].seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const bool hit = ArgMax(logits[m]) == label;
      stats[m].correct += hit;
      if (label < kNumClasses) {
        ++stats[m].class_total[label];
        stats[m].class_correct[label] += hit;
      }
    }
    agree += ArgMax(logits[0]) == ArgMax(logits[1]);
    const double cos = Cosine(logits[0], logits[1]);
    cos_sum += cos;
    if (cos < cos_min) {
      cos_min = cos;
      cos_min_index = i;
    }
  }

  const double float_top1 = Percent(stats[0].correct, n), int8_top1 = Percent(stats[1].correct, n);
  const double drop = float_top1 - int8_top1, cos_mean = n ? cos_sum / n : 1.0;
  std::printf("Fashion-MNIST test set, %zu images, input %s\n", n,
              mode == InputMode::kUint8Nhwc ? "uint8 NHWC (runtime mean/std)" : "float32 NCHW pixel/255");
  std::printf("  float  %s\n  int8   %s\n\n", opt.float_model.c_str(), opt.int8_model.c_str());
  std::printf("  %-12s %9s %9s\n", "class", "float %", "int8 %");
  for (int c = 0; c < kNumClasses; ++c) {
    std::printf("  %-12s %9.2f %9.2f\n", kClassNames[c], Percent(stats[0].class_correct[c], stats[0].class_total[c]),
                Percent(stats[1].class_correct[c], stats[1].class_total[c]));
  }
  std::printf("\n  %-26s %10.2f %%\n", "float top-1", float_top1);
  std::printf("  %-26s %10.2f %%\n", "int8 top-1", int8_top1);
  std::printf("  %-26s %10.2f points (max %.2f)\n", "drop", drop, opt.max_drop);
  std::printf("  %-26s %10.2f %%\n", "top-1 agreement", Percent(agree, n));
  std::printf("  %-26s %10.5f (image %zu; min %.4f)\n", "logit cosine min", cos_min, cos_min_index, opt.min_cosine);
  std::printf("  %-26s %10.5f (min %.4f)\n", "logit cosine mean", cos_mean, opt.min_cosine_mean);
  for (int m = 0; m < 2; ++m) {
    std::printf("  %-26s %10.1f images/s (%.3f ms each)\n", m == 0 ? "float throughput" : "int8 throughput",
                stats[m].seconds > 0 ? n / stats[m].seconds : 0.0, n ? 1e3 * stats[m].seconds / n : 0.0);
  }
  std::printf("RESULT task=fashion_mnist n=%zu float_top1=%.2f int8_top1=%.2f drop=%.2f agree=%.2f cos_min=%.5f "
              "cos_mean=%.5f\n",
              n, float_top1, int8_top1, drop, Percent(agree, n), cos_min, cos_mean);

  bool ok = true;
  if (float_top1 < opt.min_float_top1) {
    std::printf("FAIL float top-1 %.2f %% < %.2f %%: is the input convention right (--input, --mean/std-values)?\n",
                float_top1, opt.min_float_top1);
    ok = false;
  }
  if (drop > opt.max_drop) {
    std::printf("FAIL int8 loses %.2f points of top-1 (max %.2f)\n", drop, opt.max_drop);
    ok = false;
  }
  if (cos_min < opt.min_cosine) {
    std::printf("FAIL logit cosine %.5f on image %zu (min %.4f)\n", cos_min, cos_min_index, opt.min_cosine);
    ok = false;
  }
  if (cos_mean < opt.min_cosine_mean) {
    std::printf("FAIL mean logit cosine %.5f (min %.4f)\n", cos_mean, opt.min_cosine_mean);
    ok = false;
  }
  if (ok) std::printf("PASS\n");
  return ok ? 0 : kExitFail;
}

}  // namespace
}  // namespace fashion_mnist

int main(int argc, char** argv) {
  using namespace fashion_mnist;
  CLI::App app{"Fashion-MNIST: int8 vs float top-1 through the RKNN C API"};
  app.require_subcommand(1);

  CalibOptions calib;
  CLI::App* wc = app.add_subcommand("write-calib", "Write class-balanced training images + dataset.txt");
  wc->add_option("out_dir", calib.out_dir, "Directory for the PNGs and dataset.txt")->required();
  wc->add_option("--count", calib.count, "Number of images (spread evenly over the 10 classes)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  wc->add_option("--format", calib.format, "png: grey uint8 images; npy: float32 pixel/255, [1,1,28,28]")
      ->check(CLI::IsMember({"png", "npy"}))
      ->capture_default_str();
  wc->add_option("--data-dir", calib.data_dir, "Fashion-MNIST IDX files (Debian dataset-fashion-mnist)")
      ->capture_default_str();

  EvalOptions eval;
  CLI::App* ev = app.add_subcommand("eval", "Run the float and int8 models on the test set and compare");
  ev->add_option("--float", eval.float_model, "Float model (.rknn)")->required();
  ev->add_option("--int8", eval.int8_model, "Int8 model (.rknn)")->required();
  ev->add_option("--limit", eval.limit, "Evaluate only the first N test images (0: all)")->capture_default_str();
  ev->add_option("--input", eval.input, "u8: uint8 NHWC, the runtime normalizes; f32: float NCHW pixel/255")
      ->check(CLI::IsMember({"u8", "f32"}))
      ->capture_default_str();
  ev->add_option("--max-drop", eval.max_drop, "Largest allowed top-1 drop, in points")->capture_default_str();
  ev->add_option("--min-cosine", eval.min_cosine, "Smallest allowed float-vs-int8 logit cosine")
      ->capture_default_str();
  ev->add_option("--min-cosine-mean", eval.min_cosine_mean, "Smallest allowed mean float-vs-int8 logit cosine")
      ->capture_default_str();
  ev->add_option("--min-float-top1", eval.min_float_top1, "Smallest plausible float top-1, in percent")
      ->capture_default_str();
  ev->add_option("--data-dir", eval.data_dir, "Fashion-MNIST IDX files (Debian dataset-fashion-mnist)")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitError;
  }
  return wc->parsed() ? WriteCalib(calib) : Eval(eval);
}
