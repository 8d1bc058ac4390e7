// Model inputs of the OCR pipeline, as PaddleOCR prepares them: the
// detector's letterboxed canvas and the normalized line tensor of the
// direction classifier and the recognizer. Shared by the demo and by the
// accuracy benchmarks (bench/quant_accuracy), so both feed the models alike.
#pragma once

#include <cstdint>
#include <vector>

#include "image_ops.h"

namespace ppocr {

// The detector downsamples by 32, so PaddleOCR gives it sides that are
// multiples of 32.
constexpr int kDetStride = 32;
// The detector's mean as an RGB pixel (PaddleOCR's mean 0.485, 0.456, 0.406
// applies to B, G, R): padding with it gives about zero after the runtime
// normalizes, as zero-padding the normalized tensor would.
constexpr uint8_t kDetPadRgb[3] = {104, 116, 124};

// The detector's input size for an image: PaddleOCR never enlarges (limit
// type "max") and rounds both sides to multiples of 32; a larger image is
// shrunk, keeping its aspect ratio, to fit the model's static input.
void DetScaledSize(const Image& image, int max_width, int max_height, int* width, int* height);

// The detector's uint8 RGB input: the image scaled by DetScaledSize at the
// top left of a `width` x `height` canvas filled with kDetPadRgb. The scaled
// size (the part of the probability map that covers the image) goes to
// *scaled_width and *scaled_height.
Image DetCanvas(const Image& image, int width, int height, int* scaled_width, int* scaled_height);

// The input of cls and rec (PaddleOCR's resize_norm_img): the crop scaled to
// `height` keeping its aspect ratio (width rounded up; a wider line is
// squeezed to `width`), BGR, (v / 255 - 0.5) / 0.5, NCHW 1x3xheight x width,
// right-padded with zeros.
std::vector<float> LineTensor(const Image& crop, int height, int width);

}  // namespace ppocr
