#include "runtime/kernels/ref/pad.h"

#include <cstring>

namespace npurt {
namespace {

uint8_t* FillConstant(const PadParams& p, int64_t count, uint8_t* out) {
  for (int64_t i = 0; i < count; ++i, out += p.element_size) std::memcpy(out, p.constant_value, p.element_size);
  return out;
}

uint8_t* PadBlock(const PadParams& p, int d, const uint8_t* in, int64_t in_offset, uint8_t* out) {
  const size_t es = p.element_size;
  if (d == p.rank) {
    std::memcpy(out, in + in_offset * static_cast<int64_t>(es), es);
    return out + es;
  }
  const int64_t* map = p.index_maps[d];
  for (int64_t o = 0; o < p.out_shape[d]; ++o) {
    if (map[o] < 0) {
      out = FillConstant(p, p.out_block[d], out);
    } else {
      out = PadBlock(p, d + 1, in, in_offset + map[o] * p.in_strides[d], out);
    }
  }
  return out;
}

}  // namespace

void pad__ref(const PadParams& params, const void* input, void* output) {
  PadBlock(params, 0, static_cast<const uint8_t*>(input), 0, static_cast<uint8_t*>(output));
}

}  // namespace npurt
