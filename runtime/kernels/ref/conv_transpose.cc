#include "runtime/kernels/ref/conv_transpose.h"

#include <algorithm>

#include "runtime/kernels/ref/window.h"

namespace npurt {

void f32_conv_transpose__ref(const ConvTransposeParams& p, const float* input, const float* weights,
                             const float* bias, float* output, WorkRange range) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  const int64_t kernel_volume = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int64_t group_in = p.in_channels / p.groups;
  const int64_t group_out = p.out_channels / p.groups;

  const int64_t oc_begin = range.Begin(p.out_channels), oc_end = range.End(p.out_channels);
  for (int64_t n = 0; n < p.batch; ++n) {
    float* out_image = output + n * p.out_channels * out_plane;
    for (int64_t oc = oc_begin; oc < oc_end; ++oc) {
      std::fill(out_image + oc * out_plane, out_image + (oc + 1) * out_plane, bias != nullptr ? bias[oc] : 0.0f);
    }
    // Scatter form: each input pixel adds its kernel-weighted copy to the output
    // channels of its group that lie in the range.
    for (int64_t ic = 0; ic < p.in_channels; ++ic) {
      const float* in = input + (n * p.in_channels + ic) * in_plane;
      const int64_t first_oc = (ic / group_in) * group_out;
      const int64_t j_lo = std::max<int64_t>(0, oc_begin - first_oc);
      const int64_t j_hi = std::min(group_out, oc_end - first_oc);
      for (int64_t j = j_lo; j < j_hi; ++j) {
        float* out = out_image + (first_oc + j) * out_plane;
        const float* w = weights + (ic * group_out + j) * kernel_volume;
        for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
          for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
            for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
              const float wv = w[(kd * p.kernel[1] + kh) * p.kernel[2] + kw];
              const int64_t off_w = kw * p.dilation[2] - p.pad_begin[2];
              int64_t iw_lo = 0, iw_hi = 0;
              ValidRange(p.in[2], p.stride[2], off_w, p.out[2], &iw_lo, &iw_hi);
              for (int64_t id = 0; id < p.in[0]; ++id) {
                const int64_t od = id * p.stride[0] + kd * p.dilation[0] - p.pad_begin[0];
                if (od < 0 || od >= p.out[0]) continue;
                for (int64_t ih = 0; ih < p.in[1]; ++ih) {
                  const int64_t oh = ih * p.stride[1] + kh * p.dilation[1] - p.pad_begin[1];
                  if (oh < 0 || oh >= p.out[1]) continue;
                  const float* in_row = in + (id * p.in[1] + ih) * p.in[2];
                  float* out_row = out + (od * p.out[1] + oh) * p.out[2];
                  for (int64_t iw = iw_lo; iw < iw_hi; ++iw) out_row[iw * p.stride[2] + off_w] += wv * in_row[iw];
                }
              }
            }
          }
        }
      }
    }
    for (int64_t oc = oc_begin; oc < oc_end; ++oc) {
      ApplyFusedActivation(p.activation, out_image + oc * out_plane, static_cast<size_t>(out_plane), oc);
    }
  }
}

}  // namespace npurt
