#include "runtime/kernels/ref/transpose.h"

#include <cstring>

namespace npurt {
namespace {

uint8_t* CopyBlock(const TransposeParams& p, int d, const uint8_t* in, int64_t in_offset, uint8_t* out) {
  const size_t es = p.element_size;
  if (d == p.rank) {
    std::memcpy(out, in + in_offset * static_cast<int64_t>(es), es);
    return out + es;
  }
  const int64_t n = p.out_shape[d];
  const int64_t stride = p.in_strides[d];
  if (d == p.rank - 1 && stride == 1) {  // the input's innermost dim stays innermost
    std::memcpy(out, in + in_offset * static_cast<int64_t>(es), static_cast<size_t>(n) * es);
    return out + static_cast<size_t>(n) * es;
  }
  for (int64_t i = 0; i < n; ++i) out = CopyBlock(p, d + 1, in, in_offset + i * stride, out);
  return out;
}

}  // namespace

void transpose__ref(const TransposeParams& params, const void* input, void* output) {
  for (int d = 0; d < params.rank; ++d) {
    if (params.out_shape[d] == 0) return;
  }
  CopyBlock(params, 0, static_cast<const uint8_t*>(input), 0, static_cast<uint8_t*>(output));
}

}  // namespace npurt
