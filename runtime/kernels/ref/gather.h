// Gather along one axis as byte copies (any element type). Data is viewed as
// [outer, axis_dim, inner]; the output as [outer, num_indices, inner].
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct GatherParams {
  size_t outer;  // product of the data dims before the axis
  int64_t axis_dim;
  size_t inner_bytes;  // product of the data dims after the axis * element size
  size_t num_indices;
  bool indices_int64;  // else int32
};

// Negative indices count from the end. Returns false, with the output partly
// written, when an index is outside [-axis_dim, axis_dim).
bool gather__ref(const GatherParams& params, const void* data, const void* indices, void* output);

}  // namespace npurt

namespace npurt {

// GatherElements: output element at coordinates p is data at p with coordinate `axis` replaced by
// indices[p] (negative counts from the end). Indices have the output's shape; byte copies of
// `element_size`.
constexpr int kMaxGatherElementsRank = 16;

struct GatherElementsParams {
  int rank = 0;
  int axis = 0;
  size_t element_size = 4;
  int64_t data_shape[kMaxGatherElementsRank] = {};
  int64_t index_shape[kMaxGatherElementsRank] = {};  // = the output's
  bool indices_int64 = true;                        // else int32
};

// False, with the output partly written, when an index is outside [-dim, dim).
bool gather_elements__ref(const GatherElementsParams& params, const void* data, const void* indices, void* output);

}  // namespace npurt
