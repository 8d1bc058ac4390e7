// ArgMax / ArgMin along one axis of a tensor viewed as [outer, axis_size, inner]:
// the int64 index of the largest (smallest) element of each row. Ties give the
// first index, or the last with `select_last_index`; NaN counts as the extreme
// (numpy's argmax and argmin, the ONNX reference's). Integer codes of quantized
// tensors reduce as they are: dequantization with a positive scale is monotonic.
#pragma once

#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

struct ArgReduceParams {
  bool max = true;  // ArgMax; else ArgMin
  bool select_last_index = false;
  int64_t outer = 1;
  int64_t axis_size = 1;  // >= 1
  int64_t inner = 1;
};

// `type`: float32, int8, uint8, int16, int32 or int64.
void arg_reduce__ref(const ArgReduceParams& params, DataType type, const void* input, int64_t* output);

}  // namespace npurt
