#include "runtime/kernels/portable/requantize_float_rows.h"

#include <cstdint>

namespace npurt {

void requantize_float_rows__portable(const RequantizeRowsParams& p, const float* sums, void* out, WorkRange rows) {
  const int64_t c = p.channels;
  const bool out16 = p.out_type == DataType::kInt16;
  for (int64_t row = rows.Begin(INT64_MAX), end = rows.End(INT64_MAX); row < end; ++row) {
    for (int64_t m = 0; m < c; ++m) {
      const int64_t at = row * c + m;
      // The sum and the bias as the reference's integer accumulator: exact in double, rounded to float once.
      const float acc = static_cast<float>(static_cast<double>(sums[at]) + (p.bias != nullptr ? p.bias[m] : 0));
      const int32_t q =
          p.residual.data != nullptr
              ? RequantizeWithResidual(acc, p.acc_scale[m], QuantizedResidualValue(p.residual, at), p.activation,
                                       p.out_scale, p.out_zero_point, p.out_min, p.out_max, m)
              : Requantize(acc, p.acc_scale[m], p.activation, p.out_scale, p.out_zero_point, p.out_min, p.out_max, m);
      if (out16) {
        static_cast<int16_t*>(out)[at] = static_cast<int16_t>(q);
      } else {
        static_cast<int8_t*>(out)[at] = static_cast<int8_t>(q);
      }
    }
  }
}

}  // namespace npurt
