// The channels-last quantized AveragePool (runtime/kernels/portable/avg_pool_nhwc.h) against the reference
// on NCHW data, bit for bit: int8 and int16 codes, input and output parameters that differ, random shapes
// with channel blocks and tails, kernels, strides, dilations, pads, windows past the end pad (ceil mode)
// and of padding only, count_include_pad both ways, split into two row ranges as threads would.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "runtime/kernels/portable/avg_pool_nhwc.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/ref/pooling.h"

namespace npurt {
namespace {

struct Case {
  S8PoolParams ref;
  AvgPoolNhwcParams nhwc;
};

Case RandomCase(std::mt19937* rng, bool int16) {
  std::uniform_int_distribution<int64_t> dim(1, 13), small(1, 3), pad(0, 2), batch(1, 2);
  std::uniform_int_distribution<int64_t> channels(1, 300);  // past the kernel's 256-channel blocks
  std::uniform_int_distribution<int> coin(0, 1);
  Case c;
  AvgPoolNhwcParams& a = c.nhwc;
  PoolNhwcParams& n = a.window;
  n.batch = batch(*rng), n.channels = channels(*rng), n.in_h = dim(*rng), n.in_w = dim(*rng);
  n.kernel_h = small(*rng), n.kernel_w = small(*rng), n.stride_h = small(*rng), n.stride_w = small(*rng);
  n.dilation_h = small(*rng) == 3 ? 2 : 1, n.dilation_w = small(*rng) == 3 ? 2 : 1;
  n.pad_top = pad(*rng), n.pad_left = pad(*rng);
  a.pad_bottom = pad(*rng), a.pad_right = pad(*rng);
  const int64_t eh = (n.kernel_h - 1) * n.dilation_h + 1, ew = (n.kernel_w - 1) * n.dilation_w + 1;
  // Ceil mode half the time: the last window may reach past the end pad.
  const int64_t span_h = std::max<int64_t>(0, n.in_h + n.pad_top + a.pad_bottom - eh);
  const int64_t span_w = std::max<int64_t>(0, n.in_w + n.pad_left + a.pad_right - ew);
  const bool ceil = coin(*rng) == 1;
  n.out_h = (ceil ? (span_h + n.stride_h - 1) : span_h) / n.stride_h + 1;
  n.out_w = (ceil ? (span_w + n.stride_w - 1) : span_w) / n.stride_w + 1;
  a.count_include_pad = coin(*rng) == 1;
  std::uniform_real_distribution<float> scale(0.01f, 0.2f);
  const int32_t range = int16 ? 3000 : 20;
  std::uniform_int_distribution<int32_t> zero_point(-range, range);
  a.in_scale = scale(*rng), a.out_scale = coin(*rng) == 1 ? a.in_scale : scale(*rng);
  a.in_zero_point = zero_point(*rng), a.out_zero_point = zero_point(*rng);
  PoolParams& p = c.ref.pool;
  p.kind = PoolKind::kAverage;
  p.count_include_pad = a.count_include_pad;
  p.planes = n.batch * n.channels;
  p.in[1] = n.in_h, p.in[2] = n.in_w, p.out[1] = n.out_h, p.out[2] = n.out_w;
  p.kernel[1] = n.kernel_h, p.kernel[2] = n.kernel_w, p.stride[1] = n.stride_h, p.stride[2] = n.stride_w;
  p.dilation[1] = n.dilation_h, p.dilation[2] = n.dilation_w;
  p.pad_begin[1] = n.pad_top, p.pad_begin[2] = n.pad_left, p.pad_end[1] = a.pad_bottom, p.pad_end[2] = a.pad_right;
  c.ref.in_scale = a.in_scale, c.ref.in_zero_point = a.in_zero_point;
  c.ref.out_scale = a.out_scale, c.ref.out_zero_point = a.out_zero_point;
  return c;
}

template <typename T, typename Kernel>
void ExpectBitExact(uint32_t seed, DataType type, Kernel kernel) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> code(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  int with_pad_only = 0, past_end = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const Case c = RandomCase(&rng, sizeof(T) == 2);
    const PoolNhwcParams& n = c.nhwc.window;
    const int64_t in_spatial = n.in_h * n.in_w, out_spatial = n.out_h * n.out_w;
    std::vector<T> x(static_cast<size_t>(c.ref.pool.planes * in_spatial));
    for (T& v : x) v = static_cast<T>(code(rng));
    std::vector<T> want(static_cast<size_t>(c.ref.pool.planes * out_spatial));
    quantized_pool__ref(c.ref, type, x.data(), want.data());

    std::vector<T> in(x.size()), out(want.size()), got(want.size());
    nchw_to_nhwc(x.data(), in.data(), n.batch, n.channels, in_spatial, sizeof(T));
    const int64_t rows = n.batch * n.out_h;
    const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(rng);
    kernel(c.nhwc, in.data(), out.data(), WorkRange{0, cut});
    kernel(c.nhwc, in.data(), out.data(), WorkRange{cut, rows});
    nhwc_to_nchw(out.data(), got.data(), n.batch, n.channels, out_spatial, sizeof(T));
    ASSERT_EQ(got, want) << "iteration " << iter;
    with_pad_only += n.pad_top >= n.kernel_h || n.pad_left >= n.kernel_w ? 1 : 0;
    past_end += (n.out_h - 1) * n.stride_h + (n.kernel_h - 1) * n.dilation_h + 1 > n.in_h + n.pad_top + c.nhwc.pad_bottom;
  }
  // The draws reach the edge cases the kernel's window arithmetic must get right.
  EXPECT_GT(with_pad_only, 10);
  EXPECT_GT(past_end, 10);
}

TEST(AvgPoolNhwc, Int8AndInt16CodesBitExactWithReference) {
  ExpectBitExact<int8_t>(0xa708, DataType::kInt8, s8_avg_pool__nhwc);
  ExpectBitExact<int16_t>(0xa716, DataType::kInt16, s16_avg_pool__nhwc);
}

}  // namespace
}  // namespace npurt
