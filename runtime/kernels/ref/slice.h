// Strided N-D slice as element copies of `element_size` bytes (any type).
// out[i0..in] = in[sum_k (starts[k] + i_k * steps[k]) * in_strides[k]]
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct SliceParams {
  int rank;
  size_t element_size;
  const int64_t* out_shape;
  const int64_t* in_strides;  // in elements
  const int64_t* starts;      // first input index per dim, already in range
  const int64_t* steps;       // non-zero, may be negative
};

void slice__ref(const SliceParams& params, const void* input, void* output);

}  // namespace npurt
