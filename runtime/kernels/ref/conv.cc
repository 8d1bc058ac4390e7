#include "runtime/kernels/ref/conv.h"

#include <algorithm>

#include "runtime/kernels/ref/window.h"

namespace npurt {

void f32_conv__ref(const ConvParams& p, const float* input, const float* weights, const float* bias,
                   float* output, WorkRange range, const ConvResidual* residual) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  const int64_t kernel_volume = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int64_t group_in = p.in_channels / p.groups;
  const int64_t group_out = p.out_channels / p.groups;

  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t oc = range.Begin(p.out_channels); oc < range.End(p.out_channels); ++oc) {
      float* out = output + (n * p.out_channels + oc) * out_plane;
      std::fill(out, out + out_plane, bias != nullptr ? bias[oc] : 0.0f);
      const int64_t first_ic = (oc / group_out) * group_in;
      // One output row at a time, so that it stays in cache while every input channel and tap adds to
      // it; each output still sums bias, then (channel, tap) in order.
      for (int64_t od = 0; od < p.out[0]; ++od) {
        for (int64_t oh = 0; oh < p.out[1]; ++oh) {
          float* out_row = out + (od * p.out[1] + oh) * p.out[2];
          for (int64_t ic = 0; ic < group_in; ++ic) {
            const float* in = input + (n * p.in_channels + first_ic + ic) * in_plane;
            const float* w = weights + (oc * group_in + ic) * kernel_volume;
            for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
              const int64_t id = od * p.stride[0] + kd * p.dilation[0] - p.pad_begin[0];
              if (id < 0 || id >= p.in[0]) continue;
              for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
                const int64_t ih = oh * p.stride[1] + kh * p.dilation[1] - p.pad_begin[1];
                if (ih < 0 || ih >= p.in[1]) continue;
                const float* in_row = in + (id * p.in[1] + ih) * p.in[2];
                for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
                  const float wv = w[(kd * p.kernel[1] + kh) * p.kernel[2] + kw];
                  const int64_t off_w = kw * p.dilation[2] - p.pad_begin[2];
                  int64_t ow_lo = 0, ow_hi = 0;
                  ValidRange(p.out[2], p.stride[2], off_w, p.in[2], &ow_lo, &ow_hi);
                  for (int64_t ow = ow_lo; ow < ow_hi; ++ow) out_row[ow] += wv * in_row[ow * p.stride[2] + off_w];
                }
              }
            }
          }
        }
      }
      if (residual != nullptr) {
        const float* r = static_cast<const float*>(residual->data) + (n * p.out_channels + oc) * out_plane;
        for (int64_t i = 0; i < out_plane; ++i) out[i] += r[i];
      }
      ApplyFusedActivation(p.activation, out, static_cast<size_t>(out_plane), oc);
    }
  }
}

}  // namespace npurt
