#include "runtime/core/npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace npurt {
namespace npy {
namespace {

struct DescrType {
  const char* descr;
  DataType type;
};
const DescrType kTypes[] = {
    {"<f4", DataType::kFloat32}, {"<f2", DataType::kFloat16}, {"|i1", DataType::kInt8},  {"|u1", DataType::kUint8},
    {"<i2", DataType::kInt16},   {"<u2", DataType::kUint16},  {"<i4", DataType::kInt32}, {"<u4", DataType::kUint32},
    {"<i8", DataType::kInt64},   {"|b1", DataType::kBool},
};

std::string Field(const std::string& header, const std::string& key) {
  const size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return "";
  size_t v = header.find(':', k);
  if (v == std::string::npos) return "";
  ++v;
  while (v < header.size() && header[v] == ' ') ++v;
  if (v >= header.size()) return "";
  const char open = header[v];
  const char close = open == '\'' ? '\'' : (open == '(' ? ')' : ',');
  const size_t end = header.find(close, v + 1);
  if (end == std::string::npos) return "";
  return header.substr(open == '\'' || open == '(' ? v + 1 : v, end - v - (open == '\'' || open == '(' ? 1 : 0));
}

}  // namespace

Status ReadNpy(const std::string& path, NpyArray* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return NPURT_ERROR(kParamInvalid, "cannot open '%s'", path.c_str());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    return NPURT_ERROR(kParamInvalid, "'%s' is not a .npy file", path.c_str());
  }
  const int major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = bytes[8] | (bytes[9] << 8);
    header_start = 10;
  } else {
    if (bytes.size() < 12) return NPURT_ERROR(kParamInvalid, "'%s': truncated header", path.c_str());
    header_len = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (static_cast<size_t>(bytes[11]) << 24);
    header_start = 12;
  }
  if (header_start + header_len > bytes.size()) return NPURT_ERROR(kParamInvalid, "'%s': truncated header", path.c_str());
  const std::string header(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);
  const std::string descr = Field(header, "descr");
  if (Field(header, "fortran_order") == "True") {
    return NPURT_ERROR(kParamInvalid, "'%s': Fortran-order arrays are not supported", path.c_str());
  }
  bool known = false;
  for (const DescrType& t : kTypes) {
    if (descr == t.descr || (descr.size() == 3 && std::string(t.descr).substr(1) == descr.substr(1) &&
                             (descr[0] == '<' || descr[0] == '|'))) {
      out->dtype = t.type;
      known = true;
      break;
    }
  }
  if (!known) return NPURT_ERROR(kParamInvalid, "'%s': unsupported dtype '%s'", path.c_str(), descr.c_str());
  out->shape.clear();
  std::stringstream dims(Field(header, "shape"));
  std::string item;
  while (std::getline(dims, item, ',')) {
    if (item.find_first_not_of(' ') == std::string::npos) continue;
    out->shape.push_back(std::stoll(item));
  }
  const int64_t n = NumElements(out->shape);
  const size_t need = static_cast<size_t>(n) * DataTypeSize(out->dtype);
  const size_t data_start = header_start + header_len;
  if (n < 0 || bytes.size() - data_start < need) {
    return NPURT_ERROR(kParamInvalid, "'%s': data is shorter than its shape %s", path.c_str(),
                       ShapeToString(out->shape).c_str());
  }
  out->data.assign(bytes.begin() + data_start, bytes.begin() + data_start + need);
  return Status::Ok();
}

Status WriteNpy(const std::string& path, const NpyArray& a) {
  const char* descr = nullptr;
  for (const DescrType& t : kTypes) {
    if (t.type == a.dtype) descr = t.descr;
  }
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + (a.shape.size() == 1 ? "," : (i + 1 < a.shape.size() ? ", " : ""));
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) return NPURT_ERROR(kParamInvalid, "cannot write '%s'", path.c_str());
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  f.put(static_cast<char>(len & 0xff));
  f.put(static_cast<char>(len >> 8));
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
  return f ? Status::Ok() : NPURT_ERROR(kParamInvalid, "error writing '%s'", path.c_str());
}

}  // namespace npy
}  // namespace npurt
