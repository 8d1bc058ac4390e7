#include "preprocess.h"

#include <algorithm>
#include <cmath>

namespace ppocr {

void DetScaledSize(const Image& image, int max_width, int max_height, int* width, int* height) {
  const float ratio = std::min({1.0f, static_cast<float>(max_width) / static_cast<float>(image.width),
                                static_cast<float>(max_height) / static_cast<float>(image.height)});
  auto round_to_stride = [](float side, int limit) {
    const int r = static_cast<int>(std::lround(side / kDetStride)) * kDetStride;
    return std::clamp(r, kDetStride, limit / kDetStride * kDetStride);
  };
  *width = round_to_stride(static_cast<float>(image.width) * ratio, max_width);
  *height = round_to_stride(static_cast<float>(image.height) * ratio, max_height);
}

Image DetCanvas(const Image& image, int width, int height, int* scaled_width, int* scaled_height) {
  DetScaledSize(image, width, height, scaled_width, scaled_height);
  Image canvas;
  canvas.width = width;
  canvas.height = height;
  canvas.rgb.resize(static_cast<size_t>(width) * height * 3);
  for (size_t i = 0; i < canvas.rgb.size(); ++i) canvas.rgb[i] = kDetPadRgb[i % 3];
  const Image scaled = Resize(image, *scaled_width, *scaled_height);
  for (int y = 0; y < scaled.height; ++y) {
    std::copy_n(scaled.pixel(0, y), static_cast<size_t>(scaled.width) * 3, canvas.pixel(0, y));
  }
  return canvas;
}

std::vector<float> LineTensor(const Image& crop, int height, int width) {
  const double aspect = static_cast<double>(crop.width) / crop.height;
  const int scaled_w = std::min(width, static_cast<int>(std::ceil(height * aspect)));
  const Image scaled = Resize(crop, scaled_w, height);
  std::vector<float> x(static_cast<size_t>(3) * height * width, 0.0f);
  for (int c = 0; c < 3; ++c) {
    const int rgb_channel = 2 - c;  // B, G, R
    for (int y = 0; y < height; ++y) {
      float* row = &x[(static_cast<size_t>(c) * height + y) * width];
      for (int i = 0; i < scaled_w; ++i) row[i] = (scaled.pixel(i, y)[rgb_channel] / 255.0f - 0.5f) / 0.5f;
    }
  }
  return x;
}

}  // namespace ppocr
