// int8 Concat with per-input requantization (see concat.h).
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/kernels/ref/concat.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

template <typename T>
void QuantizedConcat(const S8ConcatParams& p, const T* const* inputs, T* out) {
  constexpr int32_t kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  for (size_t o = 0; o < p.outer; ++o) {
    for (size_t i = 0; i < p.num_inputs; ++i) {
      const S8ConcatInput& in = p.inputs[i];
      if (in.chunk == 0) continue;  // zero-size inputs contribute nothing
      const T* src = inputs[i] + o * in.chunk;
      if (in.copy) {
        std::memcpy(out, src, in.chunk * sizeof(T));
      } else {
        for (size_t k = 0; k < in.chunk; ++k) {
          const float real = DequantizeValue(src[k], in.scale, in.zero_point);
          out[k] = static_cast<T>(QuantizeValue(real, p.out_scale, p.out_zero_point, kMin, kMax));
        }
      }
      out += in.chunk;
    }
  }
}

}  // namespace

void s8_concat__ref(const S8ConcatParams& params, const int8_t* const* inputs, int8_t* output) {
  QuantizedConcat(params, inputs, output);
}

void s16_concat__ref(const S8ConcatParams& params, const int16_t* const* inputs, int16_t* output) {
  QuantizedConcat(params, inputs, output);
}

}  // namespace npurt
