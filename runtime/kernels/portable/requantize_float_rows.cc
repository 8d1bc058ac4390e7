#include "runtime/kernels/portable/requantize_float_rows.h"

#include <cstdint>

namespace npurt {

namespace {

// Element `at` (channel m) of the output and the residual from its accumulator, as the reference.
template <typename Acc>
void RequantizeElement(const RequantizeRowsParams& p, Acc acc, int64_t at, int64_t m, void* out) {
  const int32_t q =
      p.residual.data != nullptr
          ? RequantizeWithResidual(acc, p.acc_scale[m], QuantizedResidualValue(p.residual, at), p.activation,
                                   p.out_scale, p.out_zero_point, p.out_min, p.out_max, m)
          : Requantize(acc, p.acc_scale[m], p.activation, p.out_scale, p.out_zero_point, p.out_min, p.out_max, m);
  if (p.out_type == DataType::kInt16) {
    static_cast<int16_t*>(out)[at] = static_cast<int16_t>(q);
  } else {
    static_cast<int8_t*>(out)[at] = static_cast<int8_t>(q);
  }
}

}  // namespace

void requantize_piece_rows__portable(const RequantizeRowsParams& p, const int32_t* high, const int32_t* low, void* out,
                                     WorkRange rows) {
  const int64_t c = p.channels;
  for (int64_t row = rows.Begin(INT64_MAX), end = rows.End(INT64_MAX); row < end; ++row) {
    for (int64_t m = 0; m < c; ++m) {
      const int64_t at = row * c + m;
      const int64_t sums = low != nullptr ? int64_t{256} * high[at] + low[at] : high[at];
      const int64_t acc = (p.bias != nullptr ? p.bias[m] : 0) + sums;
      RequantizeElement(p, acc, at, m, out);
    }
  }
}

void requantize_float_rows__portable(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  const int64_t c = p.channels, stride = p.out_stride != 0 ? p.out_stride : c;
  for (int64_t row = rows.Begin(INT64_MAX), end = rows.End(INT64_MAX); row < end; ++row) {
    for (int64_t m = 0; m < c; ++m) {
      // The sum and the bias as the reference's integer accumulator: exact in double, rounded to float once.
      const float acc = static_cast<float>(static_cast<double>(sums[row * c + m]) + (p.bias != nullptr ? p.bias[m] : 0));
      RequantizeElement(p, acc, row * stride + m, m, out);
    }
  }
}

}  // namespace npurt
