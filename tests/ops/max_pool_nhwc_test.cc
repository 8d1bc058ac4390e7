// The channels-last MaxPool (runtime/kernels/portable/max_pool_nhwc.h; where the CPU has it, also its AVX2
// build) against the reference on NCHW data, bit for bit: float (NaN, infinities, +0 and -0 included),
// int8 and int16 codes; random shapes with channel blocks and tails, kernels, strides, dilations and pads
// (windows of padding only at the edges), split into two row ranges as threads would.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/portable/max_pool_nhwc.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/max_pool_nhwc_avx2.h"
#endif
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/ref/pooling.h"

namespace npurt {
namespace {

struct Case {
  PoolParams pool;
  PoolNhwcParams nhwc;
};

Case RandomCase(std::mt19937* rng) {
  std::uniform_int_distribution<int64_t> dim(1, 13), small(1, 3), pad(0, 2), channels(1, 150), batch(1, 2);
  Case c;
  PoolNhwcParams& n = c.nhwc;
  n.batch = batch(*rng), n.channels = channels(*rng), n.in_h = dim(*rng), n.in_w = dim(*rng);
  n.kernel_h = small(*rng), n.kernel_w = small(*rng), n.stride_h = small(*rng), n.stride_w = small(*rng);
  n.dilation_h = small(*rng) == 3 ? 2 : 1, n.dilation_w = small(*rng) == 3 ? 2 : 1;
  n.pad_top = pad(*rng), n.pad_left = pad(*rng);
  const int64_t pad_bottom = pad(*rng), pad_right = pad(*rng);
  const int64_t eh = (n.kernel_h - 1) * n.dilation_h + 1, ew = (n.kernel_w - 1) * n.dilation_w + 1;
  n.out_h = std::max<int64_t>(1, (n.in_h + n.pad_top + pad_bottom - eh) / n.stride_h + 1);
  n.out_w = std::max<int64_t>(1, (n.in_w + n.pad_left + pad_right - ew) / n.stride_w + 1);
  PoolParams& p = c.pool;
  p.kind = PoolKind::kMax;
  p.planes = n.batch * n.channels;
  p.in[1] = n.in_h, p.in[2] = n.in_w, p.out[1] = n.out_h, p.out[2] = n.out_w;
  p.kernel[1] = n.kernel_h, p.kernel[2] = n.kernel_w, p.stride[1] = n.stride_h, p.stride[2] = n.stride_w;
  p.dilation[1] = n.dilation_h, p.dilation[2] = n.dilation_w;
  p.pad_begin[1] = n.pad_top, p.pad_begin[2] = n.pad_left, p.pad_end[1] = pad_bottom, p.pad_end[2] = pad_right;
  return c;
}

// Runs the NHWC kernel on `nchw` (transposed in, and the result back) in two row ranges.
template <typename T, typename Kernel>
std::vector<T> RunNhwc(const Case& c, const std::vector<T>& nchw, Kernel kernel, std::mt19937* rng) {
  const PoolNhwcParams& n = c.nhwc;
  const int64_t in_spatial = n.in_h * n.in_w, out_spatial = n.out_h * n.out_w;
  std::vector<T> in(nchw.size()), out(static_cast<size_t>(n.batch * n.channels * out_spatial)), back(out.size());
  nchw_to_nhwc(nchw.data(), in.data(), n.batch, n.channels, in_spatial, sizeof(T));
  const int64_t rows = n.batch * n.out_h;
  const int64_t cut = std::uniform_int_distribution<int64_t>(0, rows)(*rng);
  kernel(n, in.data(), out.data(), WorkRange{0, cut});
  kernel(n, in.data(), out.data(), WorkRange{cut, rows});
  nhwc_to_nchw(out.data(), back.data(), n.batch, n.channels, out_spatial, sizeof(T));
  return back;
}

template <typename Kernel>
void ExpectFloatBitExact(Kernel kernel) {
  std::mt19937 rng(0x900f);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 19);
  for (int iter = 0; iter < 300; ++iter) {
    const Case c = RandomCase(&rng);
    std::vector<float> x(static_cast<size_t>(c.pool.planes * c.nhwc.in_h * c.nhwc.in_w));
    for (float& v : x) {
      const int k = pick(rng);
      v = k == 0 ? std::numeric_limits<float>::quiet_NaN() : k == 1 ? -0.0f : k == 2 ? 0.0f
        : k == 3 ? -std::numeric_limits<float>::infinity() : value(rng);
    }
    std::vector<float> want(static_cast<size_t>(c.pool.planes * c.nhwc.out_h * c.nhwc.out_w));
    f32_pool__ref(c.pool, x.data(), want.data());
    const std::vector<float> got = RunNhwc(c, x, kernel, &rng);
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), want.size() * sizeof(float))) << "iteration " << iter;
  }
}

TEST(MaxPoolNhwc, FloatBitExactWithReference) {
  ExpectFloatBitExact(f32_max_pool__nhwc);
#if NPURT_HAVE_X86_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) ExpectFloatBitExact(f32_max_pool__nhwc_avx2);
#endif
}

template <typename T, typename Kernel>
void ExpectCodesBitExact(uint32_t seed, DataType type, Kernel kernel) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> code(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  for (int iter = 0; iter < 300; ++iter) {
    const Case c = RandomCase(&rng);
    std::vector<T> x(static_cast<size_t>(c.pool.planes * c.nhwc.in_h * c.nhwc.in_w));
    for (T& v : x) v = static_cast<T>(code(rng));
    std::vector<T> want(static_cast<size_t>(c.pool.planes * c.nhwc.out_h * c.nhwc.out_w));
    S8PoolParams q;
    q.pool = c.pool;
    q.in_scale = q.out_scale = 0.05f;
    q.in_zero_point = q.out_zero_point = 3;
    quantized_pool__ref(q, type, x.data(), want.data());
    ASSERT_EQ(RunNhwc(c, x, kernel, &rng), want) << "iteration " << iter;
  }
}

TEST(MaxPoolNhwc, Int8AndInt16CodesBitExactWithReference) {
  ExpectCodesBitExact<int8_t>(0x9008, DataType::kInt8, s8_max_pool__nhwc);
  ExpectCodesBitExact<int16_t>(0x9016, DataType::kInt16, s16_max_pool__nhwc);
#if NPURT_HAVE_X86_KERNELS
  if (ActiveCpuTarget() >= CpuTarget::kAvx2) {
    ExpectCodesBitExact<int8_t>(0x9108, DataType::kInt8, s8_max_pool__nhwc_avx2);
    ExpectCodesBitExact<int16_t>(0x9116, DataType::kInt16, s16_max_pool__nhwc_avx2);
  }
#endif
}

}  // namespace
}  // namespace npurt
