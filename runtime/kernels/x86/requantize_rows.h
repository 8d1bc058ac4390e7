// Parameters of the requantization of accumulator rows (the x86 kernels that
// finish a convolution whose sums a library computed: requantize_avx512.h,
// requantize_avx2.h), bit-exact with the reference's Requantize
// (runtime/kernels/ref/quantize.h): per element
//   q = saturate(round_half_even(activation(float(acc) * acc_scale[c] [+ residual]) / out_scale) + zero_point).
#pragma once

#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/conv.h"  // ConvResidual
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

struct RequantizeRowsParams {
  int64_t channels = 1;               // elements per row; channel c of every row uses acc_scale[c], bias[c]
  const int32_t* bias = nullptr;      // channels values, or nullptr
  const float* acc_scale = nullptr;   // channels values
  FusedActivationParams activation;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
  int32_t out_min = -128, out_max = 127;
  DataType out_type = DataType::kInt8;  // int8 or int16
  // A Conv's fused Add (runtime/kernels/ref/conv.h): int8 or int16 codes laid out as the rows, whose real
  // value joins float(acc) * acc_scale before the activation (RequantizeWithResidual). data nullptr: none.
  ConvResidual residual;
  // Elements from one row of the output (and of the residual) to the next; 0: channels. The sums' rows
  // are always channels apart. Only the int8 path's float rows (runtime/kernels/int8/requantize_config.h)
  // read it.
  int64_t out_stride = 0;
};

// `p` for the rows from element `first` on: the residual moves with them.
inline RequantizeRowsParams RowsFrom(const RequantizeRowsParams& p, int64_t first) {
  RequantizeRowsParams q = p;
  if (q.residual.data != nullptr) {
    const size_t elem = q.residual.type == DataType::kInt16 ? 2 : 1;
    q.residual.data = static_cast<const uint8_t*>(q.residual.data) + static_cast<size_t>(first) * elem;
  }
  return q;
}

// Rows of c = 1, 2 or 4 channels seen as rows of eight: the per-channel parameters tiled (lane k is channel
// k % c), for kernels whose vectors are eight channels wide.
struct WideRows {
  explicit WideRows(const RequantizeRowsParams& p) : params(p) {
    const int64_t c = p.channels;
    for (int64_t k = 0; k < 8; ++k) {
      acc_scale[k] = p.acc_scale[k % c];
      bias[k] = p.bias != nullptr ? p.bias[k % c] : 0;
      if (p.activation.scale != nullptr) scale[k] = p.activation.scale[k % c], shift[k] = p.activation.shift[k % c];
    }
    params.channels = 8;
    params.acc_scale = acc_scale;
    if (p.bias != nullptr) params.bias = bias;
    if (p.activation.scale != nullptr) params.activation.scale = scale, params.activation.shift = shift;
  }
  WideRows(const WideRows&) = delete;
  WideRows& operator=(const WideRows&) = delete;

  RequantizeRowsParams params;
  float acc_scale[8] = {}, scale[8] = {}, shift[8] = {};
  int32_t bias[8] = {};
};

// Runs rows `range` of a kernel whose vectors are eight channels wide: `rows(q, first, r)` requantizes rows r
// of params q starting at element `first` of the whole rows (q's residual already starts there). Rows of 1, 2 or 4 channels, which would all
// run as a kernel's tail, go eight values at a time (WideRows), the last few as rows; others as they are.
template <typename RunRows>
void RequantizeInRowsOfEight(const RequantizeRowsParams& p, WorkRange range, RunRows rows) {
  const int64_t c = p.channels;
  if (c >= 8 || 8 % c != 0) {
    rows(p, 0, range);
    return;
  }
  const WideRows wide(p);
  const int64_t begin = range.Begin(INT64_MAX), end = range.End(INT64_MAX), per = 8 / c;
  const int64_t blocks = (end - begin) / per;
  rows(RowsFrom(wide.params, begin * c), begin * c, WorkRange{0, blocks});
  rows(p, 0, WorkRange{begin + blocks * per, end});
}

}  // namespace npurt
