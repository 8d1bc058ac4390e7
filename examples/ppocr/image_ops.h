// The few image operations the OCR pipeline needs, on packed 8-bit RGB images:
// load/save (stb), bilinear resize (OpenCV INTER_LINEAR sampling, as
// PaddleOCR's cv2.resize), crop, 180-degree rotation and drawing box frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ppocr {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // height * width * 3, row-major, R G B

  uint8_t* pixel(int x, int y) { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
  const uint8_t* pixel(int x, int y) const { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
};

// An axis-aligned box in pixel coordinates: columns [x0, x1), rows [y0, y1).
struct Box {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int width() const { return x1 - x0; }
  int height() const { return y1 - y0; }
};

// Any format stb_image reads (PNG, JPEG, BMP, ...), converted to RGB. False and
// a message in *error if the file cannot be read.
bool LoadImage(const std::string& path, Image* image, std::string* error);
bool SavePng(const std::string& path, const Image& image);

// Bilinear resize with pixel-centre alignment (OpenCV's INTER_LINEAR).
Image Resize(const Image& src, int width, int height);

// The pixels of `box` (which must lie inside the image).
Image Crop(const Image& src, const Box& box);

Image Rotate180(const Image& src);

// Draws a frame `thickness` pixels wide just outside `box` (clipped to the
// image), so the boxed pixels stay visible.
void DrawFrame(Image* image, const Box& box, const uint8_t color[3], int thickness);

}  // namespace ppocr
