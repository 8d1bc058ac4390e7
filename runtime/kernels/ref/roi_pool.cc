#include "runtime/kernels/ref/roi_pool.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace npurt {

namespace {

// One bilinear sample: the four corner offsets in the plane and their weights (all 0 outside).
struct Bilinear {
  int64_t pos[4] = {0, 0, 0, 0};
  float w[4] = {0, 0, 0, 0};
};

Bilinear SampleAt(float y, float x, int64_t height, int64_t width) {
  Bilinear b;
  if (y < -1.0f || y > static_cast<float>(height) || x < -1.0f || x > static_cast<float>(width)) return b;
  y = std::max(y, 0.0f);
  x = std::max(x, 0.0f);
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<float>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<float>(x_low);
  }
  const float ly = y - static_cast<float>(y_low), lx = x - static_cast<float>(x_low);
  const float hy = 1.0f - ly, hx = 1.0f - lx;
  b.pos[0] = y_low * width + x_low;
  b.pos[1] = y_low * width + x_high;
  b.pos[2] = y_high * width + x_low;
  b.pos[3] = y_high * width + x_high;
  b.w[0] = hy * hx;
  b.w[1] = hy * lx;
  b.w[2] = ly * hx;
  b.w[3] = ly * lx;
  return b;
}

}  // namespace

bool f32_roi_align__ref(const RoiAlignParams& p, const float* x, const float* rois, const int64_t* batch_indices,
                        float* y) {
  const int64_t plane = p.height * p.width;
  const float offset = p.half_pixel ? 0.5f : 0.0f;
  for (int64_t r = 0; r < p.num_rois; ++r) {
    const int64_t b = batch_indices[r];
    if (b < 0 || b >= p.batch) return false;
    const float* box = rois + r * 4;
    const float start_w = box[0] * p.spatial_scale - offset, start_h = box[1] * p.spatial_scale - offset;
    float roi_w = box[2] * p.spatial_scale - offset - start_w, roi_h = box[3] * p.spatial_scale - offset - start_h;
    if (!p.half_pixel) {
      roi_w = std::max(roi_w, 1.0f);
      roi_h = std::max(roi_h, 1.0f);
    }
    const float bin_h = roi_h / static_cast<float>(p.out_h), bin_w = roi_w / static_cast<float>(p.out_w);
    const int64_t grid_h = p.sampling_ratio > 0 ? p.sampling_ratio
                                                : static_cast<int64_t>(std::ceil(roi_h / static_cast<float>(p.out_h)));
    const int64_t grid_w = p.sampling_ratio > 0 ? p.sampling_ratio
                                                : static_cast<int64_t>(std::ceil(roi_w / static_cast<float>(p.out_w)));
    const int64_t count = std::max<int64_t>(grid_h * grid_w, 1);
    const int64_t bins = p.out_h * p.out_w;
    const float* in = x + b * p.channels * plane;
    float* out = y + r * p.channels * bins;
    for (int64_t ph = 0; ph < p.out_h; ++ph) {
      for (int64_t pw = 0; pw < p.out_w; ++pw) {
        const int64_t bin = ph * p.out_w + pw;
        for (int64_t c = 0; c < p.channels; ++c) out[c * bins + bin] = 0.0f;
        // Each sample point serves every channel.
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const float yy = start_h + static_cast<float>(ph) * bin_h +
                           (static_cast<float>(iy) + 0.5f) * bin_h / static_cast<float>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const float xx = start_w + static_cast<float>(pw) * bin_w +
                             (static_cast<float>(ix) + 0.5f) * bin_w / static_cast<float>(grid_w);
            const Bilinear s = SampleAt(yy, xx, p.height, p.width);
            const bool first = iy == 0 && ix == 0;
            for (int64_t c = 0; c < p.channels; ++c) {
              const float* v = in + c * plane;
              float& o = out[c * bins + bin];
              if (p.max_mode) {
                const float m = std::max(std::max(s.w[0] * v[s.pos[0]], s.w[1] * v[s.pos[1]]),
                                         std::max(s.w[2] * v[s.pos[2]], s.w[3] * v[s.pos[3]]));
                o = first ? m : std::max(o, m);
              } else {
                o += s.w[0] * v[s.pos[0]] + s.w[1] * v[s.pos[1]] + s.w[2] * v[s.pos[2]] + s.w[3] * v[s.pos[3]];
              }
            }
          }
        }
        if (!p.max_mode) {
          for (int64_t c = 0; c < p.channels; ++c) out[c * bins + bin] /= static_cast<float>(count);
        }
      }
    }
  }
  return true;
}

bool f32_max_roi_pool__ref(const MaxRoiPoolParams& p, const float* x, const float* rois, float* y) {
  const int64_t plane = p.height * p.width;
  for (int64_t r = 0; r < p.num_rois; ++r) {
    const float* box = rois + r * 5;
    const float bf = box[0];
    if (!(bf >= 0.0f && bf < static_cast<float>(p.batch))) return false;
    const int64_t b = static_cast<int64_t>(bf);
    const int64_t start_w = static_cast<int64_t>(std::round(box[1] * p.spatial_scale));
    const int64_t start_h = static_cast<int64_t>(std::round(box[2] * p.spatial_scale));
    const int64_t end_w = static_cast<int64_t>(std::round(box[3] * p.spatial_scale));
    const int64_t end_h = static_cast<int64_t>(std::round(box[4] * p.spatial_scale));
    const int64_t roi_h = std::max<int64_t>(end_h - start_h + 1, 1), roi_w = std::max<int64_t>(end_w - start_w + 1, 1);
    const float bin_h = static_cast<float>(roi_h) / static_cast<float>(p.out_h);
    const float bin_w = static_cast<float>(roi_w) / static_cast<float>(p.out_w);
    for (int64_t c = 0; c < p.channels; ++c) {
      const float* in = x + (b * p.channels + c) * plane;
      float* out = y + (r * p.channels + c) * p.out_h * p.out_w;
      for (int64_t ph = 0; ph < p.out_h; ++ph) {
        const int64_t h0 = std::clamp<int64_t>(
            static_cast<int64_t>(std::floor(static_cast<float>(ph) * bin_h)) + start_h, 0, p.height);
        const int64_t h1 = std::clamp<int64_t>(
            static_cast<int64_t>(std::ceil(static_cast<float>(ph + 1) * bin_h)) + start_h, 0, p.height);
        for (int64_t pw = 0; pw < p.out_w; ++pw) {
          const int64_t w0 = std::clamp<int64_t>(
              static_cast<int64_t>(std::floor(static_cast<float>(pw) * bin_w)) + start_w, 0, p.width);
          const int64_t w1 = std::clamp<int64_t>(
              static_cast<int64_t>(std::ceil(static_cast<float>(pw + 1) * bin_w)) + start_w, 0, p.width);
          float max = 0.0f;
          if (h1 > h0 && w1 > w0) {
            max = in[h0 * p.width + w0];
            for (int64_t h = h0; h < h1; ++h) {
              for (int64_t w = w0; w < w1; ++w) max = std::max(max, in[h * p.width + w]);
            }
          }
          out[ph * p.out_w + pw] = max;
        }
      }
    }
  }
  return true;
}

bool f32_max_unpool__ref(int64_t count, int64_t out_count, const float* x, const int64_t* indices, float* y) {
  std::memset(y, 0, static_cast<size_t>(out_count) * sizeof(float));
  for (int64_t i = 0; i < count; ++i) {
    if (indices[i] < 0 || indices[i] >= out_count) return false;
    y[indices[i]] = x[i];
  }
  return true;
}

}  // namespace npurt
