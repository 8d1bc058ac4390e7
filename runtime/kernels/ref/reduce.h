// Reductions over a set of axes (ONNX ReduceSum, ReduceMean, ReduceMax). The
// input is described as two groups of merged dims with their element strides:
// kept dims (walked in order, one output each) and reduced dims (walked per
// output). Outputs are written contiguously in kept-dim order, which is the
// output layout with or without keepdims.
#pragma once

#include <cstdint>

namespace npurt {

enum class ReduceOp { kSum, kMean, kMax };

// Merged dims are >= 2 and their product fits in int64, so 63 always suffice.
constexpr int kMaxReduceRank = 64;

struct ReduceParams {
  ReduceOp op = ReduceOp::kSum;
  int64_t out_count = 0;
  // Elements per output. 0 (empty reduced dims) gives the identity: 0 for Sum,
  // NaN for Mean, -inf (float) or the lowest value (int) for Max.
  int64_t reduced_count = 1;
  int kept_rank = 0;
  int64_t kept_dims[kMaxReduceRank] = {};
  int64_t kept_strides[kMaxReduceRank] = {};
  int reduced_rank = 0;
  int64_t reduced_dims[kMaxReduceRank] = {};
  int64_t reduced_strides[kMaxReduceRank] = {};
};

// Float Sum and Mean accumulate in double; Max propagates NaN.
void f32_reduce__ref(const ReduceParams& params, const float* input, float* output);
// Integer Sum wraps on overflow; Mean is not an integer op here.
void i32_reduce__ref(const ReduceParams& params, const int32_t* input, int32_t* output);
void i64_reduce__ref(const ReduceParams& params, const int64_t* input, int64_t* output);

}  // namespace npurt
