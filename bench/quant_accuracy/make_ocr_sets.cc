// make_ocr_sets: writes the evaluation and calibration sets of the PaddleOCR
// quantization-accuracy benchmark (eval_ocr) into one directory. Everything
// is generated from fixed seeds (no clock, no rand()), so the same flags give
// the same files.
//
//   make_ocr_sets --keys ppocr_keys_v1.txt --out DIR [options]   (--help lists
//   them)
//
// DIR/rec/  eval/NNNNN.{png,npy}, calib/NNNNN.{png,npy}, labels.tsv, calib.txt
//           Text lines rendered with DejaVu fonts (sans, serif, mono,
//           condensed; bold, oblique), 20-60 px tall, 1-40 characters drawn
//           from the ASCII characters of the dictionary. The .npy is the
//           recognizer's input 1x3x48xW (preprocess.h LineTensor). labels.tsv:
//           "eval/NNNNN.png<TAB>text"; the model input is the .npy beside it.
// DIR/cls/  the same for the direction classifier (1x3x48x192), half of the
//           lines turned 180 degrees. labels.tsv:
//           "eval/NNNNN.png<TAB>0|180<TAB>text".
// DIR/det/  eval/*.png, calib/*.png: rendered pages (fonts, sizes, layouts,
//           dark-on-light, light-on-dark, colour, blur) and OpenCV's sample
//           photos, each letterboxed into the detector's square input as the
//           demo does (preprocess.h DetCanvas), so the calibrator and eval_ocr
//           feed exactly the application's pixels. labels.tsv:
//           "eval/NAME.png<TAB>source<TAB>valid_width<TAB>valid_height" (the
//           part of the canvas covered by the image).
// calib.txt lists the calibration inputs in rknn-toolkit2's dataset format,
// relative to the file (npurt convert --quantize --dataset DIR/rec/calib.txt).
// Evaluation and calibration strings never repeat, within or across sets.

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "image_ops.h"
#include "npy.h"
#include "preprocess.h"
#include "render.h"

#ifndef NPURT_OPENCV_SAMPLES_DIR
#define NPURT_OPENCV_SAMPLES_DIR "/usr/share/doc/opencv-doc/examples/data"
#endif

namespace quant_accuracy {
namespace {

using ppocr::Image;

constexpr const char* kDefaultFontDir = "/usr/share/fonts/truetype/dejavu";
constexpr const char* kFontFiles[] = {
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSans-BoldOblique.ttf",
    "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansMono-Oblique.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSerifCondensed.ttf",
    "DejaVuSerifCondensed-BoldItalic.ttf",
    "DejaVuSans-ExtraLight.ttf",
};
// OpenCV sample photos that show text (evaluation) and others for calibration;
// disjoint, so no evaluation photo is seen while choosing quantization ranges.
constexpr const char* kEvalPhotos[] = {"imageTextN.png", "imageTextR.png", "text_defocus.jpg", "text_motion.jpg",
                                       "licenseplate_motion.jpg"};
constexpr const char* kCalibPhotos[] = {"building.jpg", "board.jpg", "box_in_scene.png", "sudoku.png"};

// Common words, so lines look like text and not only like noise; pseudo-words
// and symbols are mixed in below.
constexpr const char* kWords[] = {
    "the",     "of",      "and",      "to",      "in",      "is",     "for",    "on",      "with",    "as",
    "by",      "at",      "from",     "or",      "an",      "be",     "this",   "which",   "not",     "are",
    "data",    "model",   "text",     "image",   "page",    "line",   "total",  "price",   "order",   "date",
    "time",    "name",    "number",   "phone",   "email",   "street", "city",   "road",    "north",   "south",
    "open",    "close",   "exit",     "entry",   "sale",    "free",   "new",    "offer",   "limited", "quality",
    "service", "center",  "office",   "hotel",   "station", "north",  "report", "invoice", "receipt", "amount",
    "balance", "account", "customer", "product", "version", "system", "input",  "output",  "value",   "result",
    "table",   "figure",  "section",  "chapter", "summary",
};
constexpr const char* kPunctuation = ".,:;!?-'\"()/";

bool IsDir(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool MakeDirs(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (!IsDir(prefix) && ::mkdir(prefix.c_str(), 0755) != 0) return false;
    if (slash == std::string::npos) return true;
  }
}

// The characters lines are made of: the printable ASCII characters of the
// recognizer's dictionary (one UTF-8 character per line), plus space.
struct Charset {
  std::string letters, digits,
      symbols;  // symbols: printable ASCII that is neither
  bool Has(char c) const {
    return c == ' ' || letters.find(c) != std::string::npos || digits.find(c) != std::string::npos ||
           symbols.find(c) != std::string::npos;
  }
};

bool LoadCharset(const std::string& keys_path, Charset* charset, std::string* error) {
  std::ifstream in(keys_path);
  if (!in) {
    *error = "cannot read keys file '" + keys_path + "'";
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() != 1 || line[0] <= ' ' || line[0] > '~') continue;
    const char c = line[0];
    std::string& group = std::isalpha(static_cast<unsigned char>(c))   ? charset->letters
                         : std::isdigit(static_cast<unsigned char>(c)) ? charset->digits
                                                                       : charset->symbols;
    group += c;
  }
  for (std::string* group : {&charset->letters, &charset->digits, &charset->symbols}) {
    std::sort(group->begin(),
              group->end());  // independent of the dictionary's order
  }
  if (charset->letters.empty() || charset->digits.empty()) {
    *error = "keys file '" + keys_path + "' has no ASCII letters or digits";
    return false;
  }
  return true;
}

char Pick(const std::string& chars, Rng* rng) {
  return chars[static_cast<size_t>(rng->Below(static_cast<int>(chars.size())))];
}

std::string Digits(int n, const Charset& cs, Rng* rng) {
  std::string s;
  for (int i = 0; i < n; ++i) s += Pick(cs.digits, rng);
  return s;
}

// One token of a line: a word, a pseudo-word, a number in some everyday
// format, or a run of arbitrary characters.
std::string Token(const Charset& cs, Rng* rng) {
  const int kind = rng->Below(10);
  std::string t;
  if (kind < 4) {
    t = kWords[rng->Below(static_cast<int>(std::size(kWords)))];
  } else if (kind < 6) {
    const int n = rng->Range(2, 9);
    for (int i = 0; i < n; ++i) t += static_cast<char>(std::tolower(Pick(cs.letters, rng)));
  } else if (kind < 9) {
    switch (rng->Below(7)) {
      case 0:
        t = Digits(rng->Range(1, 6), cs, rng);
        break;
      case 1:
        t = "20" + Digits(2, cs, rng) + "-" + Digits(2, cs, rng) + "-" + Digits(2, cs, rng);
        break;
      case 2:
        t = Digits(2, cs, rng) + ":" + Digits(2, cs, rng);
        break;
      case 3:
        t = "$" + Digits(rng->Range(1, 4), cs, rng) + "." + Digits(2, cs, rng);
        break;
      case 4:
        t = Digits(rng->Range(1, 2), cs, rng) + "%";
        break;
      case 5:
        t = "+" + Digits(2, cs, rng) + " " + Digits(3, cs, rng) + "-" + Digits(4, cs, rng);
        break;
      default:
        t = std::string(1, static_cast<char>(std::toupper(Pick(cs.letters, rng)))) + Pick(cs.letters, rng) + "-" +
            Digits(rng->Range(3, 6), cs, rng);
    }
  } else {
    const int n = rng->Range(1, 6);
    for (int i = 0; i < n; ++i) {
      const int group = rng->Below(3);
      t += Pick(group == 0 ? cs.letters : group == 1 ? cs.digits : cs.symbols.empty() ? cs.digits : cs.symbols, rng);
    }
  }
  const int style = rng->Below(6);  // capitalization
  if (style == 0 && !t.empty()) t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
  if (style == 1) {
    for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  if (rng->Chance(0.15)) {
    const char p = kPunctuation[rng->Below(static_cast<int>(std::char_traits<char>::length(kPunctuation)))];
    if (p == '(')
      t = "(" + t + ")";
    else
      t += p;
  }
  return t;
}

// A line of `min_length` to `max_length` characters (more short lines than
// long ones, as on real pages), no leading, trailing or double spaces, only
// characters of the charset.
std::string Line(const Charset& cs, int min_length, int max_length, Rng* rng) {
  const int bucket = rng->Below(10);
  const int span = max_length - min_length;
  const int hi = bucket < 4 ? min_length + span / 4 : bucket < 8 ? min_length + span * 5 / 8 : max_length;
  const int length = rng->Range(min_length, std::max(min_length, hi));
  std::string text;
  while (static_cast<int>(text.size()) < length) {
    if (!text.empty()) text += ' ';
    text += Token(cs, rng);
  }
  std::string clean;
  for (char c : text.substr(0, static_cast<size_t>(length))) {
    if (cs.Has(c)) clean += c;
  }
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  while (!clean.empty() && clean.front() == ' ') clean.erase(clean.begin());
  return clean;
}

// Lines never seen before (by any set written so far).
std::vector<std::string> UniqueLines(int count, int min_length, int max_length, const Charset& cs, Rng* rng,
                                     std::set<std::string>* used) {
  std::vector<std::string> lines;
  while (static_cast<int>(lines.size()) < count) {
    std::string line = Line(cs, min_length, max_length, rng);
    if (!line.empty() && used->insert(line).second) lines.push_back(std::move(line));
  }
  return lines;
}

// Text and background colours: mostly dark on light paper of varying
// brightness and tint, some light on dark, some coloured.
void PickColors(Rng* rng, uint8_t fg[3], uint8_t bg[3]) {
  const int kind = rng->Below(10);
  if (kind < 7) {
    const int paper = rng->Range(170, 255), ink = rng->Range(0, 90);
    for (int c = 0; c < 3; ++c) {
      bg[c] = static_cast<uint8_t>(std::clamp(paper + rng->Range(-12, 12), 0, 255));
      fg[c] = static_cast<uint8_t>(std::clamp(ink + rng->Range(-10, 10), 0, 255));
    }
  } else if (kind < 9) {
    const int paper = rng->Range(0, 80), ink = rng->Range(190, 255);
    for (int c = 0; c < 3; ++c) {
      bg[c] = static_cast<uint8_t>(paper + rng->Range(0, 20));
      fg[c] = static_cast<uint8_t>(std::clamp(ink + rng->Range(-10, 10), 0, 255));
    }
  } else {
    // A saturated background and white or black text, whichever contrasts more.
    for (int c = 0; c < 3; ++c) bg[c] = static_cast<uint8_t>(rng->Range(0, 255));
    const int luma = (bg[0] * 299 + bg[1] * 587 + bg[2] * 114) / 1000;
    const uint8_t v = luma > 128 ? static_cast<uint8_t>(rng->Range(0, 40)) : static_cast<uint8_t>(rng->Range(215, 255));
    fg[0] = fg[1] = fg[2] = v;
  }
}

// One line image as a detector would crop it: the text with a small margin.
Image RenderLine(const std::vector<Font>& fonts, const std::string& text, Rng* rng) {
  const Font& font = fonts[static_cast<size_t>(rng->Below(static_cast<int>(fonts.size())))];
  const int height = rng->Range(20, 60);
  const Mask mask = RenderText(font, text, height, rng->Range(1, height / 3), rng->Range(1, height / 6 + 1));
  uint8_t fg[3], bg[3];
  PickColors(rng, fg, bg);
  Image image = Fill(mask.width, mask.height, bg);
  Paint(&image, mask, 0, 0, fg);
  if (rng->Chance(0.2)) BoxBlur(&image, 1);
  AddNoise(&image, rng->Range(0, 8), rng);
  return image;
}

struct Options {
  std::string keys, out;
  std::string font_dir = kDefaultFontDir;
  std::string photo_dir = NPURT_OPENCV_SAMPLES_DIR;
  int rec_width = 320;
  int rec_eval = 200, rec_calib = 50;
  int cls_eval = 200, cls_calib = 50;
  int det_eval_pages = 20, det_calib_pages = 12;
  int det_size = 640;
  uint64_t seed = 20240601;
};

// File name of sample `i`: 00000, 00001, ...
std::string Name(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%05d", i);
  return buf;
}

bool Fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return false;
}

// One line set (rec or cls): PNG + model-input .npy per sample; labels.tsv
// for the evaluation part, calib.txt for the calibration part.
struct LineSample {
  std::string text;
  bool rotated = false;
};

bool WriteLineSamples(const std::string& dir, const std::string& part, const std::vector<LineSample>& samples,
                      const std::vector<Font>& fonts, int width, Rng* rng, std::ofstream* list, bool with_rotation) {
  if (!MakeDirs(dir + "/" + part)) return Fail("cannot create " + dir + "/" + part);
  std::string error;
  for (size_t i = 0; i < samples.size(); ++i) {
    Image image = RenderLine(fonts, samples[i].text, rng);
    if (samples[i].rotated) image = ppocr::Rotate180(image);
    const std::string stem = part + "/" + Name(static_cast<int>(i));
    if (!ppocr::SavePng(dir + "/" + stem + ".png", image)) return Fail("cannot write " + dir + "/" + stem + ".png");
    const std::vector<float> x = ppocr::LineTensor(image, 48, width);
    if (!WriteNpyF32(dir + "/" + stem + ".npy", {1, 3, 48, width}, x, &error)) return Fail(error);
    if (part == "calib") {
      *list << stem << ".npy\n";
    } else {
      *list << stem << ".png\t";
      if (with_rotation) *list << (samples[i].rotated ? "180" : "0") << '\t';
      *list << samples[i].text << '\n';
    }
  }
  return true;
}

bool WriteLineSet(const std::string& dir, int eval_count, int calib_count, int min_length, int width,
                  bool with_rotation, const Charset& cs, const std::vector<Font>& fonts, Rng* rng,
                  std::set<std::string>* used) {
  if (!MakeDirs(dir)) return Fail("cannot create " + dir);
  auto samples = [&](int count) {
    std::vector<LineSample> out;
    for (std::string& text : UniqueLines(count, min_length, 40, cs, rng, used)) {
      out.push_back({std::move(text), false});
    }
    // Exactly half turned, at positions that do not follow the text's order.
    if (with_rotation) {
      for (size_t i = 0; i < out.size(); ++i) out[i].rotated = i % 2 == 1;
      for (size_t i = out.size(); i > 1; --i)
        std::swap(out[i - 1].rotated, out[static_cast<size_t>(rng->Below(static_cast<int>(i)))].rotated);
    }
    return out;
  };
  const std::vector<LineSample> eval = samples(eval_count), calib = samples(calib_count);
  std::ofstream labels(dir + "/labels.tsv"), calib_list(dir + "/calib.txt");
  if (!WriteLineSamples(dir, "eval", eval, fonts, width, rng, &labels, with_rotation) ||
      !WriteLineSamples(dir, "calib", calib, fonts, width, rng, &calib_list, with_rotation)) {
    return false;
  }
  labels.close();
  calib_list.close();
  if (!labels || !calib_list) return Fail("cannot write the lists in " + dir);
  return true;
}

// A page of text lines: one of four layouts (paragraph, two columns, a title
// over body text, scattered labels of mixed sizes), colours as PickColors,
// sometimes blurred.
Image RenderPage(const std::vector<Font>& fonts, const Charset& cs, Rng* rng, std::set<std::string>* used) {
  static constexpr int kSizes[][2] = {{640, 640}, {800, 600}, {600, 800}, {960, 540}, {1024, 768}, {512, 512}};
  const int* size = kSizes[rng->Below(static_cast<int>(std::size(kSizes)))];
  const int width = size[0], height = size[1];
  uint8_t fg[3], bg[3];
  PickColors(rng, fg, bg);
  Image page = Fill(width, height, bg);
  const int layout = rng->Below(4);
  const Font& body_font = fonts[static_cast<size_t>(rng->Below(static_cast<int>(fonts.size())))];
  const int body_size = layout == 3 ? 0 : rng->Range(14, 36);
  const int columns = layout == 1 ? 2 : 1;
  const int margin = rng->Range(16, 48);
  const int column_width = (width - 2 * margin - (columns - 1) * margin) / columns;
  int y = margin;
  bool title = layout == 2;
  while (true) {
    const Font& font =
        layout == 3 || title ? fonts[static_cast<size_t>(rng->Below(static_cast<int>(fonts.size())))] : body_font;
    const int px = title ? rng->Range(36, 64) : layout == 3 ? rng->Range(14, 56) : body_size;
    const int line_height = px * (layout == 3 ? rng->Range(14, 30) : 14) / 10;
    if (y + line_height > height - margin) break;
    for (int col = 0; col < columns; ++col) {
      int x = margin + col * (column_width + margin);
      int avail = column_width;
      if (layout == 3) {  // a label somewhere along the row
        x += rng->Below(std::max(1, column_width / 2));
        avail = width - margin - x;
      }
      std::string text = UniqueLines(1, 1, 40, cs, rng, used)[0];
      while (!text.empty() && TextWidth(font, text, px) > avail) text.pop_back();
      while (!text.empty() && text.back() == ' ') text.pop_back();
      if (text.empty() || (layout != 3 && rng->Chance(0.1))) continue;  // blank lines between paragraphs
      Paint(&page, RenderText(font, text, px, 0, 0), x, y, fg);
    }
    y += line_height;
    title = false;
  }
  if (rng->Chance(0.25)) BoxBlur(&page, rng->Range(1, 2));
  AddNoise(&page, rng->Range(0, 6), rng);
  return page;
}

bool WriteDetPart(const std::string& dir, const std::string& part, int pages, const char* const* photos,
                  size_t num_photos, const Options& options, const std::vector<Font>& fonts, const Charset& cs,
                  Rng* rng, std::set<std::string>* used, std::ofstream* list) {
  if (!MakeDirs(dir + "/" + part)) return Fail("cannot create " + dir + "/" + part);
  auto write = [&](const Image& image, const std::string& name, const std::string& source) {
    int valid_w = 0, valid_h = 0;
    const Image canvas = ppocr::DetCanvas(image, options.det_size, options.det_size, &valid_w, &valid_h);
    const std::string file = part + "/" + name + ".png";
    if (!ppocr::SavePng(dir + "/" + file, canvas)) return Fail("cannot write " + dir + "/" + file);
    if (part == "calib") {
      *list << file << '\n';
    } else {
      *list << file << '\t' << source << '\t' << valid_w << '\t' << valid_h << '\n';
    }
    return true;
  };
  for (int i = 0; i < pages; ++i) {
    if (!write(RenderPage(fonts, cs, rng, used), "page" + Name(i), "rendered")) return false;
  }
  for (size_t i = 0; i < num_photos; ++i) {
    const std::string path = options.photo_dir + "/" + photos[i];
    Image photo;
    std::string error;
    if (!ppocr::LoadImage(path, &photo, &error)) return Fail(error);
    std::string name = photos[i];
    name = "photo_" + name.substr(0, name.find_last_of('.'));
    if (!write(photo, name, path)) return false;
    if (part != "calib") continue;
    // Camera photos are often shaken or out of focus, and blur changes a detector's activation ranges
    // (flat, low-contrast strokes): the calibration photos come sharp, shaken and defocused. Fixed
    // strengths and angles, so no random number is drawn (the other sets stay as they were).
    const int extent = std::max(photo.width, photo.height);
    Image shaken = photo;
    MotionBlur(&shaken, std::max(3, extent / 40), 20.0 * static_cast<double>(i));
    if (!write(shaken, name + "_motion", path)) return false;
    Image defocused = photo;
    BoxBlur(&defocused, std::max(2, extent / 120));
    if (!write(defocused, name + "_defocus", path)) return false;
  }
  return true;
}

bool WriteDetSet(const std::string& dir, const Options& options, const std::vector<Font>& fonts, const Charset& cs,
                 Rng* rng, std::set<std::string>* used) {
  std::ofstream labels(dir + "/labels.tsv"), calib_list(dir + "/calib.txt");
  if (!WriteDetPart(dir, "eval", options.det_eval_pages, kEvalPhotos, std::size(kEvalPhotos), options, fonts, cs, rng,
                    used, &labels) ||
      !WriteDetPart(dir, "calib", options.det_calib_pages, kCalibPhotos, std::size(kCalibPhotos), options, fonts, cs,
                    rng, used, &calib_list)) {
    return false;
  }
  labels.close();  // flushes: a full disk shows up here
  calib_list.close();
  if (!labels || !calib_list) return Fail("cannot write the lists in " + dir);
  return true;
}

void PrintUsage(const char* argv0) {
  const Options d;
  std::fprintf(stderr,
               "usage: %s --keys ppocr_keys_v1.txt --out DIR [options]\n"
               "  --rec-width W        recognizer input width (default %d; "
               "convert rec with x:1,3,48,W)\n"
               "  --rec-eval N         rec evaluation lines (default %d)\n"
               "  --rec-calib N        rec calibration lines (default %d)\n"
               "  --cls-eval N         cls evaluation lines, half turned 180 "
               "degrees (default %d)\n"
               "  --cls-calib N        cls calibration lines (default %d)\n"
               "  --det-eval-pages N   rendered det evaluation pages, besides "
               "%zu photos (default %d)\n"
               "  --det-calib-pages N  rendered det calibration pages, besides "
               "%zu photos (default %d)\n"
               "  --det-size S         detector input side (default %d)\n"
               "  --fonts DIR          DejaVu fonts (default %s)\n"
               "  --photos DIR         OpenCV sample images (default %s)\n"
               "  --seed N             (default %llu)\n",
               argv0, d.rec_width, d.rec_eval, d.rec_calib, d.cls_eval, d.cls_calib, std::size(kEvalPhotos),
               d.det_eval_pages, std::size(kCalibPhotos), d.det_calib_pages, d.det_size, d.font_dir.c_str(),
               d.photo_dir.c_str(), static_cast<unsigned long long>(d.seed));
}

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    const char* value = argv[++i];
    auto number = [&](int* field, int min) {
      char* end = nullptr;
      const long v = std::strtol(value, &end, 10);
      *field = static_cast<int>(v);
      return *end == '\0' && v >= min && v <= 100000;
    };
    bool ok = true;
    if (arg == "--keys")
      o->keys = value;
    else if (arg == "--out")
      o->out = value;
    else if (arg == "--fonts")
      o->font_dir = value;
    else if (arg == "--photos")
      o->photo_dir = value;
    else if (arg == "--rec-width")
      ok = number(&o->rec_width, 16);
    else if (arg == "--rec-eval")
      ok = number(&o->rec_eval, 1);
    else if (arg == "--rec-calib")
      ok = number(&o->rec_calib, 1);
    else if (arg == "--cls-eval")
      ok = number(&o->cls_eval, 2);
    else if (arg == "--cls-calib")
      ok = number(&o->cls_calib, 1);
    else if (arg == "--det-eval-pages")
      ok = number(&o->det_eval_pages, 0);
    else if (arg == "--det-calib-pages")
      ok = number(&o->det_calib_pages, 0);
    else if (arg == "--det-size")
      ok = number(&o->det_size, ppocr::kDetStride);
    else if (arg == "--seed")
      o->seed = std::strtoull(value, nullptr, 10);
    else
      ok = false;
    if (!ok) return false;
  }
  return !o->keys.empty() && !o->out.empty();
}

int Main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    PrintUsage(argv[0]);
    return 2;
  }
  std::string error;
  Charset charset;
  if (!LoadCharset(options.keys, &charset, &error)) {
    Fail(error);
    return 1;
  }
  std::vector<Font> fonts(std::size(kFontFiles));
  for (size_t i = 0; i < fonts.size(); ++i) {
    if (!fonts[i].Load(options.font_dir + "/" + kFontFiles[i], &error)) {
      Fail(error);
      return 1;
    }
  }
  // One generator per set, so one set's size does not shift the draws of the
  // next (only the rare string another set already used, and which is
  // therefore drawn again, does).
  Rng rec_rng(options.seed), cls_rng(options.seed + 1), det_rng(options.seed + 2);
  std::set<std::string> used;
  if (!WriteLineSet(options.out + "/rec", options.rec_eval, options.rec_calib, 1, options.rec_width, false, charset,
                    fonts, &rec_rng, &used) ||
      !WriteLineSet(options.out + "/cls", options.cls_eval, options.cls_calib, 3, 192, true, charset, fonts, &cls_rng,
                    &used) ||
      !MakeDirs(options.out + "/det") || !WriteDetSet(options.out + "/det", options, fonts, charset, &det_rng, &used)) {
    return 1;
  }
  std::printf(
      "rec: %d eval + %d calib lines (1x3x48x%d), cls: %d + %d "
      "(1x3x48x192), det: %d + %zu eval and %d + %zu "
      "calib images (%dx%d) in %s\n",
      options.rec_eval, options.rec_calib, options.rec_width, options.cls_eval, options.cls_calib,
      options.det_eval_pages, std::size(kEvalPhotos), options.det_calib_pages, 3 * std::size(kCalibPhotos),
      options.det_size, options.det_size, options.out.c_str());
  return 0;
}

}  // namespace
}  // namespace quant_accuracy

int main(int argc, char** argv) { return quant_accuracy::Main(argc, argv); }
