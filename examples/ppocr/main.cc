// rknn_ppocr_demo: PaddleOCR (PP-OCRv4) on one image through the RKNN C API,
// written as a board application: rknn_api.h, stb and the C++ standard
// library only.
//
//   rknn_ppocr_demo DET.rknn CLS.rknn REC.rknn KEYS.txt [IMAGE] [-o OUT.png]
//
// det:  the image, scaled to fit the detector's static input, goes in as
//       uint8 RGB NHWC; the runtime applies the mean/std and RGB->BGR order
//       baked in at conversion. DB post-processing turns the probability map
//       into text boxes (db_postprocess.h).
// crop: each box is cut from the original image.
// cls:  a crop the direction classifier finds upside down is turned 180 degrees.
// rec:  the crop, height 48, goes in as normalized float32 NCHW; greedy CTC
//       decoding gives the text (ctc_decode.h).
// Prints one line per text line in reading order and the stage times, and
// writes the image with the boxes drawn on it.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ctc_decode.h"
#include "db_postprocess.h"
#include "image_ops.h"
#include "preprocess.h"
#include "rknn_model.h"

#ifndef PPOCR_DEFAULT_IMAGE
#define PPOCR_DEFAULT_IMAGE "imageTextN.png"
#endif

namespace ppocr {
namespace {

// PaddleOCR's cls_thresh and drop_score.
constexpr float kRotatedThresh = 0.9f;
constexpr float kDropScore = 0.5f;
constexpr uint8_t kBoxColor[3] = {255, 0, 0};

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct StageTimes {
  double pre = 0.0;    // image work before the model
  double infer = 0.0;  // rknn_inputs_set + rknn_run + rknn_outputs_get
  double post = 0.0;   // turning outputs into boxes or text
  double total() const { return pre + infer + post; }
};

struct Options {
  std::string det, cls, rec, keys;
  std::string image = PPOCR_DEFAULT_IMAGE;
  std::string output;  // default: <image name>.ocr.png in the current directory
};

void PrintUsage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s DET.rknn CLS.rknn REC.rknn KEYS.txt [IMAGE] [-o OUT.png]\n"
               "  IMAGE defaults to %s\n"
               "  OUT.png defaults to <IMAGE name>.ocr.png in the current directory\n",
               argv0, PPOCR_DEFAULT_IMAGE);
}

bool ParseArgs(int argc, char** argv, Options* options) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-o" && i + 1 < argc) {
      options->output = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return false;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() < 4 || positional.size() > 5) return false;
  options->det = positional[0];
  options->cls = positional[1];
  options->rec = positional[2];
  options->keys = positional[3];
  if (positional.size() == 5) options->image = positional[4];
  if (options->output.empty()) {
    std::string name = options->image.substr(options->image.find_last_of('/') + 1);
    const size_t dot = name.find_last_of('.');
    if (dot != std::string::npos && dot > 0) name.resize(dot);
    options->output = name + ".ocr.png";
  }
  return true;
}

bool Detect(RknnModel& det, const Image& image, std::vector<TextBox>* boxes, StageTimes* times, std::string* error) {
  Clock::time_point start = Clock::now();
  const int in_w = det.input_width(), in_h = det.input_height();
  int scaled_w = 0, scaled_h = 0;
  const Image canvas = DetCanvas(image, in_w, in_h, &scaled_w, &scaled_h);
  times->pre += MsSince(start);

  start = Clock::now();
  std::vector<float> prob;
  if (!det.Run(canvas.rgb.data(), canvas.rgb.size(), RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC, &prob, error)) return false;
  times->infer += MsSince(start);

  start = Clock::now();
  ProbMap map;
  map.data = prob.data();
  map.map_stride = in_w;
  map.valid_width = scaled_w;
  map.valid_height = scaled_h;
  map.image_width = image.width;
  map.image_height = image.height;
  *boxes = DetectBoxes(map, DbParams());
  SortReadingOrder(boxes);
  times->post += MsSince(start);
  return true;
}

bool RunLineModel(RknnModel& model, const Image& crop, std::vector<float>* output, StageTimes* times,
                  std::string* error) {
  Clock::time_point start = Clock::now();
  const std::vector<float> x = LineTensor(crop, model.input_height(), model.input_width());
  times->pre += MsSince(start);
  start = Clock::now();
  if (!model.Run(x.data(), x.size() * sizeof(float), RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW, output, error)) {
    return false;
  }
  times->infer += MsSince(start);
  return true;
}

// Checks what the pipeline assumes about the three models.
bool CheckModels(const RknnModel& det, const RknnModel& cls, const RknnModel& rec, const CharTable& table,
                 std::string* error) {
  for (const RknnModel* m : {&det, &cls, &rec}) {
    if (m->input_channels() != 3) {
      *error = "every model needs a 3-channel image input";
      return false;
    }
  }
  if (det.input_width() < kDetStride || det.input_height() < kDetStride ||
      det.output_attr().n_elems != static_cast<uint32_t>(det.input_width() * det.input_height())) {
    *error = "det: expected an input of at least 32x32 and a one-channel probability map of the same size";
    return false;
  }
  if (cls.output_attr().n_elems != 2) {
    *error = "cls: expected two output classes (0 and 180 degrees)";
    return false;
  }
  const rknn_tensor_attr& out = rec.output_attr();
  if (out.n_dims != 3 || static_cast<int>(out.dims[2]) != table.num_classes()) {
    *error = "rec: expected an output [1, steps, " + std::to_string(table.num_classes()) +
             "] (blank + dictionary + space), got " + std::to_string(out.n_dims) + " dims, last " +
             std::to_string(out.dims[out.n_dims > 0 ? out.n_dims - 1 : 0]);
    return false;
  }
  return true;
}

struct Line {
  Box box;
  bool rotated = false;  // cls found it upside down
  RecResult rec;
};

// cls, then rec on the box's crop of the original image (turned 180 degrees
// first if cls is confident it is upside down).
bool ReadLine(RknnModel& cls, RknnModel& rec, const CharTable& table, const Image& image, Line* line,
              StageTimes* cls_times, StageTimes* rec_times, std::string* error) {
  Clock::time_point start = Clock::now();
  Image crop = Crop(image, line->box);
  cls_times->pre += MsSince(start);
  std::vector<float> output;
  if (!RunLineModel(cls, crop, &output, cls_times, error)) return false;
  line->rotated = output[1] > kRotatedThresh;  // class 1: rotated 180 degrees
  if (line->rotated) crop = Rotate180(crop);

  if (!RunLineModel(rec, crop, &output, rec_times, error)) return false;
  start = Clock::now();
  line->rec = CtcGreedyDecode(output.data(), static_cast<int>(output.size()) / table.num_classes(), table);
  // The box's blank margin can read as a space at either end (the line's own indent); a line of text
  // neither starts nor ends with one.
  std::string& text = line->rec.text;
  text.erase(0, text.find_first_not_of(' '));
  text.erase(text.find_last_not_of(' ') + 1);
  rec_times->post += MsSince(start);
  return true;
}

void PrintTimes(double load_ms, const StageTimes& det, const StageTimes& cls, const StageTimes& rec,
                const std::vector<Line>& lines) {
  int rotated = 0;
  for (const Line& line : lines) rotated += line.rotated;
  std::printf("times (ms): load models %.1f\n", load_ms);
  std::printf("  det %8.1f  (pre %.1f, run %.1f, post %.1f)  %zu boxes\n", det.total(), det.pre, det.infer, det.post,
              lines.size());
  std::printf("  cls %8.1f  (crop+pre %.1f, run %.1f)  %zu lines, %d rotated\n", cls.total(), cls.pre, cls.infer,
              lines.size(), rotated);
  std::printf("  rec %8.1f  (pre %.1f, run %.1f, decode %.1f)  %zu lines\n", rec.total(), rec.pre, rec.infer, rec.post,
              lines.size());
  std::printf("  total %.1f\n", det.total() + cls.total() + rec.total());
}

int Fail(const std::string& error) {
  std::fprintf(stderr, "error: %s\n", error.c_str());
  return 1;
}

int Main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    PrintUsage(argv[0]);
    return 2;
  }
  std::string error;
  Image image;
  CharTable table;
  if (!LoadImage(options.image, &image, &error) || !table.Load(options.keys, &error)) return Fail(error);
  const Clock::time_point start = Clock::now();
  RknnModel det, cls, rec;  // each destroys its context when Main returns
  if (!det.Load(options.det, &error) || !cls.Load(options.cls, &error) || !rec.Load(options.rec, &error) ||
      !CheckModels(det, cls, rec, table, &error)) {
    return Fail(error);
  }
  const double load_ms = MsSince(start);
  std::printf("image %s (%dx%d); det input %dx%d, cls %dx%d, rec %dx%d\n", options.image.c_str(), image.width,
              image.height, det.input_width(), det.input_height(), cls.input_width(), cls.input_height(),
              rec.input_width(), rec.input_height());

  StageTimes det_times, cls_times, rec_times;
  std::vector<TextBox> boxes;
  if (!Detect(det, image, &boxes, &det_times, &error)) return Fail(error);
  std::vector<Line> lines(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) {
    lines[i].box = boxes[i].box;
    if (!ReadLine(cls, rec, table, image, &lines[i], &cls_times, &rec_times, &error)) return Fail(error);
  }

  Image annotated = image;
  int dropped = 0;
  for (const Line& line : lines) {
    if (line.rec.score < kDropScore) {
      ++dropped;
      continue;
    }
    const Box& b = line.box;
    std::printf("box [%d,%d,%d,%d]  score %.3f  %s\n", b.x0, b.y0, b.x1, b.y1, line.rec.score, line.rec.text.c_str());
    DrawFrame(&annotated, b, kBoxColor, 1);
  }
  if (dropped > 0) std::printf("(%d boxes dropped: text score below %.1f)\n", dropped, kDropScore);
  PrintTimes(load_ms, det_times, cls_times, rec_times, lines);

  if (!SavePng(options.output, annotated)) return Fail("cannot write '" + options.output + "'");
  std::printf("annotated image: %s\n", options.output.c_str());
  return 0;
}

}  // namespace
}  // namespace ppocr

int main(int argc, char** argv) { return ppocr::Main(argc, argv); }
