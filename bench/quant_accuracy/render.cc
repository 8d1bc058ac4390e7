#include "render.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

namespace quant_accuracy {

uint64_t Rng::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int Rng::Below(int n) { return n <= 1 ? 0 : static_cast<int>(Next() % static_cast<uint64_t>(n)); }
int Rng::Range(int lo, int hi) { return lo + Below(hi - lo + 1); }
double Rng::Unit() { return static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0); }

bool Font::Load(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  ttf_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (ttf_.empty() || !stbtt_InitFont(&info_, ttf_.data(), stbtt_GetFontOffsetForIndex(ttf_.data(), 0))) {
    *error = "cannot load font '" + path + "'";
    return false;
  }
  name_ = path.substr(path.find_last_of('/') + 1);
  return true;
}

namespace {

// Pen advance of every character, kerning with the next one included.
std::vector<float> Advances(const Font& font, const std::string& text, float scale) {
  std::vector<float> advances(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    int advance = 0, lsb = 0;
    const int ch = static_cast<unsigned char>(text[i]);
    stbtt_GetCodepointHMetrics(&font.info(), ch, &advance, &lsb);
    int kern = 0;
    if (i + 1 < text.size())
      kern = stbtt_GetCodepointKernAdvance(&font.info(), ch, static_cast<unsigned char>(text[i + 1]));
    advances[i] = static_cast<float>(advance + kern) * scale;
  }
  return advances;
}

}  // namespace

int TextWidth(const Font& font, const std::string& text, int pixel_height) {
  const float scale = stbtt_ScaleForPixelHeight(&font.info(), static_cast<float>(pixel_height));
  float width = 0.0f;
  for (float a : Advances(font, text, scale)) width += a;
  return static_cast<int>(std::ceil(width));
}

Mask RenderText(const Font& font, const std::string& text, int pixel_height, int margin_x, int margin_y) {
  const stbtt_fontinfo& info = font.info();
  const float scale = stbtt_ScaleForPixelHeight(&info, static_cast<float>(pixel_height));
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
  const std::vector<float> advances = Advances(font, text, scale);
  Mask mask;
  mask.width = TextWidth(font, text, pixel_height) + 2 * margin_x;
  mask.height = static_cast<int>(std::ceil((ascent - descent) * scale)) + 2 * margin_y;
  mask.alpha.assign(static_cast<size_t>(mask.width) * mask.height, 0.0f);
  const int baseline = margin_y + static_cast<int>(std::lround(ascent * scale));
  float pen = static_cast<float>(margin_x);
  std::vector<uint8_t> glyph;
  for (size_t i = 0; i < text.size(); ++i) {
    const int ch = static_cast<unsigned char>(text[i]);
    // Sub-pixel pen positions keep the spacing of small text even.
    const float shift = pen - std::floor(pen);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetCodepointBitmapBoxSubpixel(&info, ch, scale, scale, shift, 0.0f, &x0, &y0, &x1, &y1);
    const int gw = x1 - x0, gh = y1 - y0;
    if (gw > 0 && gh > 0) {
      glyph.assign(static_cast<size_t>(gw) * gh, 0);
      stbtt_MakeCodepointBitmapSubpixel(&info, glyph.data(), gw, gh, gw, scale, scale, shift, 0.0f, ch);
      const int ox = static_cast<int>(std::floor(pen)) + x0, oy = baseline + y0;
      for (int y = 0; y < gh; ++y) {
        for (int x = 0; x < gw; ++x) {
          const int px = ox + x, py = oy + y;
          if (px < 0 || py < 0 || px >= mask.width || py >= mask.height) continue;
          float& a = mask.alpha[static_cast<size_t>(py) * mask.width + px];
          a = std::min(1.0f, a + glyph[static_cast<size_t>(y) * gw + x] / 255.0f);
        }
      }
    }
    pen += advances[i];
  }
  return mask;
}

ppocr::Image Fill(int width, int height, const uint8_t rgb[3]) {
  ppocr::Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<size_t>(width) * height * 3);
  for (size_t i = 0; i < image.rgb.size(); ++i) image.rgb[i] = rgb[i % 3];
  return image;
}

void Paint(ppocr::Image* image, const Mask& mask, int x, int y, const uint8_t rgb[3]) {
  for (int my = 0; my < mask.height; ++my) {
    const int py = y + my;
    if (py < 0 || py >= image->height) continue;
    for (int mx = 0; mx < mask.width; ++mx) {
      const int px = x + mx;
      const float a = mask.alpha[static_cast<size_t>(my) * mask.width + mx];
      if (px < 0 || px >= image->width || a <= 0.0f) continue;
      uint8_t* p = image->pixel(px, py);
      for (int c = 0; c < 3; ++c) p[c] = static_cast<uint8_t>(std::lround(p[c] + (rgb[c] - p[c]) * a));
    }
  }
}

void AddNoise(ppocr::Image* image, int amplitude, Rng* rng) {
  if (amplitude <= 0) return;
  for (uint8_t& v : image->rgb) v = static_cast<uint8_t>(std::clamp(v + rng->Range(-amplitude, amplitude), 0, 255));
}

void BoxBlur(ppocr::Image* image, int passes) {
  for (int pass = 0; pass < passes; ++pass) {
    const ppocr::Image src = *image;
    for (int y = 0; y < src.height; ++y) {
      for (int x = 0; x < src.width; ++x) {
        int sum[3] = {0, 0, 0};
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const uint8_t* q = src.pixel(std::clamp(x + dx, 0, src.width - 1), std::clamp(y + dy, 0, src.height - 1));
            for (int c = 0; c < 3; ++c) sum[c] += q[c];
          }
        }
        for (int c = 0; c < 3; ++c) image->pixel(x, y)[c] = static_cast<uint8_t>((sum[c] + 4) / 9);
      }
    }
  }
}

void MotionBlur(ppocr::Image* image, int length, double angle_degrees) {
  if (length < 2) return;
  const double radians = angle_degrees * 3.14159265358979323846 / 180.0;
  std::vector<int> dx(static_cast<size_t>(length)), dy(dx.size());
  for (int i = 0; i < length; ++i) {
    const double t = i - (length - 1) / 2.0;
    dx[static_cast<size_t>(i)] = static_cast<int>(std::lround(t * std::cos(radians)));
    dy[static_cast<size_t>(i)] = static_cast<int>(std::lround(t * std::sin(radians)));
  }
  const ppocr::Image src = *image;
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      int sum[3] = {0, 0, 0};
      for (size_t i = 0; i < dx.size(); ++i) {
        const uint8_t* q = src.pixel(std::clamp(x + dx[i], 0, src.width - 1), std::clamp(y + dy[i], 0, src.height - 1));
        for (int c = 0; c < 3; ++c) sum[c] += q[c];
      }
      for (int c = 0; c < 3; ++c) image->pixel(x, y)[c] = static_cast<uint8_t>((sum[c] + length / 2) / length);
    }
  }
}

}  // namespace quant_accuracy
