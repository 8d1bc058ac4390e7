// Writes the real-model parity cases (ONNX backend-test layout, see
// tests/ort/CMakeLists.txt) with real inputs:
//   ppocr_det   PP-OCRv4 det on the OpenCV sample page imageTextN.png (640x640)
//   ppocr_rec   PP-OCRv4 rec on a line of text rendered with DejaVu Sans (48x320)
//   ppocr_cls   ppocr cls on the same kind of line turned upside down (48x192)
//   oww_melspectrogram, oww_embedding, oww_alexa
//               openWakeWord's chain on "alexa" spoken by espeak-ng (16 kHz,
//               1 s of silence on each side), as its pipeline feeds them.
// model.onnx is a symlink to the fetched model. ONNX Runtime fills in the
// expected outputs (ort_expected.js); npurt_conformance compares.
//
// The audio chain needs each stage's output to build the next stage's input;
// those come from npurt itself (compiled here, run through the C API). That
// is fine for an oracle test: each stage is compared with ONNX Runtime on
// exactly the input it is given, and each input is real speech features.
//
// usage: npurt_make_real_model_cases --data-dir DIR --image PNG --font TTF
//          --espeak-ng PATH --sox PATH OUT_DIR
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_truetype.h>

#include "compiler/compile.h"
#include "rknn_api.h"

namespace {

namespace fs = std::filesystem;

struct Tensor {
  std::vector<int64_t> dims;
  std::vector<float> values;
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "npurt_make_real_model_cases: %s\n", message.c_str());
  std::exit(1);
}

void WriteCase(const fs::path& out_dir, const std::string& name, const fs::path& model, const std::string& input_name,
               const Tensor& input) {
  const fs::path dir = out_dir / name;
  fs::create_directories(dir / "test_data_set_0");
  std::error_code ec;
  fs::remove(dir / "model.onnx", ec);
  fs::create_symlink(fs::absolute(model), dir / "model.onnx");
  onnx::TensorProto proto;
  proto.set_name(input_name);
  proto.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : input.dims) proto.add_dims(d);
  proto.set_raw_data(input.values.data(), input.values.size() * sizeof(float));
  std::ofstream f(dir / "test_data_set_0" / "input_0.pb", std::ios::binary | std::ios::trunc);
  if (!proto.SerializeToOstream(&f)) Die("cannot write " + (dir / "test_data_set_0/input_0.pb").string());
  std::printf("%-20s %s%s\n", name.c_str(), input_name.c_str(), [&] {
    std::string s = "[";
    for (size_t i = 0; i < input.dims.size(); ++i) s += (i ? "," : "") + std::to_string(input.dims[i]);
    return s + "]";
  }().c_str());
}

// ------------------------------------------------------------------ images

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // interleaved
};

Image LoadImage(const std::string& path) {
  Image img;
  int channels = 0;
  uint8_t* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
  if (data == nullptr) Die("cannot read image " + path + ": " + stbi_failure_reason());
  img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
  stbi_image_free(data);
  return img;
}

// Bilinear sample of channel c at (x, y) in source pixel coordinates (half-pixel centres).
float Sample(const Image& img, float x, float y, int c) {
  x = std::clamp(x - 0.5f, 0.0f, static_cast<float>(img.width - 1));
  y = std::clamp(y - 0.5f, 0.0f, static_cast<float>(img.height - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const float fx = x - x0, fy = y - y0;
  auto at = [&](int xx, int yy) { return static_cast<float>(img.rgb[(static_cast<size_t>(yy) * img.width + xx) * 3 + c]); };
  return (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
}

// PaddleOCR's input: the image scaled by `scale` into the top-left corner of a
// height x width canvas (zeros elsewhere), BGR planes, (v/255 - mean) / std.
Tensor PaddleInput(const Image& img, int height, int width, float scale, const float mean[3], const float stdev[3]) {
  Tensor t{{1, 3, height, width}, std::vector<float>(static_cast<size_t>(3) * height * width, 0.0f)};
  const int w = std::min(width, static_cast<int>(std::lround(img.width * scale)));
  const int h = std::min(height, static_cast<int>(std::lround(img.height * scale)));
  for (int c = 0; c < 3; ++c) {
    const int src_c = 2 - c;  // BGR
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const float v = Sample(img, (x + 0.5f) / scale, (y + 0.5f) / scale, src_c) / 255.0f;
        t.values[(static_cast<size_t>(c) * height + y) * width + x] = (v - mean[c]) / stdev[c];
      }
    }
  }
  return t;
}

// Black text on white, `pixel_height` tall, with a margin; optionally upside down.
Image RenderText(const std::string& font_path, const std::string& text, int pixel_height, bool rotate_180) {
  std::ifstream f(font_path, std::ios::binary);
  const std::vector<uint8_t> ttf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  stbtt_fontinfo font;
  if (ttf.empty() || !stbtt_InitFont(&font, ttf.data(), stbtt_GetFontOffsetForIndex(ttf.data(), 0))) {
    Die("cannot load font " + font_path);
  }
  const float scale = stbtt_ScaleForPixelHeight(&font, static_cast<float>(pixel_height));
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&font, &ascent, &descent, &gap);
  const int margin = pixel_height / 4;
  float pen = static_cast<float>(margin);
  for (char ch : text) {
    int advance = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(&font, ch, &advance, &lsb);
    pen += advance * scale;
  }
  Image img;
  img.width = static_cast<int>(std::ceil(pen)) + margin;
  img.height = static_cast<int>(std::ceil((ascent - descent) * scale)) + 2 * margin;
  std::vector<float> ink(static_cast<size_t>(img.width) * img.height, 0.0f);
  const int baseline = margin + static_cast<int>(std::lround(ascent * scale));
  pen = static_cast<float>(margin);
  for (char ch : text) {
    int advance = 0, lsb = 0, x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetCodepointHMetrics(&font, ch, &advance, &lsb);
    stbtt_GetCodepointBitmapBox(&font, ch, scale, scale, &x0, &y0, &x1, &y1);
    const int gw = x1 - x0, gh = y1 - y0;
    if (gw > 0 && gh > 0) {
      std::vector<uint8_t> glyph(static_cast<size_t>(gw) * gh);
      stbtt_MakeCodepointBitmap(&font, glyph.data(), gw, gh, gw, scale, scale, ch);
      const int ox = static_cast<int>(std::lround(pen)) + x0, oy = baseline + y0;
      for (int y = 0; y < gh; ++y) {
        for (int x = 0; x < gw; ++x) {
          const int px = ox + x, py = oy + y;
          if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
          float& v = ink[static_cast<size_t>(py) * img.width + px];
          v = std::min(1.0f, v + glyph[static_cast<size_t>(y) * gw + x] / 255.0f);
        }
      }
    }
    pen += advance * scale;
  }
  img.rgb.resize(ink.size() * 3);
  for (size_t i = 0; i < ink.size(); ++i) {
    const size_t src = rotate_180 ? ink.size() - 1 - i : i;
    const uint8_t v = static_cast<uint8_t>(std::lround(255.0f * (1.0f - ink[src])));
    img.rgb[i * 3] = img.rgb[i * 3 + 1] = img.rgb[i * 3 + 2] = v;
  }
  return img;
}

// ------------------------------------------------------------------- audio

void Run(const std::string& command) {
  if (std::system(command.c_str()) != 0) Die("command failed: " + command);
}

// 16-bit PCM mono WAV -> samples as float (openWakeWord feeds int16 values unscaled).
std::vector<float> ReadWav16(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto u32 = [&](size_t at) { return static_cast<uint32_t>(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24); };
  if (b.size() < 12 || std::memcmp(b.data(), "RIFF", 4) != 0 || std::memcmp(b.data() + 8, "WAVE", 4) != 0) {
    Die(path + " is not a WAV file");
  }
  for (size_t at = 12; at + 8 <= b.size();) {
    const uint32_t size = u32(at + 4);
    if (std::memcmp(b.data() + at, "data", 4) == 0) {
      std::vector<float> samples(std::min<size_t>(size, b.size() - at - 8) / 2);
      for (size_t i = 0; i < samples.size(); ++i) {
        samples[i] = static_cast<int16_t>(b[at + 8 + 2 * i] | b[at + 9 + 2 * i] << 8);
      }
      return samples;
    }
    at += 8 + size + (size & 1);
  }
  Die(path + " has no data chunk");
}

// A model converted for one input shape, run through the C API.
class NpurtModel {
 public:
  NpurtModel(const fs::path& model, const std::string& input_name, const std::vector<int64_t>& dims) : path_(model) {
    npurt::compiler::CompileOptions options;
    options.input_shapes[input_name] = dims;
    std::vector<uint8_t> bytes;
    const npurt::Status s = npurt::compiler::CompileOnnxFile(model.string(), options, &bytes);
    if (!s.ok()) Die("converting " + model.string() + ": " + s.message());
    if (rknn_init(&ctx_, bytes.data(), static_cast<uint32_t>(bytes.size()), 0, nullptr) != RKNN_SUCC) {
      Die("rknn_init failed for " + model.string());
    }
  }
  ~NpurtModel() { rknn_destroy(ctx_); }
  NpurtModel(const NpurtModel&) = delete;
  NpurtModel& operator=(const NpurtModel&) = delete;

  Tensor Run(const Tensor& input) {
    rknn_input in{};
    in.buf = const_cast<float*>(input.values.data());
    in.size = static_cast<uint32_t>(input.values.size() * sizeof(float));
    in.type = RKNN_TENSOR_FLOAT32;
    in.fmt = input.dims.size() == 4 ? RKNN_TENSOR_NCHW : RKNN_TENSOR_UNDEFINED;
    rknn_output out{};
    out.want_float = 1;
    rknn_tensor_attr attr{};
    if (rknn_inputs_set(ctx_, 1, &in) != RKNN_SUCC || rknn_run(ctx_, nullptr) != RKNN_SUCC ||
        rknn_query(ctx_, RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof(attr)) != RKNN_SUCC ||
        rknn_outputs_get(ctx_, 1, &out, nullptr) != RKNN_SUCC) {
      Die("running " + path_.string() + " failed");
    }
    Tensor result;
    for (uint32_t i = 0; i < attr.n_dims; ++i) result.dims.push_back(attr.dims[i]);
    const float* p = static_cast<const float*>(out.buf);
    result.values.assign(p, p + out.size / sizeof(float));
    rknn_outputs_release(ctx_, 1, &out);
    return result;
  }

 private:
  fs::path path_;
  rknn_context ctx_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> args;
  std::string out_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) == 0 && i + 1 < argc) {
      args[a] = argv[++i];
    } else {
      out_dir = a;
    }
  }
  for (const char* key : {"--data-dir", "--image", "--font", "--espeak-ng", "--sox"}) {
    if (args[key].empty()) Die(std::string("missing ") + key);
  }
  if (out_dir.empty()) Die("missing output directory");
  const fs::path out(out_dir);
  const fs::path ppocr = fs::path(args["--data-dir"]) / "models" / "ppocr";
  const fs::path oww = fs::path(args["--data-dir"]) / "models" / "openwakeword";
  fs::create_directories(out);

  // PP-OCR: det normalization (ImageNet mean/std), rec/cls ((v - 0.5) / 0.5).
  const float det_mean[3] = {0.485f, 0.456f, 0.406f}, det_std[3] = {0.229f, 0.224f, 0.225f};
  const float half[3] = {0.5f, 0.5f, 0.5f};
  const Image page = LoadImage(args["--image"]);
  const float det_scale = 640.0f / std::max(page.width, page.height);
  WriteCase(out, "ppocr_det", ppocr / "ch_PP-OCRv4_det_infer.onnx", "x",
            PaddleInput(page, 640, 640, det_scale, det_mean, det_std));

  const Image line = RenderText(args["--font"], "Parity 2026: npurt vs ONNX Runtime", 40, false);
  WriteCase(out, "ppocr_rec", ppocr / "ch_PP-OCRv4_rec_infer.onnx", "x",
            PaddleInput(line, 48, 320, std::min(48.0f / line.height, 320.0f / line.width), half, half));
  const Image upside_down = RenderText(args["--font"], "Upside down line", 40, true);
  WriteCase(out, "ppocr_cls", ppocr / "ch_ppocr_mobile_v2.0_cls_infer.onnx", "x",
            PaddleInput(upside_down, 48, 192, std::min(48.0f / upside_down.height, 192.0f / upside_down.width),
                        half, half));

  // openWakeWord: speech -> mel frames (spec/10 + 2) -> 76-frame windows every
  // 8 frames -> 96-d embeddings -> the last 16 embeddings -> wake-word head.
  const std::string wav = (out / "alexa_16k.wav").string(), raw = (out / "alexa_espeak.wav").string();
  Run("'" + args["--espeak-ng"] + "' -v en-us -w '" + raw + "' alexa");
  Run("'" + args["--sox"] + "' '" + raw + "' -r 16000 -c 1 -b 16 '" + wav + "' pad 1 1");
  const std::vector<float> speech = ReadWav16(wav);
  const Tensor audio{{1, static_cast<int64_t>(speech.size())}, speech};
  WriteCase(out, "oww_melspectrogram", oww / "melspectrogram.onnx", "input", audio);

  const Tensor mel = NpurtModel(oww / "melspectrogram.onnx", "input", audio.dims).Run(audio);
  const int64_t frames = mel.dims.size() == 4 ? mel.dims[2] : 0;
  constexpr int64_t kWindow = 76, kStep = 8, kEmbeddings = 16, kBins = 32, kFeatures = 96;
  if (mel.dims.size() != 4 || mel.dims[3] != kBins || frames < kWindow + (kEmbeddings - 1) * kStep) {
    Die("unexpected melspectrogram output for " + std::to_string(speech.size()) + " samples");
  }
  auto window = [&](int64_t start) {
    Tensor w{{1, kWindow, kBins, 1}, std::vector<float>(kWindow * kBins)};
    for (int64_t i = 0; i < kWindow * kBins; ++i) w.values[i] = mel.values[start * kBins + i] / 10.0f + 2.0f;
    return w;
  };
  // The 76-frame window where the speech energy peaks goes into the embedding case.
  int64_t best = 0;
  float best_energy = -INFINITY;
  for (int64_t start = 0; start + kWindow <= frames; start += kStep) {
    float e = 0;
    for (float v : window(start).values) e += v;
    if (e > best_energy) best_energy = e, best = start;
  }
  WriteCase(out, "oww_embedding", oww / "embedding_model.onnx", "input_1", window(best));

  // Every embedding of the clip, then the 16-embedding window the head scores
  // highest: the moment the streaming pipeline fires on the word.
  NpurtModel embedding(oww / "embedding_model.onnx", "input_1", {1, kWindow, kBins, 1});
  std::vector<float> embeddings;
  for (int64_t start = 0; start + kWindow <= frames; start += kStep) {
    const Tensor e = embedding.Run(window(start));
    if (e.values.size() != kFeatures) Die("unexpected embedding size");
    embeddings.insert(embeddings.end(), e.values.begin(), e.values.end());
  }
  const int64_t count = static_cast<int64_t>(embeddings.size()) / kFeatures;
  NpurtModel alexa(oww / "alexa_v0.1.onnx", "onnx::Flatten_0", {1, kEmbeddings, kFeatures});
  Tensor head{{1, kEmbeddings, kFeatures}, {}}, best_head;
  float best_score = -1.0f;
  for (int64_t first = 0; first + kEmbeddings <= count; ++first) {
    head.values.assign(embeddings.begin() + first * kFeatures, embeddings.begin() + (first + kEmbeddings) * kFeatures);
    const float score = alexa.Run(head).values.at(0);
    if (score > best_score) best_score = score, best_head = head;
  }
  if (best_score < 0.5f) Die("the alexa head does not fire on the spoken word (best score " + std::to_string(best_score) + ")");
  std::printf("alexa head: best score %.4f over %lld windows\n", best_score, static_cast<long long>(count - kEmbeddings + 1));
  WriteCase(out, "oww_alexa", oww / "alexa_v0.1.onnx", "onnx::Flatten_0", best_head);
  return 0;
}
