#include "npy.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace quant_accuracy {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// The header (magic, version, length, dict, padding, '\n') is padded to a
// multiple of 64 bytes, as NumPy writes it, so the data is aligned when mapped.
constexpr size_t kHeaderAlign = 64;

bool Fail(const std::string& message, std::string* error) {
  *error = message;
  return false;
}

}  // namespace

bool WriteNpyF32(const std::string& path, const std::vector<int64_t>& shape, const std::vector<float>& values,
                 std::string* error) {
  int64_t count = 1;
  std::string dims;
  for (int64_t d : shape) {
    count *= d;
    dims += std::to_string(d) + ", ";
  }
  if (count != static_cast<int64_t>(values.size())) {
    return Fail(path + ": " + std::to_string(values.size()) + " values do not fill the shape", error);
  }
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // a 1-tuple keeps its comma: (n,)
  if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  const size_t unpadded = kMagicSize + 2 + 2 + dict.size() + 1;
  dict.append((kHeaderAlign - unpadded % kHeaderAlign) % kHeaderAlign, ' ');
  dict += '\n';
  std::ofstream out(path, std::ios::binary);
  const uint16_t header_len = static_cast<uint16_t>(dict.size());
  const unsigned char version_and_len[4] = {1, 0, static_cast<unsigned char>(header_len & 0xff),
                                            static_cast<unsigned char>(header_len >> 8)};
  out.write(kMagic, kMagicSize);
  out.write(reinterpret_cast<const char*>(version_and_len), sizeof(version_and_len));
  out.write(dict.data(), static_cast<std::streamsize>(dict.size()));
  // The values are written as the host stores them: every target npurt builds
  // for is little-endian.
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out) return Fail("cannot write '" + path + "'", error);
  return true;
}

bool ReadNpyF32(const std::string& path, std::vector<int64_t>* shape, std::vector<float>* values, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail("cannot open '" + path + "'", error);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < kMagicSize + 4 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) {
    return Fail("'" + path + "' is not a .npy file", error);
  }
  const int major = bytes[kMagicSize];
  size_t header_len = 0, at = 0;
  if (major == 1) {
    header_len = bytes[8] | bytes[9] << 8;
    at = 10;
  } else if (major == 2 && bytes.size() >= 12) {
    header_len = bytes[8] | bytes[9] << 8 | bytes[10] << 16 | static_cast<size_t>(bytes[11]) << 24;
    at = 12;
  } else {
    return Fail("'" + path + "': unsupported .npy version " + std::to_string(major), error);
  }
  if (at + header_len > bytes.size()) return Fail("'" + path + "': truncated header", error);
  const std::string dict(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                         bytes.begin() + static_cast<std::ptrdiff_t>(at + header_len));
  if (dict.find("'descr': '<f4'") == std::string::npos || dict.find("'fortran_order': False") == std::string::npos) {
    return Fail("'" + path + "': expected C-order little-endian float32 ('<f4'), header " + dict, error);
  }
  const size_t open = dict.find("'shape': (");
  const size_t close = open == std::string::npos ? open : dict.find(')', open);
  if (close == std::string::npos) return Fail("'" + path + "': no shape in header " + dict, error);
  shape->clear();
  int64_t count = 1;
  const char* p = dict.c_str() + open + std::strlen("'shape': (");
  const char* end = dict.c_str() + close;
  while (p < end) {
    char* next = nullptr;
    const long long d = std::strtoll(p, &next, 10);
    if (next == p) {  // a separator: ',' or ' '
      ++p;
      continue;
    }
    if (d < 0) return Fail("'" + path + "': negative dimension", error);
    shape->push_back(d);
    count *= d;
    p = next;
  }
  at += header_len;
  if (bytes.size() - at != static_cast<size_t>(count) * sizeof(float)) {
    return Fail("'" + path + "': data size does not match the shape", error);
  }
  values->resize(static_cast<size_t>(count));
  std::memcpy(values->data(), bytes.data() + at, values->size() * sizeof(float));
  return true;
}

}  // namespace quant_accuracy
