// compiler/quant/range_estimator: activation and weight parameters computed by
// hand, and the range estimators on histograms whose answer is known.
#include <gtest/gtest.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "compiler/quant/range_estimator.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace compiler {
namespace {

// ---- algorithm names ----

TEST(QuantAlgorithm, ParsesRknnToolkitNames) {
  QuantAlgorithm a;
  ASSERT_TRUE(ParseQuantAlgorithm("normal", &a).ok());
  EXPECT_EQ(a, QuantAlgorithm::kNormal);
  ASSERT_TRUE(ParseQuantAlgorithm("mmse", &a).ok());
  EXPECT_EQ(a, QuantAlgorithm::kMmse);
  ASSERT_TRUE(ParseQuantAlgorithm("kl_divergence", &a).ok());
  EXPECT_EQ(a, QuantAlgorithm::kKlDivergence);
  EXPECT_STREQ(QuantAlgorithmName(QuantAlgorithm::kKlDivergence), "kl_divergence");
  Status s = ParseQuantAlgorithm("minmax", &a);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_EQ(s.message(), "unknown quantized algorithm 'minmax' (known: normal, mmse, kl_divergence)");
}

// ---- activation parameters ----

void ExpectActivation(float min, float max, float scale, int32_t zero_point) {
  const QuantInfo q = ActivationQuantInfo(min, max);
  ASSERT_EQ(q.scale.size(), 1u);
  ASSERT_EQ(q.zero_point.size(), 1u);
  EXPECT_EQ(q.axis, -1);
  EXPECT_TRUE(q.per_tensor());
  EXPECT_EQ(q.scale[0], scale) << "[" << min << ", " << max << "]";
  EXPECT_EQ(q.zero_point[0], zero_point) << "[" << min << ", " << max << "]";
  // Real 0 is exactly representable.
  const int32_t q0 = QuantizeValue(0.0f, q.scale[0], q.zero_point[0], -128, 127);
  EXPECT_EQ(DequantizeValue(q0, q.scale[0], q.zero_point[0]), 0.0f);
}

TEST(ActivationQuantInfo, HandComputed) {
  // scale = (max - min) / 255, zero_point = round(-128 - min / scale).
  ExpectActivation(-100.0f, 155.0f, 1.0f, -28);
  ExpectActivation(-1.0f, 254.0f, 1.0f, -127);
  ExpectActivation(-255.0f, 0.0f, 1.0f, 127);
  ExpectActivation(-51.0f, 459.0f, 2.0f, -102);  // -128 + 25.5 = -102.5 -> -102 (half to even)
  ExpectActivation(-2.5f, 252.5f, 1.0f, -126);    // -125.5 -> -126 (half to even)
  ExpectActivation(-1.0f, 1.0f, 2.0f / 255.0f, RoundHalfToEven(-128.0f + 1.0f / (2.0f / 255.0f)));
}

TEST(ActivationQuantInfo, RangeWithoutZeroIsExtendedToZero) {
  // [0.5, 2.55] -> [0, 2.55]: the zero point is the lowest code.
  ExpectActivation(0.5f, 2.55f, 2.55f / 255.0f, -128);
  ExpectActivation(100.0f, 355.0f, 355.0f / 255.0f, -128);
  // [-5.1, -1] -> [-5.1, 0]: the zero point is the highest code.
  ExpectActivation(-510.0f, -1.0f, 2.0f, 127);
  ExpectActivation(-5.1f, -1.0f, 5.1f / 255.0f, 127);
}

TEST(ActivationQuantInfo, DegenerateAndNonFiniteRanges) {
  ExpectActivation(0.0f, 0.0f, 1.0f, -128);
  ExpectActivation(std::nanf(""), 1.0f, 1.0f, -128);
  ExpectActivation(-std::numeric_limits<float>::infinity(), 1.0f, 1.0f, -128);
  // A constant tensor is not degenerate once 0 is included.
  ExpectActivation(3.0f, 3.0f, 3.0f / 255.0f, -128);
  // No denormal scale; no infinite one.
  ExpectActivation(0.0f, 1e-40f, FLT_MIN, -128);
  const QuantInfo wide = ActivationQuantInfo(-FLT_MAX, FLT_MAX);
  EXPECT_TRUE(std::isfinite(wide.scale[0]));
  EXPECT_NEAR(wide.scale[0], 2.0 * FLT_MAX / 255.0, 1e-6 * FLT_MAX / 255.0);
}

// ---- weights ----

TEST(QuantizeWeights, PerChannelWithAZeroChannel) {
  // [3, 2]: channel 0 max 127 -> scale 1; channel 1 all zero -> scale 1; channel 2 max 254 -> scale 2.
  const std::vector<float> w = {127.0f, -63.5f, 0.0f, 0.0f, -254.0f, 3.0f};
  std::vector<int8_t> codes;
  const QuantInfo q = QuantizeWeights(w.data(), {3, 2}, 0, &codes);
  EXPECT_EQ(q.axis, 0);
  EXPECT_EQ(q.scale, (std::vector<float>{1.0f, 1.0f, 2.0f}));
  EXPECT_EQ(q.zero_point, (std::vector<int32_t>{0, 0, 0}));
  // -63.5 -> -64 and 1.5 -> 2: half to even.
  EXPECT_EQ(codes, (std::vector<int8_t>{127, -64, 0, 0, -127, 2}));
}

TEST(QuantizeWeights, PerTensor) {
  const std::vector<float> w = {127.0f, -63.5f, 0.0f, 0.0f, -254.0f, 3.0f};
  std::vector<int8_t> codes;
  const QuantInfo q = QuantizeWeights(w.data(), {3, 2}, -1, &codes);
  EXPECT_EQ(q.axis, -1);
  EXPECT_TRUE(q.per_tensor());
  EXPECT_EQ(q.scale, (std::vector<float>{2.0f}));
  EXPECT_EQ(q.zero_point, (std::vector<int32_t>{0}));
  // 63.5 -> 64, -31.75 -> -32, 1.5 -> 2.
  EXPECT_EQ(codes, (std::vector<int8_t>{64, -32, 0, 0, -127, 2}));
}

TEST(QuantizeWeights, InnerAxis) {
  // [2, 3] along axis 1 (Gemm with transB = 0: the output channel is the last axis).
  const std::vector<float> w = {1.0f, -8.0f, 0.0f, -0.5f, 4.0f, 0.0f};
  std::vector<int8_t> codes;
  const QuantInfo q = QuantizeWeights(w.data(), {2, 3}, 1, &codes);
  EXPECT_EQ(q.axis, 1);
  EXPECT_EQ(q.scale, (std::vector<float>{1.0f / 127.0f, 8.0f / 127.0f, 1.0f}));
  EXPECT_EQ(codes, (std::vector<int8_t>{127, -127, 0, -64, 64, 0}));  // -63.5 -> -64, 63.5 -> 64
}

TEST(QuantizeWeights, ConvLayoutTinyAndBadAxis) {
  // [2, 1, 1, 2] (OIHW): channel 1 is tiny: its scale is floored at FLT_MIN, not denormal.
  const std::vector<float> w = {0.5f, -0.25f, 1e-40f, -1e-40f};
  std::vector<int8_t> codes;
  QuantInfo q = QuantizeWeights(w.data(), {2, 1, 1, 2}, 0, &codes);
  ASSERT_EQ(q.scale.size(), 2u);
  EXPECT_EQ(q.scale[0], 0.5f / 127.0f);
  EXPECT_EQ(q.scale[1], FLT_MIN);
  EXPECT_EQ(codes, (std::vector<int8_t>{127, -64, 0, 0}));  // -63.5 -> -64
  q = QuantizeWeights(w.data(), {2, 1, 1, 2}, 4, &codes);
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(codes.empty());
}

// ---- ranges ----

// A histogram of kHistogramBins bins over [lo, hi] filled by `mass(a, b)` per bin.
template <typename Mass>
TensorStats MakeStats(float lo, float hi, Mass mass) {
  TensorStats s;
  s.min = s.hist_min = lo;
  s.max = s.hist_max = hi;
  s.histogram.resize(kHistogramBins);
  const double w = (static_cast<double>(hi) - lo) / kHistogramBins;
  for (int k = 0; k < kHistogramBins; ++k) {
    s.histogram[k] = static_cast<uint64_t>(std::llround(mass(lo + k * w, lo + (k + 1) * w)));
    s.count += s.histogram[k];
  }
  return s;
}

double NormalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// N(mean, sigma) with `n` values, plus `outliers_*` values in the first and in the last bin.
TensorStats GaussianWithOutliers(float lo, float hi, double mean, double sigma, uint64_t outliers_low,
                                 uint64_t outliers_high, double n = 1e6) {
  TensorStats s = MakeStats(lo, hi, [&](double a, double b) {
    return n * (NormalCdf((b - mean) / sigma) - NormalCdf((a - mean) / sigma));
  });
  s.histogram.front() += outliers_low;
  s.histogram.back() += outliers_high;
  s.count += outliers_low + outliers_high;
  return s;
}

// Fraction of the histogram's values inside [lo, hi] (whole bins, rounded outwards).
double MassInside(const TensorStats& s, float lo, float hi) {
  const double w = (static_cast<double>(s.hist_max) - s.hist_min) / s.histogram.size();
  uint64_t inside = 0, total = 0;
  for (size_t k = 0; k < s.histogram.size(); ++k) {
    const double a = s.hist_min + k * w, b = a + w;
    total += s.histogram[k];
    if (b > lo && a < hi) inside += s.histogram[k];
  }
  return static_cast<double>(inside) / total;
}

struct Chosen {
  float lo, hi;
  double ms;
};

Chosen Choose(const TensorStats& s, QuantAlgorithm algorithm) {
  Chosen c{0, 0, 0};
  const auto t0 = std::chrono::steady_clock::now();
  Status st = ChooseRange(s, algorithm, &c.lo, &c.hi);
  c.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(st.ok()) << st.message();
  std::printf("  %-13s [%g, %g]  %.2f ms  mse %.4g\n", QuantAlgorithmName(algorithm), c.lo, c.hi, c.ms,
              ExpectedQuantizationMse(s, c.lo, c.hi));
  return c;
}

TEST(ChooseRange, NormalIsMinMax) {
  TensorStats s = GaussianWithOutliers(-40.0f, 40.0f, 0.0, 1.0, 1, 1);
  s.min = -40.0f;
  s.max = 40.0f;
  float lo = 0, hi = 0;
  ASSERT_TRUE(ChooseRange(s, QuantAlgorithm::kNormal, &lo, &hi).ok());
  EXPECT_EQ(lo, -40.0f);
  EXPECT_EQ(hi, 40.0f);
  // Without a histogram too.
  TensorStats plain;
  plain.min = -1.5f;
  plain.max = 7.25f;
  plain.count = 10;
  ASSERT_TRUE(ChooseRange(plain, QuantAlgorithm::kNormal, &lo, &hi).ok());
  EXPECT_EQ(lo, -1.5f);
  EXPECT_EQ(hi, 7.25f);
}

TEST(ChooseRange, Errors) {
  float lo, hi;
  Status s = ChooseRange(TensorStats(), QuantAlgorithm::kNormal, &lo, &hi);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_NE(s.message().find("no finite value"), std::string::npos) << s.message();
  TensorStats no_histogram;
  no_histogram.min = -1.0f;
  no_histogram.max = 1.0f;
  no_histogram.count = 4;
  s = ChooseRange(no_histogram, QuantAlgorithm::kMmse, &lo, &hi);
  EXPECT_EQ(s.message(), "mmse needs a histogram (calibration with histograms on)");
  s = ChooseRange(no_histogram, QuantAlgorithm::kKlDivergence, &lo, &hi);
  EXPECT_EQ(s.message(), "kl_divergence needs a histogram (calibration with histograms on)");
}

TEST(ChooseRange, ConstantTensorKeepsItsValue) {
  TensorStats s;
  s.min = s.max = s.hist_min = s.hist_max = 2.5f;
  s.count = 100;
  s.histogram.assign(kHistogramBins, 0);
  s.histogram[0] = 100;
  for (QuantAlgorithm a : {QuantAlgorithm::kNormal, QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    float lo = 0, hi = 0;
    ASSERT_TRUE(ChooseRange(s, a, &lo, &hi).ok());
    EXPECT_EQ(lo, 2.5f);
    EXPECT_EQ(hi, 2.5f);
  }
}

TEST(ChooseRange, GaussianWithFarOutliersIsClipped) {
  // N(0, 1), 1e6 values, and one value at each end of [-40, 40].
  const TensorStats s = GaussianWithOutliers(-40.0f, 40.0f, 0.0, 1.0, 1, 1);
  const double normal_mse = ExpectedQuantizationMse(s, -40.0f, 40.0f);
  std::printf("  normal        [-40, 40]  mse %.4g\n", normal_mse);
  for (QuantAlgorithm a : {QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    const Chosen c = Choose(s, a);
    EXPECT_GT(c.lo, -20.0f) << QuantAlgorithmName(a);
    EXPECT_LT(c.hi, 20.0f) << QuantAlgorithmName(a);
    EXPECT_LT(c.lo, -3.5f) << QuantAlgorithmName(a);
    EXPECT_GT(c.hi, 3.5f) << QuantAlgorithmName(a);
    EXPECT_GE(MassInside(s, c.lo, c.hi), 0.999) << QuantAlgorithmName(a);
    EXPECT_LT(ExpectedQuantizationMse(s, c.lo, c.hi), normal_mse) << QuantAlgorithmName(a);
    EXPECT_LT(c.ms, 2000.0) << QuantAlgorithmName(a);  // a loose bound: catches an accidental O(B^3) search
  }
}

TEST(ChooseRange, MmseIsALocalMinimumOfTheMse) {
  const TensorStats s = GaussianWithOutliers(-40.0f, 40.0f, 0.0, 1.0, 1, 1);
  const Chosen c = Choose(s, QuantAlgorithm::kMmse);
  const double best = ExpectedQuantizationMse(s, c.lo, c.hi);
  // The neighbouring bin edges, computed as the estimator computes them.
  const double w = 80.0 / kHistogramBins;
  const long lo_edge = std::lround((c.lo + 40.0) / w), hi_edge = std::lround((c.hi + 40.0) / w);
  auto edge = [&](long k) { return static_cast<float>(-40.0 + w * k); };
  for (int d : {-3, -1, 1, 3}) {
    EXPECT_LE(best, ExpectedQuantizationMse(s, c.lo, edge(hi_edge + d))) << d;
    EXPECT_LE(best, ExpectedQuantizationMse(s, edge(lo_edge + d), c.hi)) << d;
  }
}

// mmse trades the clipping error of the outliers against the rounding error
// of everything else: with 2 values at 30 sigma among 1e6 it keeps about 40
// % of the range (2 (60 - hi)^2 against 0.7e6 (hi / 255)^2 / 12), among 1e7
// it clips them; kl_divergence clips at the edge of the bulk either way.
TEST(ChooseRange, OneSidedTensorClipsOnlyItsTop) {
  // A ReLU output: 30 % zeros, the rest |N(0, 2)|, and two values at 60.
  TensorStats s = MakeStats(0.0f, 60.0f, [](double a, double b) {
    return 1.4e7 * (NormalCdf(b / 2.0) - NormalCdf(a / 2.0));
  });
  s.histogram.front() += 3000000;
  s.histogram.back() += 2;
  s.count += 3000002;
  for (QuantAlgorithm a : {QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    const Chosen c = Choose(s, a);
    EXPECT_EQ(c.lo, 0.0f) << QuantAlgorithmName(a);
    EXPECT_LT(c.hi, 20.0f) << QuantAlgorithmName(a);
    EXPECT_GE(MassInside(s, c.lo, c.hi), 0.999) << QuantAlgorithmName(a);
  }
}

TEST(ChooseRange, KlIgnoresASpikeOfExactZeros) {
  // A ReLU output without outliers: 60 % exact zeros, the rest |N(0, 1)| up to 5 sigma.
  TensorStats s = MakeStats(0.0f, 5.0f, [](double a, double b) { return 0.8e6 * (NormalCdf(b) - NormalCdf(a)); });
  s.histogram.front() += 600000;
  s.count += 600000;
  const Chosen c = Choose(s, QuantAlgorithm::kKlDivergence);
  EXPECT_EQ(c.lo, 0.0f);
  EXPECT_GT(c.hi, 3.0f);
  EXPECT_GE(MassInside(s, c.lo, c.hi), 0.999);
}

TEST(ChooseRange, TwoValuedTensorKeepsBothValues) {
  // A saturated HardSigmoid: only 0 and 1. Every algorithm keeps [0, 1]; mmse
  // to within a bin (it sees the values spread over their bins).
  TensorStats s;
  s.min = s.hist_min = 0.0f;
  s.max = s.hist_max = 1.0f;
  s.histogram.assign(kHistogramBins, 0);
  s.histogram.front() = 89;
  s.histogram.back() = 55;
  s.count = 144;
  for (QuantAlgorithm a : {QuantAlgorithm::kNormal, QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    const Chosen c = Choose(s, a);
    EXPECT_EQ(c.lo, 0.0f) << QuantAlgorithmName(a);
    if (a == QuantAlgorithm::kMmse) {
      EXPECT_GE(c.hi, 1.0f - 1.0f / kHistogramBins);
    } else {
      EXPECT_EQ(c.hi, 1.0f) << QuantAlgorithmName(a);
    }
  }
}

TEST(ChooseRange, AsymmetricOutliersClipEachEndOnItsOwn) {
  // N(5, 1) with two outliers at the top of [-2, 100] only.
  const TensorStats s = GaussianWithOutliers(-2.0f, 100.0f, 5.0, 1.0, 0, 2, 1e7);
  for (QuantAlgorithm a : {QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    const Chosen c = Choose(s, a);
    EXPECT_LT(c.hi, 30.0f) << QuantAlgorithmName(a);
    EXPECT_GT(c.hi, 8.0f) << QuantAlgorithmName(a);
    EXPECT_GE(MassInside(s, c.lo, c.hi), 0.999) << QuantAlgorithmName(a);
  }
}

TEST(ChooseRange, UniformKeepsNearlyTheFullRange) {
  const TensorStats s = MakeStats(-1.0f, 3.0f, [](double, double) { return 500.0; });
  for (QuantAlgorithm a : {QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    const Chosen c = Choose(s, a);
    EXPECT_LE(c.lo, -0.98f) << QuantAlgorithmName(a);
    EXPECT_GE(c.hi, 2.96f) << QuantAlgorithmName(a);
  }
}

TEST(ChooseRange, Deterministic) {
  const TensorStats s = GaussianWithOutliers(-7.0f, 31.0f, 1.0, 2.0, 3, 5);
  for (QuantAlgorithm a : {QuantAlgorithm::kMmse, QuantAlgorithm::kKlDivergence}) {
    float lo1, hi1, lo2, hi2;
    ASSERT_TRUE(ChooseRange(s, a, &lo1, &hi1).ok());
    ASSERT_TRUE(ChooseRange(s, a, &lo2, &hi2).ok());
    EXPECT_EQ(lo1, lo2);
    EXPECT_EQ(hi1, hi2);
  }
}

// ---- the mmse objective ----

TEST(ExpectedQuantizationMse, UniformRoundingErrorIsStepSquaredOverTwelve) {
  // Values uniform over [0, 2.55] quantized on [0, 2.55]: step 0.01, error s^2 / 12 exactly.
  const TensorStats s = MakeStats(0.0f, 2.55f, [](double, double) { return 1000.0; });
  const double step = 2.55f / 255.0f;
  EXPECT_NEAR(ExpectedQuantizationMse(s, 0.0f, 2.55f), step * step / 12.0, 1e-6 * step * step);
}

TEST(ExpectedQuantizationMse, ClippingError) {
  // Every value in the last bin of [0, 10]; range [0, 5.1]: the error is the
  // mean of (x - 5.1)^2 over that bin (plus nothing else: 5.1 is on the grid).
  TensorStats s;
  s.min = s.hist_min = 0.0f;
  s.max = s.hist_max = 10.0f;
  s.histogram.assign(kHistogramBins, 0);
  s.histogram.back() = 7;
  s.count = 7;
  const double w = 10.0 / kHistogramBins, a = 10.0 - w, b = 10.0;
  const double qhi = 5.1f / 255.0f * 255.0;
  const double expected = (std::pow(b - qhi, 3) - std::pow(a - qhi, 3)) / (3.0 * w);
  EXPECT_NEAR(ExpectedQuantizationMse(s, 0.0f, 5.1f), expected, 1e-9 * expected);
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
