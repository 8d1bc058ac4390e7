#include "runtime/kernels/ref/slice.h"

#include <cstring>

namespace npurt {
namespace {

// Copies the output block of dims [d, rank) whose first input element is at
// element offset `in_offset`; returns the output position after it.
uint8_t* CopyBlock(const SliceParams& p, int d, const uint8_t* in, int64_t in_offset, uint8_t* out) {
  const size_t es = p.element_size;
  if (d == p.rank) {
    std::memcpy(out, in + in_offset * static_cast<int64_t>(es), es);
    return out + es;
  }
  const int64_t n = p.out_shape[d];
  const int64_t step = p.steps[d] * p.in_strides[d];
  if (d == p.rank - 1 && step == 1) {  // contiguous run
    std::memcpy(out, in + in_offset * static_cast<int64_t>(es), static_cast<size_t>(n) * es);
    return out + static_cast<size_t>(n) * es;
  }
  for (int64_t i = 0; i < n; ++i) out = CopyBlock(p, d + 1, in, in_offset + i * step, out);
  return out;
}

}  // namespace

void slice__ref(const SliceParams& params, const void* input, void* output) {
  int64_t offset = 0;
  for (int d = 0; d < params.rank; ++d) {
    if (params.out_shape[d] == 0) return;  // empty output
    offset += params.starts[d] * params.in_strides[d];
  }
  CopyBlock(params, 0, static_cast<const uint8_t*>(input), offset, static_cast<uint8_t*>(output));
}

}  // namespace npurt
