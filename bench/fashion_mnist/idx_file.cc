#include "idx_file.h"

#include <zlib.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace fashion_mnist {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

// Reads the whole (decompressed) stream; IDX files are small enough (47 MB at most).
bool ReadAll(const std::string& path, std::vector<uint8_t>* bytes, std::string* error) {
  GzFile f(gzopen(path.c_str(), "rb"));
  if (!f) {
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  bytes->clear();
  uint8_t chunk[1 << 16];
  for (;;) {
    const int n = gzread(f.get(), chunk, sizeof(chunk));
    if (n < 0) {
      int code = 0;
      *error = "cannot read '" + path + "': " + gzerror(f.get(), &code);
      return false;
    }
    if (n == 0) break;
    bytes->insert(bytes->end(), chunk, chunk + n);
  }
  return true;
}

uint32_t BigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace

bool ReadIdxFile(const std::string& path, IdxArray* out, std::string* error) {
  std::vector<uint8_t> bytes;
  if (!ReadAll(path, &bytes, error)) return false;
  constexpr uint8_t kTypeUint8 = 0x08;
  if (bytes.size() < 4 || bytes[0] != 0 || bytes[1] != 0) {
    *error = "'" + path + "' is not an IDX file (bad magic)";
    return false;
  }
  if (bytes[2] != kTypeUint8) {
    *error = "'" + path + "': IDX type code " + std::to_string(bytes[2]) + ", only uint8 (8) is supported";
    return false;
  }
  const size_t rank = bytes[3];
  const size_t header = 4 + 4 * rank;
  if (rank == 0 || bytes.size() < header) {
    *error = "'" + path + "': truncated IDX header";
    return false;
  }
  out->dims.resize(rank);
  size_t elements = 1;
  for (size_t d = 0; d < rank; ++d) {
    out->dims[d] = BigEndian32(&bytes[4 + 4 * d]);
    elements *= out->dims[d];
  }
  if (bytes.size() - header != elements) {
    *error = "'" + path + "': header says " + std::to_string(elements) + " bytes of data, file has " +
             std::to_string(bytes.size() - header);
    return false;
  }
  out->data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end());
  return true;
}

bool ReadImageSet(const std::string& dir, const std::string& split, ImageSet* out, std::string* error) {
  const std::string images_path = dir + "/" + split + "-images-idx3-ubyte.gz";
  const std::string labels_path = dir + "/" + split + "-labels-idx1-ubyte.gz";
  IdxArray images, labels;
  if (!ReadIdxFile(images_path, &images, error) || !ReadIdxFile(labels_path, &labels, error)) return false;
  if (images.dims.size() != 3 || labels.dims.size() != 1 || images.dims[0] != labels.dims[0]) {
    *error = "'" + images_path + "' and '" + labels_path + "' do not match: expected [N,rows,cols] images and [N] labels";
    return false;
  }
  out->count = images.dims[0];
  out->rows = images.dims[1];
  out->cols = images.dims[2];
  out->pixels = std::move(images.data);
  out->labels = std::move(labels.data);
  return true;
}

}  // namespace fashion_mnist
