#include "db_postprocess.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace ppocr {

namespace {

// Inclusive pixel bounds of one 8-connected region of the text bitmap.
struct Region {
  int x0, y0, x1, y1;
};

// Labels the 8-connected regions of `bitmap` (width x height, 1 = text), in
// raster order of their first pixel, like contour tracing finds them.
std::vector<Region> ConnectedRegions(const std::vector<uint8_t>& bitmap, int width, int height) {
  std::vector<Region> regions;
  std::vector<uint8_t> seen(bitmap.size(), 0);
  std::vector<int> stack;
  for (int start = 0; start < width * height; ++start) {
    if (!bitmap[start] || seen[start]) continue;
    Region r{start % width, start / width, start % width, start / width};
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      const int px = p % width, py = p / width;
      r.x0 = std::min(r.x0, px);
      r.x1 = std::max(r.x1, px);
      r.y0 = std::min(r.y0, py);
      r.y1 = std::max(r.y1, py);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int qx = px + dx, qy = py + dy;
          if (qx < 0 || qy < 0 || qx >= width || qy >= height) continue;
          const int q = qy * width + qx;
          if (bitmap[q] && !seen[q]) {
            seen[q] = 1;
            stack.push_back(q);
          }
        }
      }
    }
    regions.push_back(r);
  }
  return regions;
}

// Mean probability over the region's bounding box (PaddleOCR's box_score_fast).
float BoxScore(const ProbMap& map, const Region& r) {
  double sum = 0.0;
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) sum += map.data[static_cast<size_t>(y) * map.map_stride + x];
  }
  return static_cast<float>(sum / ((r.x1 - r.x0 + 1.0) * (r.y1 - r.y0 + 1.0)));
}

// Map coordinate -> original-image coordinate, rounded and clamped like
// PaddleOCR (to [0, size], then to the last pixel when the box is cropped).
int ToImage(float v, int map_size, int image_size) {
  const long scaled = std::lround(v / static_cast<float>(map_size) * static_cast<float>(image_size));
  return static_cast<int>(std::clamp<long>(scaled, 0, image_size - 1));
}

}  // namespace

std::vector<TextBox> DetectBoxes(const ProbMap& map, const DbParams& params) {
  const int w = map.valid_width, h = map.valid_height;
  std::vector<uint8_t> bitmap(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    const float* row = map.data + static_cast<size_t>(y) * map.map_stride;
    for (int x = 0; x < w; ++x) bitmap[static_cast<size_t>(y) * w + x] = row[x] > params.thresh;
  }
  std::vector<Region> regions = ConnectedRegions(bitmap, w, h);
  if (regions.size() > static_cast<size_t>(params.max_candidates)) regions.resize(params.max_candidates);

  std::vector<TextBox> boxes;
  for (const Region& r : regions) {
    // Side lengths between the outermost pixel centres, as a rectangle fitted
    // to the region's contour measures them.
    const float bw = static_cast<float>(r.x1 - r.x0), bh = static_cast<float>(r.y1 - r.y0);
    if (std::min(bw, bh) < params.min_size) continue;
    const float score = BoxScore(map, r);
    if (score < params.box_thresh) continue;
    // The network predicts a shrunk text kernel; grow it back by the
    // distance PaddleOCR's unclip uses: area * ratio / perimeter.
    const float d = bw * bh * params.unclip_ratio / (2.0f * (bw + bh));
    if (std::min(bw, bh) + 2.0f * d < params.min_size + 2) continue;
    TextBox t;
    t.score = score;
    t.box.x0 = ToImage(r.x0 - d, w, map.image_width);
    t.box.x1 = ToImage(r.x1 + d, w, map.image_width);
    t.box.y0 = ToImage(r.y0 - d, h, map.image_height);
    t.box.y1 = ToImage(r.y1 + d, h, map.image_height);
    if (t.box.width() <= 3 || t.box.height() <= 3) continue;
    boxes.push_back(t);
  }
  return boxes;
}

void SortReadingOrder(std::vector<TextBox>* boxes) {
  std::vector<TextBox>& b = *boxes;
  std::stable_sort(b.begin(), b.end(), [](const TextBox& l, const TextBox& r) {
    return l.box.y0 != r.box.y0 ? l.box.y0 < r.box.y0 : l.box.x0 < r.box.x0;
  });
  // Boxes on one line rarely share the exact top: within 10 pixels, left first.
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    for (size_t j = i + 1; j > 0; --j) {
      const Box& prev = b[j - 1].box;
      const Box& cur = b[j].box;
      if (std::abs(cur.y0 - prev.y0) < 10 && cur.x0 < prev.x0) {
        std::swap(b[j - 1], b[j]);
      } else {
        break;
      }
    }
  }
}

}  // namespace ppocr
