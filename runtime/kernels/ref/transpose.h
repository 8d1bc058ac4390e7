// N-D transpose as element copies of `element_size` bytes (any type). The
// output is written in order; output dim k walks the input with stride
// in_strides[k] (the stride of the input dim that perm maps to k).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct TransposeParams {
  int rank;
  size_t element_size;
  const int64_t* out_shape;
  const int64_t* in_strides;  // in elements, indexed by output dim
};

void transpose__ref(const TransposeParams& params, const void* input, void* output);

}  // namespace npurt
