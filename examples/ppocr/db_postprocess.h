// Text boxes from the probability map of a DB (Differentiable Binarization)
// text detector, following PaddleOCR's DBPostProcess with score_mode "fast".
//
// PaddleOCR fits a minimum-area rotated rectangle to each region and expands
// its polygon with a Clipper offset. This version keeps boxes axis-aligned
// (the bounding box of each connected region, expanded on every side), which
// is exact for horizontal text such as scanned or printed pages; rotated or
// curved text would get loose boxes.
#pragma once

#include <vector>

#include "image_ops.h"

namespace ppocr {

struct DbParams {
  float thresh = 0.3f;        // a pixel is text when its probability exceeds this
  float box_thresh = 0.6f;    // a region is kept when its box's mean probability reaches this
  float unclip_ratio = 1.5f;  // how far a box grows: area * ratio / perimeter on each side
  int min_size = 3;           // shorter box sides (in map pixels) are noise
  int max_candidates = 1000;
};

// A detected text box in original-image coordinates and its DB score.
struct TextBox {
  Box box;
  float score = 0.0f;
};

// The probability map: row-major, `map_stride` floats per row. Only its
// top-left `valid_width` x `valid_height` part covers the image (the rest is
// padding); that part is the image scaled from `image_width` x `image_height`.
struct ProbMap {
  const float* data = nullptr;
  int map_stride = 0;
  int valid_width = 0;
  int valid_height = 0;
  int image_width = 0;
  int image_height = 0;
};

std::vector<TextBox> DetectBoxes(const ProbMap& map, const DbParams& params);

// Reading order: top to bottom, and left to right among boxes whose tops are
// within 10 pixels of each other (PaddleOCR's sorted_boxes).
void SortReadingOrder(std::vector<TextBox>* boxes);

}  // namespace ppocr
