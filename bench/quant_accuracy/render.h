// Text rendering for the synthetic OCR sets (stb_truetype): a line of text as
// an anti-aliased coverage mask, composed onto images in any colour, plus the
// small image degradations the sets use (noise, blur). Deterministic: the
// same inputs give the same pixels.
#pragma once

#include <stb_truetype.h>

#include <cstdint>
#include <string>
#include <vector>

#include "image_ops.h"

namespace quant_accuracy {

// SplitMix64: a fixed, portable generator, so a seed names the same sets on
// every platform and standard library (std:: distributions are not specified
// bit for bit).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  int Below(int n);           // uniform in [0, n)
  int Range(int lo, int hi);  // uniform in [lo, hi]
  double Unit();              // uniform in [0, 1)
  bool Chance(double p) { return Unit() < p; }

 private:
  uint64_t state_;
};

class Font {
 public:
  // False and a message in *error if the file is missing or not a TrueType
  // font.
  bool Load(const std::string& path, std::string* error);
  const std::string& name() const { return name_; }
  const stbtt_fontinfo& info() const { return info_; }

 private:
  std::vector<uint8_t> ttf_;  // stbtt_fontinfo points into it
  stbtt_fontinfo info_{};
  std::string name_;
};

// Coverage in [0, 1], row-major.
struct Mask {
  int width = 0;
  int height = 0;
  std::vector<float> alpha;
};

// Width in pixels of `text` (ASCII) set at `pixel_height` (ascent - descent).
int TextWidth(const Font& font, const std::string& text, int pixel_height);

// `text` set at `pixel_height` (ascent - descent, stbtt_ScaleForPixelHeight)
// with kerning, `margin_x` / `margin_y` blank pixels around the line box.
Mask RenderText(const Font& font, const std::string& text, int pixel_height, int margin_x, int margin_y);

// A width x height image of one colour.
ppocr::Image Fill(int width, int height, const uint8_t rgb[3]);

// Blends `color` into `image` with the mask's coverage, mask's top left at (x,
// y); clipped.
void Paint(ppocr::Image* image, const Mask& mask, int x, int y, const uint8_t rgb[3]);

// Adds uniform noise in [-amplitude, amplitude] to every channel value.
void AddNoise(ppocr::Image* image, int amplitude, Rng* rng);

// 3x3 box blur, `passes` times (edges replicated).
void BoxBlur(ppocr::Image* image, int passes);

// Camera shake: the mean of `length` copies shifted along the direction
// `angle_degrees` (0: horizontal), centred (edges replicated).
void MotionBlur(ppocr::Image* image, int length, double angle_degrees);

}  // namespace quant_accuracy
