// ScatterND and ScatterElements: the output is a copy of `data` into which `updates` are written at
// the places `indices` name, in order (with repeated places the last write wins), or combined with
// what is there by a reduction (add, mul, max, min; float32, int32, int64 only). Negative indices
// count from the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"

namespace npurt {

enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

constexpr int kMaxScatterRank = 16;

struct ScatterParams {
  ScatterReduction reduction = ScatterReduction::kNone;
  DataType type = DataType::kFloat32;  // of data and updates
  int rank = 0;                        // data's
  int64_t data_shape[kMaxScatterRank] = {};
  bool indices_int64 = true;  // else int32
  // ScatterND: indices are [count, k] (k = index_depth <= rank); each names a slice of
  // prod(data_shape[k:]) elements of data, filled from the next slice of updates.
  int index_depth = 0;
  int64_t index_count = 0;
  // ScatterElements: indices and updates have shape `index_shape` (rank dims); element p goes to
  // data at p with coordinate `axis` replaced by indices[p].
  int axis = 0;
  int64_t index_shape[kMaxScatterRank] = {};
};

// False, with the output partly written, when an index is out of range.
bool scatter_nd__ref(const ScatterParams& params, const void* data, const void* indices, const void* updates,
                     void* output);
bool scatter_elements__ref(const ScatterParams& params, const void* data, const void* indices, const void* updates,
                           void* output);

}  // namespace npurt
