// Integer direct convolution (contract in conv.h and quantize.h). Same walk as
// f32_conv__ref -- every (input channel, tap) adds a strided input row times one
// weight to a row of accumulators, the padding test hoisted out of the inner
// loop -- with the accumulators of up to kBlock output pixels of one row on the
// stack (the kernel allocates nothing). Templated on the input and output
// storage types (int8 or int16) and the accumulator (int32 for int8 inputs,
// int64 for int16).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "runtime/kernels/ref/conv.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/window.h"

namespace npurt {
namespace {

constexpr int64_t kBlock = 256;  // output pixels per accumulator block

template <typename TIn, typename TOut, typename Acc>
void QuantizedConv(const ConvParams& p, const ConvQuantParams& q, const TIn* input, const int8_t* weights,
                   const int32_t* bias, TOut* output, WorkRange range, const ConvResidual* residual) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  const int64_t kernel_volume = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int64_t group_in = p.in_channels / p.groups;
  const int64_t group_out = p.out_channels / p.groups;
  const int32_t zp = q.input_zero_point;
  Acc acc[kBlock];

  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t oc = range.Begin(p.out_channels); oc < range.End(p.out_channels); ++oc) {
      const TIn* in_group = input + (n * p.in_channels + (oc / group_out) * group_in) * in_plane;
      const int8_t* w_oc = weights + oc * group_in * kernel_volume;
      const float acc_scale = q.acc_scale[static_cast<size_t>(oc)];
      TOut* out = output + (n * p.out_channels + oc) * out_plane;
      for (int64_t od = 0; od < p.out[0]; ++od) {
        // The taps k with 0 <= o * stride + k * dilation - pad < in; the others read padding
        // (the input zero point, real 0), which adds nothing.
        const int64_t off_d = od * p.stride[0] - p.pad_begin[0];
        int64_t kd_lo = 0, kd_hi = 0;
        ValidRange(p.kernel[0], p.dilation[0], off_d, p.in[0], &kd_lo, &kd_hi);
        for (int64_t oh = 0; oh < p.out[1]; ++oh) {
          const int64_t off_h = oh * p.stride[1] - p.pad_begin[1];
          int64_t kh_lo = 0, kh_hi = 0;
          ValidRange(p.kernel[1], p.dilation[1], off_h, p.in[1], &kh_lo, &kh_hi);
          TOut* out_row = out + (od * p.out[1] + oh) * p.out[2];
          for (int64_t ow0 = 0; ow0 < p.out[2]; ow0 += kBlock) {
            const int64_t count = std::min(kBlock, p.out[2] - ow0);
            std::fill(acc, acc + count, static_cast<Acc>(bias != nullptr ? bias[oc] : 0));
            for (int64_t ic = 0; ic < group_in; ++ic) {
              const TIn* in = in_group + ic * in_plane;
              const int8_t* w = w_oc + ic * kernel_volume;
              for (int64_t kd = kd_lo; kd < kd_hi; ++kd) {
                const int64_t id = off_d + kd * p.dilation[0];
                for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
                  const int64_t ih = off_h + kh * p.dilation[1];
                  const TIn* in_row = in + (id * p.in[1] + ih) * p.in[2];
                  const int8_t* w_row = w + (kd * p.kernel[1] + kh) * p.kernel[2];
                  for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
                    const Acc wv = w_row[kw];
                    // Output pixel ow0 + j reads input column j * stride + first.
                    const int64_t first = ow0 * p.stride[2] + kw * p.dilation[2] - p.pad_begin[2];
                    int64_t j_lo = 0, j_hi = 0;
                    ValidRange(count, p.stride[2], first, p.in[2], &j_lo, &j_hi);
                    for (int64_t j = j_lo; j < j_hi; ++j) {
                      acc[j] += (static_cast<Acc>(in_row[j * p.stride[2] + first]) - zp) * wv;
                    }
                  }
                }
              }
            }
            if (residual != nullptr) {
              const int64_t first = out_row + ow0 - output;  // the element index of output and residual
              for (int64_t j = 0; j < count; ++j) {
                out_row[ow0 + j] = static_cast<TOut>(
                    RequantizeWithResidual(acc[j], acc_scale, QuantizedResidualValue(*residual, first + j), p.activation,
                                           q.output_scale, q.output_zero_point, q.output_min, q.output_max, oc));
              }
              continue;
            }
            for (int64_t j = 0; j < count; ++j) {
              out_row[ow0 + j] = static_cast<TOut>(Requantize(acc[j], acc_scale, p.activation, q.output_scale,
                                                           q.output_zero_point, q.output_min, q.output_max, oc));
            }
          }
        }
      }
    }
  }
}

}  // namespace

void s8_conv__ref(const ConvParams& p, const ConvQuantParams& q, const int8_t* input, const int8_t* weights,
                  const int32_t* bias, int8_t* output) {
  QuantizedConv<int8_t, int8_t, int32_t>(p, q, input, weights, bias, output, WorkRange{}, nullptr);
}

void quantized_conv__ref(const ConvParams& p, const ConvQuantParams& q, DataType input_type, const void* input,
                         const int8_t* weights, const int32_t* bias, DataType output_type, void* output,
                         WorkRange range, const ConvResidual* residual) {
  WithActivationType(input_type, [&](auto* in_tag) {
    using TIn = std::remove_pointer_t<decltype(in_tag)>;
    using Acc = std::conditional_t<sizeof(TIn) == 1, int32_t, int64_t>;  // int16 inputs accumulate in int64
    WithActivationType(output_type, [&](auto* out_tag) {
      using TOut = std::remove_pointer_t<decltype(out_tag)>;
      QuantizedConv<TIn, TOut, Acc>(p, q, static_cast<const TIn*>(input), weights, bias, static_cast<TOut*>(output), range,
                                    residual);
    });
  });
}

}  // namespace npurt
