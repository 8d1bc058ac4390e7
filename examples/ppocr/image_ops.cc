#include "image_ops.h"

#include <algorithm>
#include <cmath>

#include <stb_image.h>
#include <stb_image_write.h>

namespace ppocr {

bool LoadImage(const std::string& path, Image* image, std::string* error) {
  int w = 0, h = 0, channels = 0;
  uint8_t* data = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (data == nullptr) {
    *error = "cannot read image '" + path + "': " + stbi_failure_reason();
    return false;
  }
  image->width = w;
  image->height = h;
  image->rgb.assign(data, data + static_cast<size_t>(w) * h * 3);
  stbi_image_free(data);
  return true;
}

bool SavePng(const std::string& path, const Image& image) {
  return stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(), image.width * 3) != 0;
}

namespace {

// Source sample positions of one axis, as OpenCV computes them for
// INTER_LINEAR: pixel centres aligned, clamped at the borders.
struct Taps {
  std::vector<int> i0, i1;
  std::vector<float> w1;  // weight of i1; i0 gets 1 - w1
};

Taps LinearTaps(int src_size, int dst_size) {
  Taps t;
  const float scale = static_cast<float>(src_size) / static_cast<float>(dst_size);
  for (int d = 0; d < dst_size; ++d) {
    const float s = (static_cast<float>(d) + 0.5f) * scale - 0.5f;
    int i = static_cast<int>(std::floor(s));
    float f = s - static_cast<float>(i);
    if (i < 0) {
      i = 0;
      f = 0.0f;
    }
    if (i >= src_size - 1) {
      i = src_size - 1;
      f = 0.0f;
    }
    t.i0.push_back(i);
    t.i1.push_back(std::min(i + 1, src_size - 1));
    t.w1.push_back(f);
  }
  return t;
}

}  // namespace

Image Resize(const Image& src, int width, int height) {
  Image dst;
  dst.width = width;
  dst.height = height;
  dst.rgb.resize(static_cast<size_t>(width) * height * 3);
  const Taps tx = LinearTaps(src.width, width);
  const Taps ty = LinearTaps(src.height, height);
  for (int y = 0; y < height; ++y) {
    const float wy = ty.w1[y];
    for (int x = 0; x < width; ++x) {
      const float wx = tx.w1[x];
      const uint8_t* p00 = src.pixel(tx.i0[x], ty.i0[y]);
      const uint8_t* p01 = src.pixel(tx.i1[x], ty.i0[y]);
      const uint8_t* p10 = src.pixel(tx.i0[x], ty.i1[y]);
      const uint8_t* p11 = src.pixel(tx.i1[x], ty.i1[y]);
      uint8_t* out = dst.pixel(x, y);
      for (int c = 0; c < 3; ++c) {
        const float top = p00[c] + (p01[c] - p00[c]) * wx;
        const float bottom = p10[c] + (p11[c] - p10[c]) * wx;
        out[c] = static_cast<uint8_t>(std::lround(top + (bottom - top) * wy));
      }
    }
  }
  return dst;
}

Image Crop(const Image& src, const Box& box) {
  Image dst;
  dst.width = box.width();
  dst.height = box.height();
  dst.rgb.resize(static_cast<size_t>(dst.width) * dst.height * 3);
  for (int y = 0; y < dst.height; ++y) {
    std::copy_n(src.pixel(box.x0, box.y0 + y), static_cast<size_t>(dst.width) * 3, dst.pixel(0, y));
  }
  return dst;
}

Image Rotate180(const Image& src) {
  Image dst = src;
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      std::copy_n(src.pixel(x, y), 3, dst.pixel(src.width - 1 - x, src.height - 1 - y));
    }
  }
  return dst;
}

void DrawFrame(Image* image, const Box& box, const uint8_t color[3], int thickness) {
  const int x0 = std::max(box.x0 - thickness, 0), x1 = std::min(box.x1 + thickness, image->width);
  const int y0 = std::max(box.y0 - thickness, 0), y1 = std::min(box.y1 + thickness, image->height);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const bool inside = x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1;
      if (!inside) std::copy_n(color, 3, image->pixel(x, y));
    }
  }
}

}  // namespace ppocr
