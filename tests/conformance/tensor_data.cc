#include "tests/conformance/tensor_data.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace conformance {
namespace {

using onnx::TensorProto;

template <typename T>
void AppendLe(std::vector<uint8_t>* out, T value) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));  // hosts are little-endian (x86-64, aarch64)
  out->insert(out->end(), b, b + sizeof(T));
}

template <typename T>
T LoadLe(const std::vector<uint8_t>& bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

}  // namespace

int64_t HostTensor::NumElements() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string OnnxTypeName(int32_t t) {
  switch (t) {
    case TensorProto::FLOAT: return "FLOAT";
    case TensorProto::UINT8: return "UINT8";
    case TensorProto::INT8: return "INT8";
    case TensorProto::UINT16: return "UINT16";
    case TensorProto::INT16: return "INT16";
    case TensorProto::INT32: return "INT32";
    case TensorProto::INT64: return "INT64";
    case TensorProto::STRING: return "STRING";
    case TensorProto::BOOL: return "BOOL";
    case TensorProto::FLOAT16: return "FLOAT16";
    case TensorProto::DOUBLE: return "DOUBLE";
    case TensorProto::UINT32: return "UINT32";
    case TensorProto::UINT64: return "UINT64";
    case TensorProto::COMPLEX64: return "COMPLEX64";
    case TensorProto::COMPLEX128: return "COMPLEX128";
    case TensorProto::BFLOAT16: return "BFLOAT16";
    default: return "type " + std::to_string(t);
  }
}

size_t OnnxTypeSize(int32_t t) {
  switch (t) {
    case TensorProto::UINT8:
    case TensorProto::INT8:
    case TensorProto::BOOL: return 1;
    case TensorProto::UINT16:
    case TensorProto::INT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: return 2;
    case TensorProto::FLOAT:
    case TensorProto::INT32:
    case TensorProto::UINT32: return 4;
    case TensorProto::INT64:
    case TensorProto::DOUBLE:
    case TensorProto::UINT64: return 8;
    default: return 0;
  }
}

bool IsFloatType(int32_t t) {
  return t == TensorProto::FLOAT || t == TensorProto::FLOAT16 || t == TensorProto::DOUBLE ||
         t == TensorProto::BFLOAT16;
}

bool ReadTensorFile(const std::string& path, HostTensor* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open " + path;
    return false;
  }
  TensorProto proto;
  if (!proto.ParseFromIstream(&in)) {
    *error = "cannot parse " + path + " as onnx.TensorProto";
    return false;
  }
  if (!ToHostTensor(proto, out, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool ToHostTensor(const TensorProto& p, HostTensor* out, std::string* error) {
  out->name = p.name();
  out->onnx_type = p.data_type();
  out->dims.assign(p.dims().begin(), p.dims().end());
  out->bytes.clear();
  for (int64_t d : out->dims) {
    if (d < 0) {
      *error = "negative dim in " + DimsToString(out->dims);
      return false;
    }
  }
  if (p.data_location() == TensorProto::EXTERNAL) {
    *error = "external tensor data is not supported by the runner";
    return false;
  }
  const size_t esize = OnnxTypeSize(out->onnx_type);
  if (esize == 0) {
    *error = OnnxTypeName(out->onnx_type) + " tensors are not supported by the runner";
    return false;
  }
  const int64_t n = out->NumElements();
  const size_t want = static_cast<size_t>(n) * esize;
  if (p.has_raw_data()) {
    if (p.raw_data().size() != want) {
      *error = "raw_data has " + std::to_string(p.raw_data().size()) + " bytes, " + DimsToString(out->dims) + " " +
               OnnxTypeName(out->onnx_type) + " needs " + std::to_string(want);
      return false;
    }
    out->bytes.assign(p.raw_data().begin(), p.raw_data().end());
    return true;
  }
  out->bytes.reserve(want);
  int64_t have = 0;
  switch (out->onnx_type) {
    case TensorProto::FLOAT:
      for (float v : p.float_data()) AppendLe<float>(&out->bytes, v);
      have = p.float_data_size();
      break;
    case TensorProto::DOUBLE:
      for (double v : p.double_data()) AppendLe<double>(&out->bytes, v);
      have = p.double_data_size();
      break;
    case TensorProto::INT64:
      for (int64_t v : p.int64_data()) AppendLe<int64_t>(&out->bytes, v);
      have = p.int64_data_size();
      break;
    case TensorProto::UINT32:
      for (uint64_t v : p.uint64_data()) AppendLe<uint32_t>(&out->bytes, static_cast<uint32_t>(v));
      have = p.uint64_data_size();
      break;
    case TensorProto::UINT64:
      for (uint64_t v : p.uint64_data()) AppendLe<uint64_t>(&out->bytes, v);
      have = p.uint64_data_size();
      break;
    default:  // int32_data holds INT32, INT16, INT8, UINT16, UINT8, BOOL, FLOAT16/BFLOAT16 bits
      for (int32_t v : p.int32_data()) {
        switch (esize) {
          case 1: AppendLe<uint8_t>(&out->bytes, static_cast<uint8_t>(v)); break;
          case 2: AppendLe<uint16_t>(&out->bytes, static_cast<uint16_t>(v)); break;
          default: AppendLe<int32_t>(&out->bytes, v); break;
        }
      }
      have = p.int32_data_size();
      break;
  }
  if (have != n) {
    *error = "typed data has " + std::to_string(have) + " elements, " + DimsToString(out->dims) + " needs " +
             std::to_string(n);
    return false;
  }
  return true;
}

float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: renormalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

float Bfloat16BitsToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

double ElementAsDouble(const HostTensor& t, int64_t i) {
  switch (t.onnx_type) {
    case TensorProto::FLOAT: return LoadLe<float>(t.bytes, i);
    case TensorProto::DOUBLE: return LoadLe<double>(t.bytes, i);
    case TensorProto::FLOAT16: return HalfBitsToFloat(LoadLe<uint16_t>(t.bytes, i));
    case TensorProto::BFLOAT16: return Bfloat16BitsToFloat(LoadLe<uint16_t>(t.bytes, i));
    case TensorProto::UINT64: return static_cast<double>(LoadLe<uint64_t>(t.bytes, i));
    default: return static_cast<double>(ElementAsInt64(t, i));
  }
}

int64_t ElementAsInt64(const HostTensor& t, int64_t i) {
  switch (t.onnx_type) {
    case TensorProto::UINT8: return LoadLe<uint8_t>(t.bytes, i);
    case TensorProto::INT8: return LoadLe<int8_t>(t.bytes, i);
    case TensorProto::BOOL: return LoadLe<uint8_t>(t.bytes, i) != 0 ? 1 : 0;
    case TensorProto::UINT16: return LoadLe<uint16_t>(t.bytes, i);
    case TensorProto::INT16: return LoadLe<int16_t>(t.bytes, i);
    case TensorProto::INT32: return LoadLe<int32_t>(t.bytes, i);
    case TensorProto::UINT32: return LoadLe<uint32_t>(t.bytes, i);
    case TensorProto::INT64: return LoadLe<int64_t>(t.bytes, i);
    case TensorProto::UINT64: return static_cast<int64_t>(LoadLe<uint64_t>(t.bytes, i));
    default: return static_cast<int64_t>(ElementAsDouble(t, i));
  }
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < dims.size(); ++i) s << (i ? "," : "") << dims[i];
  s << ']';
  return s.str();
}

std::string IndexToString(const std::vector<int64_t>& dims, int64_t flat) {
  std::vector<int64_t> idx(dims.size(), 0);
  for (size_t k = dims.size(); k-- > 0;) {
    if (dims[k] > 0) {
      idx[k] = flat % dims[k];
      flat /= dims[k];
    }
  }
  return DimsToString(idx);
}

}  // namespace conformance
