// Integer transposed convolution (contract in conv_transpose.h and
// quantize.h). Gather form: each output row collects, per tap, the input
// pixels whose kernel copy lands on it (o = i * stride + k * dilation - pad),
// into accumulators for up to kBlock output pixels on the stack, so the kernel
// allocates nothing. Templated on the input and output storage types (int8 or
// int16, the hybrid scheme) and the accumulator (int32 for int8 inputs, int64
// for int16).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "runtime/kernels/ref/conv_transpose.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/kernels/ref/window.h"

namespace npurt {
namespace {

constexpr int64_t kBlock = 256;  // output pixels per accumulator block

// The input index i with i * stride == o + pad - k * dilation, or -1 when there is none in [0, in).
inline int64_t SourceIndex(int64_t o, int64_t k, int64_t pad, int64_t stride, int64_t dilation, int64_t in) {
  const int64_t t = o + pad - k * dilation;
  if (t < 0 || t % stride != 0) return -1;
  const int64_t i = t / stride;
  return i < in ? i : -1;
}

template <typename TIn, typename TOut, typename Acc>
void QuantizedConvTranspose(const ConvTransposeParams& p, const ConvQuantParams& q, const TIn* input,
                            const int8_t* weights, const int32_t* bias, TOut* output, WorkRange range) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  const int64_t kernel_volume = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int64_t group_in = p.in_channels / p.groups;
  const int64_t group_out = p.out_channels / p.groups;
  const int32_t zp = q.input_zero_point;
  Acc acc[kBlock];

  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t oc = range.Begin(p.out_channels); oc < range.End(p.out_channels); ++oc) {
      const int64_t g = oc / group_out, j_out = oc % group_out;
      const TIn* in_group = input + (n * p.in_channels + g * group_in) * in_plane;
      const float acc_scale = q.acc_scale[static_cast<size_t>(oc)];
      TOut* out = output + (n * p.out_channels + oc) * out_plane;
      for (int64_t od = 0; od < p.out[0]; ++od) {
        for (int64_t oh = 0; oh < p.out[1]; ++oh) {
          TOut* out_row = out + (od * p.out[1] + oh) * p.out[2];
          for (int64_t ow0 = 0; ow0 < p.out[2]; ow0 += kBlock) {
            const int64_t count = std::min(kBlock, p.out[2] - ow0);
            std::fill(acc, acc + count, static_cast<Acc>(bias != nullptr ? bias[oc] : 0));
            for (int64_t ic = 0; ic < group_in; ++ic) {
              const TIn* in = in_group + ic * in_plane;
              // Weight (ic, j_out, taps) of input channel g * group_in + ic.
              const int8_t* w = weights + ((g * group_in + ic) * group_out + j_out) * kernel_volume;
              for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
                const int64_t id = SourceIndex(od, kd, p.pad_begin[0], p.stride[0], p.dilation[0], p.in[0]);
                if (id < 0) continue;
                for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
                  const int64_t ih = SourceIndex(oh, kh, p.pad_begin[1], p.stride[1], p.dilation[1], p.in[1]);
                  if (ih < 0) continue;
                  const TIn* in_row = in + (id * p.in[1] + ih) * p.in[2];
                  const int8_t* w_row = w + (kd * p.kernel[1] + kh) * p.kernel[2];
                  for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
                    const Acc wv = w_row[kw];
                    // Input column iw lands on output pixel ow0 + (iw * stride + first).
                    const int64_t first = kw * p.dilation[2] - p.pad_begin[2] - ow0;
                    int64_t iw_lo = 0, iw_hi = 0;
                    ValidRange(p.in[2], p.stride[2], first, count, &iw_lo, &iw_hi);
                    for (int64_t iw = iw_lo; iw < iw_hi; ++iw) {
                      acc[iw * p.stride[2] + first] += (static_cast<Acc>(in_row[iw]) - zp) * wv;
                    }
                  }
                }
              }
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

void quantized_conv_transpose__ref(const ConvTransposeParams& p, const ConvQuantParams& q, DataType input_type,
                                   const void* input, const int8_t* weights, const int32_t* bias, DataType output_type,
                                   void* output, WorkRange range) {
  WithActivationType(input_type, [&](auto* in_tag) {
    using TIn = std::remove_pointer_t<decltype(in_tag)>;
    using Acc = std::conditional_t<sizeof(TIn) == 1, int32_t, int64_t>;  // int16 inputs accumulate in int64
    WithActivationType(output_type, [&](auto* out_tag) {
      using TOut = std::remove_pointer_t<decltype(out_tag)>;
      QuantizedConvTranspose<TIn, TOut, Acc>(p, q, static_cast<const TIn*>(input), weights, bias, static_cast<TOut*>(output),
                                             range);
    });
  });
}

}  // namespace npurt
