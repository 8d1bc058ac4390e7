#include "compiler/quant/range_estimator.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace compiler {
namespace {

constexpr int kMaxRounds = 16;        // coordinate-descent rounds (a bound; a few are usual)
constexpr size_t kCoarseStride = 32;  // candidates between the first ones a line search evaluates
constexpr size_t kRefine = 8;         // stride divisor at each refinement (32, 4, 1)
constexpr int kKlMinBins = 256;       // narrowest KL candidate, in bins
constexpr double kKlEpsilon = 1e-4;   // counts given to an empty level's clipped bins (TensorRT's smoothing)
// Costs closer than this (relative and absolute; costs are O(1) or more, see
// ChooseRange) are ties, which keep the current, wider range: rounding noise
// must not move the search.
constexpr double kTieTolerance = 1e-9;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct ActParams {
  float scale;
  int32_t zero_point;
};

ActParams ComputeActParams(float min, float max) {
  if (!std::isfinite(min) || !std::isfinite(max)) return {1.0f, -128};
  const float lo = std::min(min, 0.0f), hi = std::max(max, 0.0f);
  if (hi == lo) return {1.0f, -128};
  const float diff = hi - lo;
  float scale = std::isfinite(diff) ? diff / 255.0f
                                    : static_cast<float>(std::min((static_cast<double>(hi) - lo) / 255.0,
                                                                  static_cast<double>(FLT_MAX)));
  if (scale < FLT_MIN) scale = FLT_MIN;
  if (!std::isfinite(scale)) scale = FLT_MAX;
  const float zp = RoundHalfToEven(-128.0f - lo / scale);
  return {scale, static_cast<int32_t>(zp < -128.0f ? -128.0f : zp > 127.0f ? 127.0f : zp)};
}

// A histogram as the estimators read it.
class HistogramView {
 public:
  // `flatten_zero_spike`: the bin holding 0 keeps at most the mean count of its
  // neighbours (KL only, see the header).
  HistogramView(const TensorStats& s, bool flatten_zero_spike)
      : bins_(static_cast<int>(s.histogram.size())), min_(s.hist_min), max_(s.hist_max),
        width_(bins_ > 0 ? (static_cast<double>(s.hist_max) - s.hist_min) / bins_ : 0.0),
        counts_(s.histogram.begin(), s.histogram.end()) {
    if (flatten_zero_spike && bins_ >= 2 && min_ <= 0.0f && max_ >= 0.0f && width_ > 0) {
      const int z = std::min(bins_ - 1, static_cast<int>(-static_cast<double>(min_) / width_));
      const double neighbours = z == 0           ? counts_[1]
                                : z == bins_ - 1 ? counts_[z - 1]
                                                 : 0.5 * (counts_[z - 1] + counts_[z + 1]);
      counts_[z] = std::min(counts_[z], neighbours);
    }
    prefix_.assign(bins_ + 1, 0.0);
    for (int k = 0; k < bins_; ++k) {
      prefix_[k + 1] = prefix_[k] + counts_[k];
      if (counts_[k] > 0) nonzero_.push_back(k);
    }
  }

  int bins() const { return bins_; }
  double width() const { return width_; }
  double total() const { return prefix_[bins_]; }
  double count(int k) const { return counts_[k]; }
  double count_below(int k) const { return prefix_[k]; }
  double Edge(int k) const { return k == 0 ? min_ : k == bins_ ? max_ : min_ + width_ * k; }
  float EdgeF(int k) const { return k == 0 ? min_ : k == bins_ ? max_ : static_cast<float>(min_ + width_ * k); }
  double Centre(int k) const { return min_ + width_ * (k + 0.5); }
  // The bins with a non-zero count, in order (empty bins add nothing to either cost).
  const std::vector<int>& nonzero() const { return nonzero_; }

  // Prefix sums of c ln c (c > 0), built on first use (KL only).
  const std::vector<double>& CountLogCount() {
    if (count_log_count_.empty()) {
      count_log_count_.assign(bins_ + 1, 0.0);
      for (int k = 0; k < bins_; ++k) {
        const double c = count(k);
        count_log_count_[k + 1] = count_log_count_[k] + (c > 0 ? c * std::log(c) : 0.0);
      }
    }
    return count_log_count_;
  }

 private:
  int bins_;
  float min_, max_;
  double width_;
  std::vector<double> counts_;
  std::vector<double> prefix_;
  std::vector<int> nonzero_;
  std::vector<double> count_log_count_;
};

double XLogX(double x) { return x > 0 ? x * std::log(x) : 0.0; }

// Sum over the histogram of the integral of the squared quantize-dequantize
// error, each bin's count spread evenly over the bin, divided by the total:
// the expected squared error per value.
double MseCost(const HistogramView& h, float lo, float hi) {
  const ActParams p = ComputeActParams(lo, hi);
  const double s = p.scale;
  const double qlo = s * (-128.0 - p.zero_point), qhi = s * (127.0 - p.zero_point);
  const double s3_12 = s * s * s / 12.0;
  // Antiderivative of the squared error, 0 at qlo: cubic outside the grid,
  // one s^3/12 per grid step inside (the error is the distance to the nearest
  // grid point, periodic with period s).
  auto phi = [&](double x) -> double {
    if (x <= qlo) {
      const double d = qlo - x;
      return -d * d * d / 3.0;
    }
    if (x >= qhi) {
      const double d = x - qhi;
      return 255.0 * s3_12 + d * d * d / 3.0;
    }
    const double u = (x - qlo) / s;
    const double n = std::floor(u);
    const double t = (u - n) * s;
    const double g = t <= 0.5 * s ? t * t * t / 3.0 : s3_12 - (s - t) * (s - t) * (s - t) / 3.0;
    return n * s3_12 + g;
  };
  double sum = 0.0;
  int last_edge = -2;  // phi at the last upper edge, reused when bins are adjacent
  double last_phi = 0.0;
  for (int k : h.nonzero()) {
    const double lower = k == last_edge ? last_phi : phi(h.Edge(k));
    last_phi = phi(h.Edge(k + 1));
    last_edge = k + 1;
    sum += h.count(k) * (last_phi - lower);
  }
  return sum / h.width() / h.total();
}

// KL(P || Q) for the slice of bins [i, j) (see the header comment).
double KlCost(HistogramView* h, int i, int j) {
  const ActParams p = ComputeActParams(h->EdgeF(i), h->EdgeF(j));
  const double total = h->total();
  const double below = h->count_below(i), above = total - h->count_below(j);
  const std::vector<double>& cl = h->CountLogCount();
  // A = sum P ln P: the slice's c ln c, with the two end bins corrected for the clipped counts.
  const double p_first = h->count(i) + below + (j - 1 == i ? above : 0.0);
  double a = cl[j] - cl[i] + XLogX(p_first) - XLogX(h->count(i));
  if (j - 1 != i) a += XLogX(h->count(j - 1) + above) - XLogX(h->count(j - 1));
  // B = sum P ln Q and Z = sum Q, level by level (levels are monotone in k).
  double b = 0.0, z = 0.0;
  int level = std::numeric_limits<int>::min();
  double level_count = 0.0, level_p = 0.0;
  int level_nonzero = 0;
  auto flush = [&]() {
    if (level_nonzero == 0) return;
    if (level_count > 0) {
      b += level_p * std::log(level_count / level_nonzero);
      z += level_count;
    } else {
      b += level_p * std::log(kKlEpsilon);
      z += level_nonzero * kKlEpsilon;
    }
  };
  // Only bins where P is non-zero matter: the non-empty ones and the two ends.
  auto visit = [&](int k) {
    const double c = h->count(k);
    const double pk = c + (k == i ? below : 0.0) + (k == j - 1 ? above : 0.0);
    if (pk <= 0) return;
    const int l = QuantizeValue(static_cast<float>(h->Centre(k)), p.scale, p.zero_point, -128, 127);
    if (l != level) {
      flush();
      level = l;
      level_count = level_p = 0.0;
      level_nonzero = 0;
    }
    level_count += c;
    level_p += pk;
    ++level_nonzero;
  };
  const std::vector<int>& nonzero = h->nonzero();
  visit(i);
  for (auto it = std::upper_bound(nonzero.begin(), nonzero.end(), i); it != nonzero.end() && *it < j - 1; ++it) {
    visit(*it);
  }
  if (j - 1 != i) visit(j - 1);
  flush();
  if (z <= 0) return kInfinity;
  return (a - b) / total - std::log(total) + std::log(z);
}

// Line search: position in `candidates` (ordered widest first) of the
// cheapest one found by scanning every 32nd, then every 4th within 31 of the
// best, then every one within 3 of the best; starts from `current` and moves
// only on a cost lower by more than the tie tolerance.
template <typename Cost>
size_t SearchOneSide(const std::vector<int>& candidates, size_t current, Cost cost) {
  size_t best = current;
  double best_cost = cost(candidates[current]);
  auto consider = [&](size_t pos) {
    const double c = cost(candidates[pos]);
    if (c < best_cost - (kTieTolerance * std::fabs(best_cost) + kTieTolerance)) {
      best_cost = c;
      best = pos;
    }
  };
  const size_t n = candidates.size();
  // Every kCoarseStride-th candidate, then a finer stride around the best so far, down to 1.
  size_t first = 0, last = n - 1;
  for (size_t stride = kCoarseStride;; stride = std::max<size_t>(1, stride / kRefine)) {
    for (size_t pos = first; pos <= last; pos += stride) consider(pos);
    consider(last);
    if (stride == 1) break;
    first = best >= stride ? best - stride + 1 : 0;
    last = std::min(n - 1, best + stride - 1);
  }
  return best;
}

// Coordinate descent over (lo edge, hi edge) from the full range; `cost(i, j)`
// is +inf for invalid pairs. A round: both ends moved by the same number of
// bins (two-sided histograms), then hi, then lo; stops when a round moves
// nothing.
template <typename Cost>
void SearchRange(const HistogramView& h, Cost cost, int* lo_edge, int* hi_edge) {
  const int bins = h.bins();
  std::vector<int> lo_candidates{0}, hi_candidates{bins};  // widest first
  for (int k = 1; k < bins && h.Edge(k) < 0.0; ++k) lo_candidates.push_back(k);
  for (int k = bins - 1; k > 0 && h.Edge(k) > 0.0; --k) hi_candidates.push_back(k);
  // Candidates are their own positions: lo_candidates[p] = p, hi_candidates[p] = bins - p.
  int i = 0, j = bins;
  const bool two_sided = lo_candidates.size() > 1 && hi_candidates.size() > 1;
  std::vector<int> shifts;
  for (int round = 0; round < kMaxRounds; ++round) {
    const int start_i = i, start_j = j;
    if (two_sided) {
      // Both ends by the same number of bins: the scale couples them, so this
      // moves far where the one-sided searches would creep.
      const int t_min = std::max(-i, j - bins);
      const int t_max = std::min(lo_candidates.back() - i, j - hi_candidates.back());
      shifts.clear();
      for (int t = t_min; t <= t_max; ++t) shifts.push_back(t);
      const int t = shifts[SearchOneSide(shifts, static_cast<size_t>(-t_min),
                                         [&](int shift) { return cost(i + shift, j - shift); })];
      i += t;
      j -= t;
    }
    j = hi_candidates[SearchOneSide(hi_candidates, static_cast<size_t>(bins - j), [&](int k) { return cost(i, k); })];
    if (lo_candidates.size() > 1) {
      i = lo_candidates[SearchOneSide(lo_candidates, static_cast<size_t>(i), [&](int k) { return cost(k, j); })];
    }
    if (i == start_i && j == start_j) break;
  }
  *lo_edge = i;
  *hi_edge = j;
}

}  // namespace

Status ParseQuantAlgorithm(const std::string& name, QuantAlgorithm* out) {
  if (name == "normal") {
    *out = QuantAlgorithm::kNormal;
  } else if (name == "mmse") {
    *out = QuantAlgorithm::kMmse;
  } else if (name == "kl_divergence") {
    *out = QuantAlgorithm::kKlDivergence;
  } else {
    return NPURT_ERROR(kParamInvalid, "unknown quantized algorithm '%s' (known: normal, mmse, kl_divergence)",
                       name.c_str());
  }
  return Status::Ok();
}

const char* QuantAlgorithmName(QuantAlgorithm algorithm) {
  switch (algorithm) {
    case QuantAlgorithm::kNormal: return "normal";
    case QuantAlgorithm::kMmse: return "mmse";
    case QuantAlgorithm::kKlDivergence: return "kl_divergence";
  }
  return "unknown";
}

Status ChooseRange(const TensorStats& stats, QuantAlgorithm algorithm, float* min, float* max) {
  if (stats.count == 0 || !std::isfinite(stats.min) || !std::isfinite(stats.max) || stats.min > stats.max) {
    return NPURT_ERROR(kParamInvalid, "no finite value was recorded");
  }
  *min = stats.min;
  *max = stats.max;
  if (algorithm == QuantAlgorithm::kNormal || stats.min == stats.max) return Status::Ok();
  uint64_t histogram_total = 0;
  for (uint64_t c : stats.histogram) histogram_total += c;
  if (histogram_total == 0 || !(stats.hist_max > stats.hist_min) || !std::isfinite(stats.hist_min) ||
      !std::isfinite(stats.hist_max)) {
    return NPURT_ERROR(kParamInvalid, "%s needs a histogram (calibration with histograms on)",
                       QuantAlgorithmName(algorithm));
  }
  HistogramView h(stats, algorithm == QuantAlgorithm::kKlDivergence);
  int lo = 0, hi = h.bins();
  if (algorithm == QuantAlgorithm::kMmse) {
    // In units of the squared bin width, so that costs do not depend on the tensor's scale.
    const double unit = 1.0 / (h.width() * h.width());
    SearchRange(
        h, [&](int i, int j) { return j > i ? MseCost(h, h.EdgeF(i), h.EdgeF(j)) * unit : kInfinity; }, &lo, &hi);
  } else {
    const int min_bins = std::min(kKlMinBins, h.bins());
    SearchRange(h, [&](int i, int j) { return j - i >= min_bins ? KlCost(&h, i, j) : kInfinity; }, &lo, &hi);
  }
  *min = h.EdgeF(lo);
  *max = h.EdgeF(hi);
  return Status::Ok();
}

double ExpectedQuantizationMse(const TensorStats& stats, float lo, float hi) {
  uint64_t total = 0;
  for (uint64_t c : stats.histogram) total += c;
  if (total == 0) return 0.0;
  if (!(stats.hist_max > stats.hist_min)) {  // every value at hist_min
    const ActParams p = ComputeActParams(lo, hi);
    const float x = stats.hist_min;
    const double e = x - DequantizeValue(QuantizeValue(x, p.scale, p.zero_point, -128, 127), p.scale, p.zero_point);
    return e * e;
  }
  return MseCost(HistogramView(stats, false), lo, hi);
}

QuantInfo ActivationQuantInfo(float min, float max) {
  const ActParams p = ComputeActParams(min, max);
  QuantInfo q;
  q.scale = {p.scale};
  q.zero_point = {p.zero_point};
  q.axis = -1;
  return q;
}

QuantInfo Int16ActivationQuantInfo(float min, float max, float headroom) {
  const float m = std::max(std::fabs(min), std::fabs(max));
  float scale = headroom * m / 32767.0f;
  if (!(scale >= std::numeric_limits<float>::min())) scale = std::numeric_limits<float>::min();
  if (!(scale <= std::numeric_limits<float>::max())) scale = std::numeric_limits<float>::max();
  QuantInfo q;
  q.scale = {scale};
  q.zero_point = {0};
  q.axis = -1;
  return q;
}

QuantInfo QuantizeWeights(const float* w, const Shape& shape, int axis, std::vector<int8_t>* codes) {
  QuantInfo q;
  codes->clear();
  const int rank = static_cast<int>(shape.size());
  const int64_t n = NumElements(shape);
  if (axis >= rank || n < 0) return q;
  int64_t outer = 1, channels = 1, inner = n;
  if (axis >= 0) {
    channels = shape[axis];
    inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < rank; ++d) inner *= shape[d];
    if (channels <= 0) return q;
  }
  std::vector<float> max_abs(static_cast<size_t>(channels), 0.0f);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < channels; ++c) {
      const float* row = w + (o * channels + c) * inner;
      float m = max_abs[c];
      for (int64_t i = 0; i < inner; ++i) {
        if (std::isfinite(row[i])) m = std::max(m, std::fabs(row[i]));
      }
      max_abs[c] = m;
    }
  }
  q.axis = axis >= 0 ? axis : -1;
  q.scale.resize(static_cast<size_t>(channels));
  q.zero_point.assign(static_cast<size_t>(channels), 0);
  for (int64_t c = 0; c < channels; ++c) {
    float s = max_abs[c] == 0.0f ? 1.0f : max_abs[c] / 127.0f;
    if (s < FLT_MIN) s = FLT_MIN;
    q.scale[c] = s;
  }
  codes->resize(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t base = (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        (*codes)[base + i] = static_cast<int8_t>(QuantizeValue(w[base + i], q.scale[c], 0, -127, 127));
      }
    }
  }
  return q;
}

}  // namespace compiler
}  // namespace npurt
