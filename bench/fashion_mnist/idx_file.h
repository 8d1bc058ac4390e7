// IDX files (the MNIST / Fashion-MNIST container), gzip-compressed as Debian's
// dataset-fashion-mnist ships them, read with zlib.
//
// Layout: a big-endian header -- two zero bytes, a type code (0x08 = uint8),
// the number of dimensions, then each dimension as a uint32 -- followed by the
// row-major data. Only uint8 data is supported: that is what the image and
// label files hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fashion_mnist {

struct IdxArray {
  std::vector<size_t> dims;   // e.g. {60000, 28, 28} for images, {60000} for labels
  std::vector<uint8_t> data;  // row-major, product(dims) bytes
};

// Reads a gzip-compressed (or plain: zlib passes those through) IDX file.
// The header is validated against the data size, so a truncated or non-IDX
// file is an error, not a silent misread.
bool ReadIdxFile(const std::string& path, IdxArray* out, std::string* error);

// A labelled image set: `count` images of rows x cols uint8 pixels.
struct ImageSet {
  size_t count = 0, rows = 0, cols = 0;
  std::vector<uint8_t> pixels;  // count * rows * cols, image after image
  std::vector<uint8_t> labels;  // count
  const uint8_t* image(size_t i) const { return pixels.data() + i * rows * cols; }
};

// Reads `<dir>/<split>-images-idx3-ubyte.gz` and `<dir>/<split>-labels-idx1-ubyte.gz`
// (split "train" or "t10k") and checks that they belong together.
bool ReadImageSet(const std::string& dir, const std::string& split, ImageSet* out, std::string* error);

}  // namespace fashion_mnist
