#include "runtime/kernels/ref/pooling.h"

#include <algorithm>
#include <limits>

namespace npurt {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

// The number of taps j in [0, count) with 0 <= j * step + offset < limit; the first is *lo.
int64_t TapRange(int64_t count, int64_t step, int64_t offset, int64_t limit, int64_t* lo) {
  *lo = std::max<int64_t>(0, CeilDiv(-offset, step));
  const int64_t hi = std::min<int64_t>(count, FloorDiv(limit - 1 - offset, step) + 1);
  return hi > *lo ? hi - *lo : 0;
}

}  // namespace

void f32_pool__ref(const PoolParams& p, const float* input, float* output) {
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  for (int64_t plane = 0; plane < p.planes; ++plane) {
    const float* in = input + plane * in_plane;
    float* out = output + plane * out_plane;
    for (int64_t od = 0; od < p.out[0]; ++od) {
      for (int64_t oh = 0; oh < p.out[1]; ++oh) {
        for (int64_t ow = 0; ow < p.out[2]; ++ow) {
          const int64_t start[3] = {od * p.stride[0] - p.pad_begin[0], oh * p.stride[1] - p.pad_begin[1],
                                    ow * p.stride[2] - p.pad_begin[2]};
          int64_t first[3], taps[3];
          int64_t padded_taps = 1;
          for (int i = 0; i < 3; ++i) {
            taps[i] = TapRange(p.kernel[i], p.dilation[i], start[i], p.in[i], &first[i]);
            int64_t unused = 0;
            padded_taps *= TapRange(p.kernel[i], p.dilation[i], start[i] + p.pad_begin[i],
                                    p.in[i] + p.pad_begin[i] + p.pad_end[i], &unused);
          }
          float max = std::numeric_limits<float>::lowest();
          float sum = 0.0f;
          for (int64_t jd = first[0]; jd < first[0] + taps[0]; ++jd) {
            const int64_t id = start[0] + jd * p.dilation[0];
            for (int64_t jh = first[1]; jh < first[1] + taps[1]; ++jh) {
              const float* row = in + (id * p.in[1] + start[1] + jh * p.dilation[1]) * p.in[2];
              for (int64_t jw = first[2]; jw < first[2] + taps[2]; ++jw) {
                const float v = row[start[2] + jw * p.dilation[2]];
                max = std::max(max, v);
                sum += v;
              }
            }
          }
          float* y = out + (od * p.out[1] + oh) * p.out[2] + ow;
          if (p.kind == PoolKind::kMax) {
            *y = max;
          } else {
            const int64_t count = p.count_include_pad ? padded_taps : taps[0] * taps[1] * taps[2];
            *y = count > 0 ? sum / static_cast<float>(count) : 0.0f;
          }
        }
      }
    }
  }
}

void f32_global_pool__ref(PoolKind kind, int64_t planes, int64_t plane_size, const float* input, float* output) {
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* in = input + plane * plane_size;
    if (kind == PoolKind::kMax) {
      float max = in[0];
      for (int64_t i = 1; i < plane_size; ++i) max = std::max(max, in[i]);
      output[plane] = max;
    } else {
      // Whole feature maps can be large: accumulate in double.
      double sum = 0.0;
      for (int64_t i = 0; i < plane_size; ++i) sum += in[i];
      output[plane] = static_cast<float>(sum / static_cast<double>(plane_size));
    }
  }
}

}  // namespace npurt
