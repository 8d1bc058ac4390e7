// Optimized-vs-reference harness for the accumulating kernels: the same cases
// run through runtime/kernels/ref (the specification) and through a candidate
// kernel with the same signature, and the outputs are compared value by value.
//
// Cases are edge shapes -- widths around vector lengths (1, 7, 15..17, 31..33,
// 63..65), depthwise and grouped convolutions, strides, dilations, asymmetric
// pads, 1-D, batches -- and zero points at -128, 0 and 127, then random shapes.
// Quantized outputs are compared in output codes (how many values differ, by
// how many steps at most: optimized kernels must be bit-exact, and the report
// says which fraction differs); float outputs by their normalized mean squared error.
//
// The speed issue's kernels (runtime/kernels/x86, arm) plug in here:
//   ExpectBitExact(CompareQuantizedConv(&my_conv, ConvCases(seed, 200)));
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/conv.h"
#include "runtime/kernels/ref/conv_transpose.h"
#include "runtime/kernels/ref/gemm.h"

namespace npurt {
namespace testing {

// The reference kernels' signatures, WorkRange included (the harness runs whole calls).
using QuantizedConvKernel = void (*)(const ConvParams&, const ConvQuantParams&, DataType, const void*,
                                     const int8_t*, const int32_t*, DataType, void*, WorkRange, const ConvResidual*);
using QuantizedConvTransposeKernel = void (*)(const ConvTransposeParams&, const ConvQuantParams&, DataType,
                                              const void*, const int8_t*, const int32_t*, DataType, void*, WorkRange);
using QuantizedGemmKernel = void (*)(const GemmParams&, const GemmQuantParams&, DataType, const void*,
                                     const int8_t*, const int32_t*, DataType, void*, WorkRange);
using FloatConvKernel = void (*)(const ConvParams&, const float*, const float*, const float*, float*, WorkRange,
                                 const ConvResidual*);

// What a comparison found, over all cases.
struct KernelDiff {
  size_t cases = 0;
  size_t values = 0;
  size_t differing = 0;     // values that differ at all
  int64_t max_steps = 0;    // quantized: largest |candidate - reference| in output codes
  double max_nmse = 0.0;    // float: largest per-case sum (c - r)^2 / sum r^2
  std::string worst_case;   // the case with the largest difference

  double differing_share() const { return values == 0 ? 0.0 : static_cast<double>(differing) / values; }
};

inline void ExpectBitExact(const KernelDiff& d) {
  EXPECT_GT(d.cases, 0u);
  EXPECT_EQ(d.differing, 0u) << d.differing << " of " << d.values << " values differ (" << 100.0 * d.differing_share()
                             << " %), up to " << d.max_steps << " steps, worst in " << d.worst_case;
}

inline void ExpectNmseBelow(const KernelDiff& d, double bound) {
  EXPECT_GT(d.cases, 0u);
  EXPECT_LE(d.max_nmse, bound) << "worst in " << d.worst_case;
}

// ---- data ----

inline int32_t TypeMin(DataType t) { return t == DataType::kInt16 ? -32768 : -128; }
inline int32_t TypeMax(DataType t) { return t == DataType::kInt16 ? 32767 : 127; }
inline size_t TypeBytes(DataType t) { return t == DataType::kInt16 ? 2 : 1; }

// Random codes of `type` (int8 or int16) as raw bytes.
inline std::vector<uint8_t> RandomActivationBytes(std::mt19937* rng, DataType type, int64_t count) {
  std::uniform_int_distribution<int32_t> code(TypeMin(type), TypeMax(type));
  std::vector<uint8_t> bytes(static_cast<size_t>(count) * TypeBytes(type));
  for (int64_t i = 0; i < count; ++i) {
    if (type == DataType::kInt16) {
      const int16_t v = static_cast<int16_t>(code(*rng));
      std::memcpy(&bytes[static_cast<size_t>(i) * 2], &v, 2);
    } else {
      bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(static_cast<int8_t>(code(*rng)));
    }
  }
  return bytes;
}

inline int32_t CodeAt(const std::vector<uint8_t>& bytes, DataType type, size_t i) {
  if (type == DataType::kInt16) {
    int16_t v = 0;
    std::memcpy(&v, &bytes[i * 2], 2);
    return v;
  }
  return static_cast<int8_t>(bytes[i]);
}

inline std::vector<int8_t> RandomWeightCodes(std::mt19937* rng, int64_t count) {
  std::uniform_int_distribution<int> code(-127, 127);
  std::vector<int8_t> w(static_cast<size_t>(count));
  for (int8_t& v : w) v = static_cast<int8_t>(code(*rng));
  return w;
}

// Zero points at the edges of the type's range and at 0 as often as anywhere else (int16: symmetric, 0).
inline int32_t RandomZeroPoint(std::mt19937* rng, DataType type) {
  if (type == DataType::kInt16) return 0;
  const int pick = std::uniform_int_distribution<int>(0, 3)(*rng);
  return pick == 0 ? -128 : pick == 1 ? 127 : pick == 2 ? 0 : std::uniform_int_distribution<int>(-128, 127)(*rng);
}

// Output parameters that spread the accumulators over the output type's range, with some saturation: acc_scale per
// channel around output_scale * range / (sqrt(taps) * input range * 127).
inline void SpreadOutputScales(std::mt19937* rng, int64_t channels, int64_t taps, DataType in, DataType out,
                               float* output_scale, int32_t* output_zero_point, std::vector<float>* acc_scale) {
  std::uniform_real_distribution<float> jitter(0.5f, 2.0f);
  *output_scale = 1.0f;
  *output_zero_point = RandomZeroPoint(rng, out);
  const double typical_acc = std::sqrt(static_cast<double>(taps)) * (TypeMax(in) / 2.0) * 64.0;
  acc_scale->resize(static_cast<size_t>(channels));
  for (float& s : *acc_scale) s = static_cast<float>(TypeMax(out) / typical_acc) * jitter(*rng);
}

inline void CompareCodes(const std::string& name, DataType type, const std::vector<uint8_t>& want,
                         const std::vector<uint8_t>& got, KernelDiff* d) {
  const size_t n = want.size() / TypeBytes(type);
  ++d->cases;
  d->values += n;
  for (size_t i = 0; i < n; ++i) {
    const int64_t steps = std::llabs(static_cast<long long>(CodeAt(want, type, i)) - CodeAt(got, type, i));
    if (steps == 0) continue;
    ++d->differing;
    if (steps > d->max_steps) d->max_steps = steps, d->worst_case = name;
  }
}

inline void CompareFloats(const std::string& name, const std::vector<float>& want, const std::vector<float>& got,
                          KernelDiff* d) {
  ++d->cases;
  d->values += want.size();
  double err = 0.0, ref = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double e = static_cast<double>(got[i]) - want[i];
    if (e != 0.0) ++d->differing;
    err += e * e;
    ref += static_cast<double>(want[i]) * want[i];
  }
  const double nmse = ref > 0.0 ? err / ref : err;
  if (nmse > d->max_nmse || d->worst_case.empty()) d->max_nmse = std::max(d->max_nmse, nmse), d->worst_case = name;
}

// Runs every case through the reference and the candidate (Case::Run with each kernel) and compares the codes.
template <typename Case, typename Kernel>
KernelDiff CompareQuantizedCases(const std::vector<Case>& cases, Kernel reference, Kernel candidate) {
  KernelDiff d;
  for (const Case& c : cases) {
    std::vector<uint8_t> want(c.output_bytes(), 0x5a), got(c.output_bytes(), 0xa5);  // an unwritten value shows
    c.Run(reference, want.data());
    c.Run(candidate, got.data());
    CompareCodes(c.name, c.out_type, want, got, &d);
  }
  return d;
}

// ---- convolution ----

// A Conv or ConvTranspose case: the kernels share operands; they differ in the params and the weight layout.
template <typename Params, typename Kernel>
struct WeightedOpCase {
  std::string name;
  Params p;
  ConvQuantParams q;
  DataType in_type = DataType::kInt8;
  DataType out_type = DataType::kInt8;
  std::vector<uint8_t> input;
  std::vector<int8_t> weights;  // Conv (M, C / groups, kH, kW); ConvTranspose (C, M / groups, kH, kW)
  std::vector<int32_t> bias;    // empty: no bias
  // Conv only: a residual's codes (output layout) and their type and quantization; empty: none.
  std::vector<uint8_t> residual;
  ConvResidual residual_quant;

  // The residual argument of a kernel call (nullptr: none); points into this case.
  const ConvResidual* residual_arg(ConvResidual* storage) const {
    if (residual.empty()) return nullptr;
    *storage = residual_quant;
    storage->data = residual.data();
    return storage;
  }
  int64_t input_count() const { return p.batch * p.in_channels * p.in[0] * p.in[1] * p.in[2]; }
  int64_t output_count() const { return p.batch * p.out_channels * p.out[0] * p.out[1] * p.out[2]; }
  size_t output_bytes() const { return static_cast<size_t>(output_count()) * TypeBytes(out_type); }
  void Run(Kernel kernel, void* output) const {
    if constexpr (std::is_same_v<Kernel, QuantizedConvKernel>) {
      ConvResidual r;
      kernel(p, q, in_type, input.data(), weights.data(), bias.empty() ? nullptr : bias.data(), out_type, output,
             WorkRange{}, residual_arg(&r));
    } else {
      kernel(p, q, in_type, input.data(), weights.data(), bias.empty() ? nullptr : bias.data(), out_type, output,
             WorkRange{});
    }
  }
};

using ConvCase = WeightedOpCase<ConvParams, QuantizedConvKernel>;

// A 2-D (or, with h == 1 and kh == 1, 1-D) convolution; the output size follows from the rest.
struct ConvShape {
  int64_t batch = 1, c = 1, m = 1, groups = 1, h = 1, w = 1, kh = 1, kw = 1;
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

inline bool MakeConvCase(std::mt19937* rng, const ConvShape& s, DataType in, DataType out, FusedActivation act,
                         ConvCase* c) {
  const int64_t eh = (s.kh - 1) * s.dilation_h + 1, ew = (s.kw - 1) * s.dilation_w + 1;
  if (s.h + s.pad_top + s.pad_bottom < eh || s.w + s.pad_left + s.pad_right < ew) return false;
  ConvParams& p = c->p;
  p.batch = s.batch, p.in_channels = s.c, p.out_channels = s.m, p.groups = s.groups;
  p.in[1] = s.h, p.in[2] = s.w;
  p.kernel[1] = s.kh, p.kernel[2] = s.kw;
  p.stride[1] = s.stride_h, p.stride[2] = s.stride_w;
  p.dilation[1] = s.dilation_h, p.dilation[2] = s.dilation_w;
  p.pad_begin[1] = s.pad_top, p.pad_begin[2] = s.pad_left;
  p.out[1] = (s.h + s.pad_top + s.pad_bottom - eh) / s.stride_h + 1;
  p.out[2] = (s.w + s.pad_left + s.pad_right - ew) / s.stride_w + 1;
  p.activation.kind = act;
  if (act == FusedActivation::kClip) p.activation.a = -20.0f, p.activation.b = 60.0f;
  c->in_type = in, c->out_type = out;
  c->q.input_zero_point = RandomZeroPoint(rng, in);
  c->q.output_min = TypeMin(out), c->q.output_max = TypeMax(out);
  const int64_t taps = s.c / s.groups * s.kh * s.kw;
  SpreadOutputScales(rng, s.m, taps, in, out, &c->q.output_scale, &c->q.output_zero_point, &c->q.acc_scale);
  c->input = RandomActivationBytes(rng, in, c->input_count());
  c->weights = RandomWeightCodes(rng, s.m * taps);
  if (std::uniform_int_distribution<int>(0, 3)(*rng) != 0) {
    std::uniform_int_distribution<int32_t> bias(-(1 << 16), 1 << 16);
    c->bias.resize(static_cast<size_t>(s.m));
    for (int32_t& b : c->bias) b = bias(*rng);
  }
  char name[256];
  std::snprintf(name, sizeof(name),
                "conv n%lld c%lld m%lld g%lld %lldx%lld k%lldx%lld s%lldx%lld d%lldx%lld pad %lld,%lld,%lld,%lld %s->%s "
                "zp %d act %d",
                (long long)s.batch, (long long)s.c, (long long)s.m, (long long)s.groups, (long long)s.h,
                (long long)s.w, (long long)s.kh, (long long)s.kw, (long long)s.stride_h, (long long)s.stride_w,
                (long long)s.dilation_h, (long long)s.dilation_w, (long long)s.pad_top, (long long)s.pad_left,
                (long long)s.pad_bottom, (long long)s.pad_right, DataTypeName(in), DataTypeName(out),
                c->q.input_zero_point, static_cast<int>(act));
  c->name = name;
  return true;
}

// The edge shapes, each in int8 and with int16 input or output, then `random_count` random shapes.
inline std::vector<ConvCase> ConvCases(uint32_t seed, int random_count) {
  std::mt19937 rng(seed);
  std::vector<ConvShape> shapes;
  for (int64_t w : {1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65}) {  // pointwise rows around vector widths
    shapes.push_back({1, 8, 5, 1, 2, w, 1, 1});
  }
  shapes.push_back({1, 19, 21, 1, 3, 9, 1, 1});                          // odd channel counts
  shapes.push_back({1, 16, 16, 16, 9, 17, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1});  // depthwise 3x3, same pads
  shapes.push_back({1, 24, 24, 24, 10, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1});  // depthwise stride 2
  shapes.push_back({1, 8, 16, 8, 7, 7, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2});      // depthwise, multiplier 2, 5x5
  shapes.push_back({1, 12, 9, 3, 8, 13, 3, 3, 1, 2, 1, 1, 0, 1, 2, 0});     // groups, asymmetric pads
  shapes.push_back({1, 6, 7, 1, 12, 12, 3, 3, 1, 1, 2, 3, 2, 3, 2, 3});     // dilations
  shapes.push_back({1, 3, 16, 1, 33, 35, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0});    // a stem: RGB in, stride 2
  shapes.push_back({2, 5, 6, 1, 6, 6, 2, 3, 3, 1, 1, 1, 0, 0, 1, 1});       // batch 2, stride > kernel
  shapes.push_back({1, 7, 4, 1, 1, 40, 1, 5, 1, 3, 1, 2, 0, 4, 0, 4});      // 1-D
  std::vector<ConvCase> cases;
  const DataType mixes[][2] = {{DataType::kInt8, DataType::kInt8},
                               {DataType::kInt16, DataType::kInt8},
                               {DataType::kInt8, DataType::kInt16}};
  const FusedActivation acts[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kHardSwish,
                                  FusedActivation::kClip};
  size_t i = 0;
  for (const ConvShape& s : shapes) {
    for (const auto& mix : mixes) {
      ConvCase c;
      if (MakeConvCase(&rng, s, mix[0], mix[1], acts[i++ % std::size(acts)], &c)) cases.push_back(std::move(c));
    }
  }
  std::uniform_int_distribution<int> small(1, 4), big(1, 24), kern(1, 5), pad(0, 2), pick(0, 9);
  while (random_count > 0) {
    ConvShape s;
    s.groups = pick(rng) < 3 ? small(rng) : 1;
    const bool depthwise = pick(rng) < 3;
    s.c = depthwise ? big(rng) : s.groups * small(rng) * (pick(rng) < 5 ? 1 : 4);
    if (depthwise) s.groups = s.c;
    s.m = s.groups * (depthwise ? small(rng) % 2 + 1 : small(rng) * (pick(rng) < 5 ? 1 : 3));
    s.batch = pick(rng) == 0 ? 2 : 1;
    s.h = big(rng), s.w = big(rng) + pick(rng) * 7;
    s.kh = kern(rng), s.kw = kern(rng);
    s.stride_h = small(rng) % 3 + 1, s.stride_w = small(rng) % 3 + 1;
    s.dilation_h = pick(rng) < 2 ? 2 : 1, s.dilation_w = pick(rng) < 2 ? 2 : 1;
    s.pad_top = pad(rng), s.pad_left = pad(rng), s.pad_bottom = pad(rng), s.pad_right = pad(rng);
    const auto& mix = mixes[static_cast<size_t>(pick(rng)) % std::size(mixes)];
    ConvCase c;
    if (!MakeConvCase(&rng, s, mix[0], mix[1], acts[static_cast<size_t>(pick(rng)) % std::size(acts)], &c)) continue;
    cases.push_back(std::move(c));
    --random_count;
  }
  // Strided pointwise (ResNet's downsample) and later additions: after the random cases, which stay what
  // they were.
  const ConvShape later_shapes[] = {{1, 16, 24, 1, 9, 11, 1, 1, 2, 2},  // odd sizes: the last row and column unread
                                         {2, 8, 8, 1, 7, 10, 1, 1, 3, 2},    // batch 2, different strides
                                         {1, 5, 4, 1, 1, 9, 1, 1, 1, 2},     // one row
                                         // 49 pixels: a last tile of one row (MR 4 or 8), also at stride 2
                                         {1, 20, 40, 1, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
                                         {1, 9, 36, 1, 13, 13, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
                                         // one input channel per group, two outputs each, padding, a stride
                                         // above the kernel, a dilation: oneDNN's s32 sums got it wrong
                                         {1, 4, 8, 4, 13, 33, 2, 4, 3, 3, 2, 1, 0, 1, 0, 0}};
  for (const ConvShape& s : later_shapes) {
    for (const auto& mix : mixes) {
      ConvCase c;
      if (MakeConvCase(&rng, s, mix[0], mix[1], acts[i++ % std::size(acts)], &c)) cases.push_back(std::move(c));
    }
  }
  return cases;
}

// Gives two thirds of `cases` an affine after their activation (runtime/kernels/ref/fused_activation.h): one
// scale and shift for every channel, or one per channel; scales of either sign from 0.5 to 2, shifts of up to
// 40 output steps. The cases' params point into `storage`: keep it while they run.
inline void AttachOutputAffines(uint32_t seed, std::vector<ConvCase>* cases, std::vector<std::vector<float>>* storage) {
  std::mt19937 rng(seed);
  storage->clear();
  storage->reserve(cases->size());
  std::uniform_int_distribution<int> pick(0, 2);
  std::uniform_real_distribution<float> magnitude(0.5f, 2.0f), steps(-40.0f, 40.0f);
  for (ConvCase& c : *cases) {
    const int kind = pick(rng);
    if (kind == 0) continue;
    const size_t m = static_cast<size_t>(c.p.out_channels);
    std::vector<float>& v = storage->emplace_back(2 * m);
    for (size_t k = 0; k < m; ++k) {
      const bool same = kind == 1 && k > 0;
      v[k] = same ? v[0] : magnitude(rng) * (pick(rng) == 0 ? -1.0f : 1.0f);
      v[m + k] = same ? v[m] : steps(rng) * c.q.output_scale;
    }
    c.p.activation.scale = v.data();
    c.p.activation.shift = v.data() + m;
    c.name += kind == 1 ? " affine" : " affine per channel";
  }
}

// Gives a third of `cases` a residual (a Conv's fused Add): int8 or int16 codes over the type's range, a
// zero point within +-20 and a scale making it span about 1 to 4 times the output's range.
inline void AttachResiduals(uint32_t seed, std::vector<ConvCase>* cases) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 2), zero_point(-20, 20);
  std::uniform_real_distribution<float> spread(0.5f, 2.0f);
  for (ConvCase& c : *cases) {
    if (pick(rng) != 0) continue;
    const DataType type = pick(rng) == 0 ? DataType::kInt16 : DataType::kInt8;
    c.residual = RandomActivationBytes(&rng, type, c.output_count());
    c.residual_quant.type = type;
    c.residual_quant.zero_point = zero_point(rng);
    const float out_range = c.q.output_scale * static_cast<float>(TypeMax(c.out_type) - TypeMin(c.out_type));
    c.residual_quant.scale = out_range * spread(rng) / static_cast<float>(TypeMax(type) - TypeMin(type));
    c.name += type == DataType::kInt16 ? " residual16" : " residual8";
  }
}

inline KernelDiff CompareQuantizedConv(QuantizedConvKernel candidate, const std::vector<ConvCase>& cases) {
  return CompareQuantizedCases(cases, &quantized_conv__ref, candidate);
}

// The float kernel on the same shapes: inputs and weights are the cases' codes scaled to real values.
inline KernelDiff CompareFloatConv(FloatConvKernel candidate, const std::vector<ConvCase>& cases) {
  KernelDiff d;
  for (const ConvCase& c : cases) {
    std::vector<float> x(static_cast<size_t>(c.input_count())), w(c.weights.size()), b(c.bias.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = 0.01f * static_cast<float>(CodeAt(c.input, c.in_type, i));
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.02f * c.weights[i];
    for (size_t i = 0; i < b.size(); ++i) b[i] = 1e-4f * static_cast<float>(c.bias[i]);
    // A residual's real values, at the scale of the outputs.
    std::vector<float> r(c.residual.empty() ? 0 : static_cast<size_t>(c.output_count()));
    for (size_t i = 0; i < r.size(); ++i) {
      r[i] = 0.01f * static_cast<float>(CodeAt(c.residual, c.residual_quant.type, i) % 128);
    }
    ConvResidual residual;
    residual.data = r.data();
    const ConvResidual* rp = r.empty() ? nullptr : &residual;
    std::vector<float> want(static_cast<size_t>(c.output_count()), 7.0f), got(want.size(), -7.0f);
    f32_conv__ref(c.p, x.data(), w.data(), b.empty() ? nullptr : b.data(), want.data(), WorkRange{}, rp);
    candidate(c.p, x.data(), w.data(), b.empty() ? nullptr : b.data(), got.data(), WorkRange{}, rp);
    CompareFloats(c.name, want, got, &d);
  }
  return d;
}

// ---- transposed convolution ----

using ConvTransposeCase = WeightedOpCase<ConvTransposeParams, QuantizedConvTransposeKernel>;

inline std::vector<ConvTransposeCase> ConvTransposeCases(uint32_t seed, int random_count) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(1, 4), size(1, 13), kern(1, 4), pick(0, 9);
  const DataType mixes[][2] = {{DataType::kInt8, DataType::kInt8},
                               {DataType::kInt16, DataType::kInt8},
                               {DataType::kInt8, DataType::kInt16},
                               {DataType::kInt16, DataType::kInt16}};
  std::vector<ConvTransposeCase> cases;
  for (int i = 0; i < random_count + 4; ++i) {
    ConvTransposeCase c;
    ConvTransposeParams& p = c.p;
    // The first four: the PP-OCR det head's 2x2 stride-2 upsampling in every type mix.
    const bool head = i < 4;
    p.groups = head ? 1 : pick(rng) < 3 ? small(rng) : 1;
    p.in_channels = head ? 24 : p.groups * small(rng);
    p.out_channels = head ? 24 : p.groups * small(rng);
    p.in[1] = head ? 5 : size(rng), p.in[2] = head ? 19 : size(rng);
    p.kernel[1] = head ? 2 : kern(rng), p.kernel[2] = head ? 2 : kern(rng);
    p.stride[1] = head ? 2 : small(rng), p.stride[2] = head ? 2 : small(rng);
    p.dilation[1] = !head && pick(rng) < 2 ? 2 : 1;
    p.pad_begin[1] = head ? 0 : std::uniform_int_distribution<int64_t>(0, p.kernel[1] - 1)(rng);
    p.pad_begin[2] = head ? 0 : std::uniform_int_distribution<int64_t>(0, p.kernel[2] - 1)(rng);
    for (int a = 1; a < 3; ++a) {
      const int64_t full = (p.in[a] - 1) * p.stride[a] + (p.kernel[a] - 1) * p.dilation[a] + 1;
      p.out[a] = std::max<int64_t>(1, full - 2 * p.pad_begin[a]);
    }
    const auto& mix = mixes[head ? static_cast<size_t>(i) : static_cast<size_t>(pick(rng)) % std::size(mixes)];
    c.in_type = mix[0], c.out_type = mix[1];
    c.q.input_zero_point = RandomZeroPoint(&rng, c.in_type);
    c.q.output_min = TypeMin(c.out_type), c.q.output_max = TypeMax(c.out_type);
    const int64_t taps = p.in_channels / p.groups * p.kernel[1] * p.kernel[2];
    SpreadOutputScales(&rng, p.out_channels, taps, c.in_type, c.out_type, &c.q.output_scale, &c.q.output_zero_point,
                       &c.q.acc_scale);
    c.input = RandomActivationBytes(&rng, c.in_type, p.batch * p.in_channels * p.in[1] * p.in[2]);
    c.weights = RandomWeightCodes(&rng, p.in_channels * (p.out_channels / p.groups) * p.kernel[1] * p.kernel[2]);
    if (pick(rng) < 7) {
      c.bias.resize(static_cast<size_t>(p.out_channels));
      for (int32_t& b : c.bias) b = std::uniform_int_distribution<int32_t>(-(1 << 16), 1 << 16)(rng);
    }
    // A fused activation on half the cases (PP-OCR det's head: Relu).
    const int act = pick(rng);
    p.activation.kind = act < 3 ? FusedActivation::kRelu : act < 5 ? FusedActivation::kLeakyRelu : FusedActivation::kNone;
    p.activation.a = 0.25f;
    char name[160];
    std::snprintf(name, sizeof(name),
                  "conv_transpose c%lld m%lld g%lld %lldx%lld k%lldx%lld s%lldx%lld %s->%s zp %d act %d",
                  (long long)p.in_channels, (long long)p.out_channels, (long long)p.groups, (long long)p.in[1],
                  (long long)p.in[2], (long long)p.kernel[1], (long long)p.kernel[2], (long long)p.stride[1],
                  (long long)p.stride[2], DataTypeName(c.in_type), DataTypeName(c.out_type), c.q.input_zero_point,
                  static_cast<int>(p.activation.kind));
    c.name = name;
    cases.push_back(std::move(c));
  }
  return cases;
}

inline KernelDiff CompareQuantizedConvTranspose(QuantizedConvTransposeKernel candidate,
                                                const std::vector<ConvTransposeCase>& cases) {
  return CompareQuantizedCases(cases, &quantized_conv_transpose__ref, candidate);
}

// ---- Gemm (fully connected: B a constant int8 weight) ----

struct GemmCase {
  std::string name;
  GemmParams p;
  GemmQuantParams q;
  DataType a_type = DataType::kInt8;
  DataType out_type = DataType::kInt8;
  std::vector<uint8_t> a;
  std::vector<int8_t> b;
  std::vector<int32_t> bias;

  size_t output_bytes() const { return static_cast<size_t>(p.m * p.n) * TypeBytes(out_type); }
  void Run(QuantizedGemmKernel kernel, void* y) const {
    kernel(p, q, a_type, a.data(), b.data(), bias.empty() ? nullptr : bias.data(), out_type, y, WorkRange{});
  }
};

inline std::vector<GemmCase> GemmCases(uint32_t seed, int random_count) {
  std::mt19937 rng(seed);
  std::vector<int64_t> sizes = {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
  std::uniform_int_distribution<size_t> size(0, sizes.size() - 1);
  std::uniform_int_distribution<int> pick(0, 9);
  std::vector<GemmCase> cases;
  for (int i = 0; i < random_count + static_cast<int>(sizes.size()); ++i) {
    GemmCase c;
    const bool edge = i < static_cast<int>(sizes.size());  // K over the edge sizes, M and N small
    c.p.m = edge ? 3 : sizes[size(rng)];
    c.p.n = edge ? 5 : sizes[size(rng)];
    c.p.k = edge ? sizes[static_cast<size_t>(i)] : sizes[size(rng)];
    c.p.trans_a = pick(rng) < 3, c.p.trans_b = pick(rng) < 5;
    c.a_type = pick(rng) < 3 ? DataType::kInt16 : DataType::kInt8;
    c.out_type = pick(rng) < 3 ? DataType::kInt16 : DataType::kInt8;
    const FusedActivation acts[] = {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kHardSwish};
    c.p.activation.kind = acts[static_cast<size_t>(pick(rng)) % 3];
    c.q.a_zero_point = RandomZeroPoint(&rng, c.a_type);
    c.q.output_min = TypeMin(c.out_type), c.q.output_max = TypeMax(c.out_type);
    SpreadOutputScales(&rng, c.p.n, c.p.k, c.a_type, c.out_type, &c.q.output_scale, &c.q.output_zero_point,
                       &c.q.acc_scale);
    c.a = RandomActivationBytes(&rng, c.a_type, c.p.m * c.p.k);
    c.b = RandomWeightCodes(&rng, c.p.k * c.p.n);
    if (pick(rng) < 7) {
      c.bias.resize(static_cast<size_t>(c.p.n));
      for (int32_t& b : c.bias) b = std::uniform_int_distribution<int32_t>(-(1 << 16), 1 << 16)(rng);
    }
    char name[128];
    std::snprintf(name, sizeof(name), "gemm m%lld n%lld k%lld ta%d tb%d %s->%s zp %d", (long long)c.p.m,
                  (long long)c.p.n, (long long)c.p.k, c.p.trans_a ? 1 : 0, c.p.trans_b ? 1 : 0,
                  DataTypeName(c.a_type), DataTypeName(c.out_type), c.q.a_zero_point);
    c.name = name;
    cases.push_back(std::move(c));
  }
  return cases;
}

inline KernelDiff CompareQuantizedGemm(QuantizedGemmKernel candidate, const std::vector<GemmCase>& cases) {
  return CompareQuantizedCases(cases, &quantized_gemm__ref, candidate);
}

}  // namespace testing
}  // namespace npurt
