#include "runtime/kernels/ref/eye_like.h"

namespace npurt {
namespace {

template <typename T>
void Eye(int64_t rows, int64_t cols, int64_t k, T* y, T one = T{1}) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = c - r == k ? one : T{0};
  }
}

}  // namespace

void eye_like__ref(DataType type, int64_t rows, int64_t cols, int64_t k, void* y) {
  switch (type) {
    case DataType::kFloat32: Eye(rows, cols, k, static_cast<float*>(y)); break;
    case DataType::kFloat16: Eye(rows, cols, k, static_cast<uint16_t*>(y), FloatToHalf(1.0f)); break;
    case DataType::kInt8: Eye(rows, cols, k, static_cast<int8_t*>(y)); break;
    case DataType::kUint8:
    case DataType::kBool: Eye(rows, cols, k, static_cast<uint8_t*>(y)); break;
    case DataType::kInt16: Eye(rows, cols, k, static_cast<int16_t*>(y)); break;
    case DataType::kUint16: Eye(rows, cols, k, static_cast<uint16_t*>(y)); break;
    case DataType::kInt32: Eye(rows, cols, k, static_cast<int32_t*>(y)); break;
    case DataType::kUint32: Eye(rows, cols, k, static_cast<uint32_t*>(y)); break;
    case DataType::kInt64: Eye(rows, cols, k, static_cast<int64_t*>(y)); break;
  }
}

}  // namespace npurt
