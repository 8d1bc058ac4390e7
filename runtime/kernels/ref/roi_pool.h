// Region-of-interest pooling (RoiAlign, MaxRoiPool) and MaxUnpool over NCHW float planes: the
// detector and segmentation heads of the vendor's operator list.
#pragma once

#include <cstdint>

namespace npurt {

// RoiAlign (ONNX, as ONNX Runtime computes it): each box [x1, y1, x2, y2] of `rois` (input pixels
// times spatial_scale; minus 0.5 with half_pixel) is cut into out_h x out_w bins, each sampled on a
// grid of sampling_ratio^2 points (0: ceil(box extent / bins) per dim) by bilinear interpolation;
// a bin is the mean of its samples (avg) or the largest of every sample's four weighted corners
// (max, ONNX Runtime's definition). Without half_pixel a box is at least 1 x 1.
struct RoiAlignParams {
  int64_t batch = 1, channels = 1, height = 1, width = 1;
  int64_t num_rois = 0;
  int64_t out_h = 1, out_w = 1;
  int64_t sampling_ratio = 0;
  float spatial_scale = 1.0f;
  bool half_pixel = true;
  bool max_mode = false;
};

// False when a batch index is outside [0, batch).
bool f32_roi_align__ref(const RoiAlignParams& p, const float* x, const float* rois, const int64_t* batch_indices,
                        float* y);

// MaxRoiPool (ONNX, Caffe's ROIPool): each box [batch, x1, y1, x2, y2] of `rois`, rounded to whole
// pixels after spatial_scale, is cut into out_h x out_w bins (floor / ceil edges, clipped to the
// map); a bin is its largest value, 0 when it is empty.
struct MaxRoiPoolParams {
  int64_t batch = 1, channels = 1, height = 1, width = 1;
  int64_t num_rois = 0;
  int64_t out_h = 1, out_w = 1;
  float spatial_scale = 1.0f;
};

// False when a box's batch index is outside [0, batch).
bool f32_max_roi_pool__ref(const MaxRoiPoolParams& p, const float* x, const float* rois, float* y);

// MaxUnpool: y (out_count elements) is zero but for y[indices[i]] = x[i] (flat positions in the
// whole output, as MaxPool's Indices give them; a later duplicate wins). False when an index is
// outside [0, out_count).
bool f32_max_unpool__ref(int64_t count, int64_t out_count, const float* x, const int64_t* indices, float* y);

}  // namespace npurt
