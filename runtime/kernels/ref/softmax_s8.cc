// int8 Softmax on the real values (see softmax.h). Mirrors f32_softmax__ref
// step by step; the exponentials are computed twice instead of being stored,
// so the kernel needs no scratch memory.
#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/softmax.h"

namespace npurt {
namespace {

template <typename T, typename TOut>
void QuantizedSoftmax(const S8SoftmaxParams& q, const T* x, TOut* y) {
  constexpr int32_t kMin = std::numeric_limits<TOut>::min(), kMax = std::numeric_limits<TOut>::max();
  const SoftmaxParams& p = q.softmax;
  const int64_t n = p.axis_size, stride = p.inner;
  const float in_scale = q.in_scale;
  const int32_t in_zp = q.in_zero_point;
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t i = 0; i < p.inner; ++i) {
      const int64_t base = o * n * stride + i;
      // Dequantization is monotonic: the largest code holds the largest real value.
      T max_code = std::numeric_limits<T>::lowest();
      for (int64_t k = 0; k < n; ++k) max_code = x[base + k * stride] > max_code ? x[base + k * stride] : max_code;
      const float max = DequantizeValue(max_code, in_scale, in_zp);
      double sum = 0.0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(DequantizeValue(x[base + k * stride], in_scale, in_zp) - max);
      if (p.log) {
        const float log_sum = static_cast<float>(std::log(sum));
        for (int64_t k = 0; k < n; ++k) {
          const float v = (DequantizeValue(x[base + k * stride], in_scale, in_zp) - max) - log_sum;
          y[base + k * stride] = static_cast<TOut>(QuantizeValue(v, q.out_scale, q.out_zero_point, kMin, kMax));
        }
        continue;
      }
      const float scale = static_cast<float>(1.0 / sum);
      for (int64_t k = 0; k < n; ++k) {
        const float e = std::exp(DequantizeValue(x[base + k * stride], in_scale, in_zp) - max);
        y[base + k * stride] = static_cast<TOut>(QuantizeValue(e * scale, q.out_scale, q.out_zero_point, kMin, kMax));
      }
    }
  }
}

}  // namespace

void s8_softmax__ref(const S8SoftmaxParams& params, const int8_t* input, int8_t* output) {
  QuantizedSoftmax(params, input, output);
}

void quantized_softmax__ref(const S8SoftmaxParams& params, DataType input_type, const void* input,
                            DataType output_type, void* output) {
  const bool in16 = input_type == DataType::kInt16, out16 = output_type == DataType::kInt16;
  if (in16 && out16) {
    QuantizedSoftmax(params, static_cast<const int16_t*>(input), static_cast<int16_t*>(output));
  } else if (in16) {
    QuantizedSoftmax(params, static_cast<const int16_t*>(input), static_cast<int8_t*>(output));
  } else if (out16) {
    QuantizedSoftmax(params, static_cast<const int8_t*>(input), static_cast<int16_t*>(output));
  } else {
    QuantizedSoftmax(params, static_cast<const int8_t*>(input), static_cast<int8_t*>(output));
  }
}

}  // namespace npurt
