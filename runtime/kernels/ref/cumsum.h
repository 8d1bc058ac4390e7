// CumSum along one axis (float32, int32, int64).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

// CumSum of X viewed as [outer, axis_size, inner]: exclusive sums start at 0; reverse sums run from
// the end. Float sums accumulate in double; integer ones wrap.
struct CumSumParams {
  DataType type = DataType::kFloat32;  // float32, int32 or int64
  int64_t outer = 1;
  int64_t axis_size = 1;
  int64_t inner = 1;
  bool exclusive = false;
  bool reverse = false;
};

void cumsum__ref(const CumSumParams& params, const void* x, void* y);

}  // namespace npurt
