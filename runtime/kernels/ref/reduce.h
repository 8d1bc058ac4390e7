// Reductions over a set of axes (ONNX ReduceSum, ReduceMean, ReduceMax,
// ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp,
// ReduceSumSquare). The
// input is described as two groups of merged dims with their element strides:
// kept dims (walked in order, one output each) and reduced dims (walked per
// output). Outputs are written contiguously in kept-dim order, which is the
// output layout with or without keepdims.
#pragma once

#include <cstdint>

namespace npurt {

// Every reduction, listed once: X(OnnxName without "Reduce", enum name).
#define NPURT_REDUCE_OPS(X) \
  X(Sum) X(Mean) X(Max) X(Min) X(Prod) X(L1) X(L2) X(LogSum) X(LogSumExp) X(SumSquare)

enum class ReduceOp {
#define NPURT_REDUCE_ENUM(name) k##name,
  NPURT_REDUCE_OPS(NPURT_REDUCE_ENUM)
#undef NPURT_REDUCE_ENUM
};

// Integer inputs (int32, int64) reduce with these; the others are float only.
constexpr bool ReduceTakesIntegers(ReduceOp op) {
  return op == ReduceOp::kSum || op == ReduceOp::kMax || op == ReduceOp::kMin || op == ReduceOp::kProd ||
         op == ReduceOp::kSumSquare || op == ReduceOp::kL1;
}

// Merged dims are >= 2 and their product fits in int64, so 63 always suffice.
constexpr int kMaxReduceRank = 64;

struct ReduceParams {
  ReduceOp op = ReduceOp::kSum;
  int64_t out_count = 0;
  // Elements per output. 0 (empty reduced dims) gives the identity: 0 for Sum,
  // SumSquare, L1 and L2, 1 for Prod, NaN for Mean, -inf (float) or the lowest
  // value (int) for Max, +inf or the highest for Min, -inf for LogSum and
  // LogSumExp (the log of an empty sum).
  int64_t reduced_count = 1;
  int kept_rank = 0;
  int64_t kept_dims[kMaxReduceRank] = {};
  int64_t kept_strides[kMaxReduceRank] = {};
  int reduced_rank = 0;
  int64_t reduced_dims[kMaxReduceRank] = {};
  int64_t reduced_strides[kMaxReduceRank] = {};
};

// Float sums and products accumulate in double (LogSumExp from the row's maximum,
// so it never overflows); Max and Min propagate NaN.
void f32_reduce__ref(const ReduceParams& params, const float* input, float* output);
// Integer sums and products wrap on overflow (ReduceTakesIntegers names the ops).
void i32_reduce__ref(const ReduceParams& params, const int32_t* input, int32_t* output);
void i64_reduce__ref(const ReduceParams& params, const int64_t* input, int64_t* output);

}  // namespace npurt
