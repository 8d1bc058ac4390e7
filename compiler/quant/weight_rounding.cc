#include "compiler/quant/weight_rounding.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>

#include "compiler/quant/calibrator.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "runtime/core/profiler.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/conv_geometry.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace {

constexpr double kDamping = 0.01;  // of H's mean diagonal, as GPTQ
constexpr int64_t kBlock = 64;     // patches gathered before they update H

// In-place lower Cholesky factor of the n x n row-major matrix `a` (the upper triangle is left as is).
bool CholeskyLower(std::vector<double>* a, int64_t n) {
  double* m = a->data();
  for (int64_t j = 0; j < n; ++j) {
    double* row_j = m + j * n;
    double d = row_j[j];
    for (int64_t k = 0; k < j; ++k) d -= row_j[k] * row_j[k];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    const double pivot = std::sqrt(d);
    row_j[j] = pivot;
    for (int64_t i = j + 1; i < n; ++i) {
      double* row_i = m + i * n;
      double s = row_i[j];
      for (int64_t k = 0; k < j; ++k) s -= row_i[k] * row_j[k];
      row_i[j] = s / pivot;
    }
  }
  return true;
}

// Accumulates E[x x^T] of every Conv node's input windows and every Gemm / MatMul node's input rows (see
// the header).
class MomentObserver final : public Profiler {
 public:
  struct Moments {
    bool conv = false;        // Conv or ConvTranspose
    bool transposed = false;  // ConvTranspose
    ConvParams params;  // conv (the activation unused); a matrix product has params.groups = 1
    bool transposed_rows = false;  // Gemm transA: the input is [K, rows]
    int64_t taps = 0;
    std::vector<double> sums;  // groups x taps x taps, upper triangles filled
    uint64_t rows = 0;
  };

  void StartRun() { ++run_; }
  const Status& status() const { return status_; }
  std::map<std::string, Moments>& moments() { return moments_; }

  void BeginOp(int, const OpNode& node) override {
    if (!status_.ok()) return;
    const std::string op = node.def->name;
    const Tensor* x = node.input(0);
    const Tensor* w = node.input(1);
    if ((op != "Conv" && op != "ConvTranspose" && op != "Gemm" && op != "MatMul") || x == nullptr || w == nullptr || !w->constant ||
        x->dtype != DataType::kFloat32 || w->dtype != DataType::kFloat32 || x->data == nullptr) {
      return;
    }
    auto it = moments_.find(node.name);
    if (it == moments_.end()) {
      Moments m;
      if (op == "Conv") {
        m.conv = true;
        Status s = ConvGeometry(node.attrs, x, w, &m.params);
        if (!s.ok()) {
          status_ = Status(s.code(), "node '" + node.name + "': " + s.message());
          return;
        }
        const ConvParams& p = m.params;
        m.taps = p.in_channels / p.groups * p.kernel[0] * p.kernel[1] * p.kernel[2];
      } else if (op == "ConvTranspose") {
        ConvTransposeParams t;
        Status s = ConvTransposeGeometry(node.attrs, x, w, &t);
        if (!s.ok()) {
          status_ = Status(s.code(), "node '" + node.name + "': " + s.message());
          return;
        }
        m.conv = m.transposed = true;
        ConvParams& p = m.params;
        p.batch = t.batch;
        p.in_channels = t.in_channels;
        p.out_channels = t.out_channels;
        p.groups = t.groups;
        for (int d = 0; d < 3; ++d) {
          p.in[d] = t.in[d];
          p.out[d] = t.out[d];
          p.kernel[d] = t.kernel[d];
          p.stride[d] = t.stride[d];
          p.dilation[d] = t.dilation[d];
          p.pad_begin[d] = t.pad_begin[d];
        }
        m.taps = p.in_channels / p.groups * p.kernel[0] * p.kernel[1] * p.kernel[2];
      } else {
        // Gemm: x [rows, K] (transA: [K, rows]); MatMul: x [..., K] with a 2-D constant weight [K, N].
        int64_t trans_a = 0;
        if (op == "Gemm" && !node.attrs.GetInt("transA", 0, &trans_a).ok()) return;
        if (w->rank() != 2 || x->rank() < (op == "Gemm" ? 2 : 1)) return;
        m.transposed_rows = trans_a != 0;
        m.taps = m.transposed_rows ? x->shape[0] : x->shape[static_cast<size_t>(x->rank() - 1)];
      }
      if (m.taps <= 0 || m.taps > kMaxRoundingTaps) return;
      m.sums.assign(static_cast<size_t>(m.params.groups * m.taps * m.taps), 0.0);
      it = moments_.emplace(node.name, std::move(m)).first;
    }
    Moments& m = it->second;
    if (m.conv) {
      AccumulateWindows(x->as<const float>(), &m);
    } else if (x->num_elements() % m.taps == 0) {
      AccumulateRows(x->as<const float>(), x->num_elements() / m.taps, &m);
    }
  }
  void EndOp(int, const OpNode&) override {}

 private:
  // Every step-th of `count` items (positions or rows), from an offset that differs between samples.
  int64_t Step(int64_t count, int64_t* first) const {
    const int64_t step = std::max<int64_t>(1, count / kRoundingPositions);
    *first = static_cast<int64_t>(run_ % static_cast<uint64_t>(step));
    return step;
  }

  void AccumulateRows(const float* x, int64_t rows, Moments* m) {
    const int64_t taps = m->taps;
    int64_t first = 0;
    const int64_t step = Step(rows, &first);
    patches_.assign(static_cast<size_t>(taps * kBlock), 0.0f);
    int64_t filled = 0;
    for (int64_t r = first; r < rows; r += step) {
      for (int64_t k = 0; k < taps; ++k) {
        const float v = m->transposed_rows ? x[k * rows + r] : x[r * taps + k];
        patches_[static_cast<size_t>(k * kBlock + filled)] = std::isfinite(v) ? v : 0.0f;
      }
      if (++filled == kBlock) {
        Flush(m, filled);
        filled = 0;
      }
    }
    if (filled > 0) Flush(m, filled);
  }

  // The input index that kernel tap k of output index o reads along spatial axis `axis`, if any. Conv:
  // i = o * stride - pad + k * dilation. ConvTranspose: o = i * stride + k * dilation - pad, so only the
  // taps with (o + pad - k * dilation) divisible by the stride reach output o.
  static bool Source(const Moments& m, int axis, int64_t o, int64_t k, int64_t* i) {
    const ConvParams& p = m.params;
    if (!m.transposed) {
      *i = o * p.stride[axis] - p.pad_begin[axis] + k * p.dilation[axis];
      return *i >= 0 && *i < p.in[axis];
    }
    const int64_t reach = o + p.pad_begin[axis] - k * p.dilation[axis];
    if (reach < 0 || reach % p.stride[axis] != 0) return false;
    *i = reach / p.stride[axis];
    return *i < p.in[axis];
  }

  void AccumulateWindows(const float* x, Moments* m) {
    const ConvParams& p = m->params;
    const int64_t kernel = p.kernel[0] * p.kernel[1] * p.kernel[2];
    const int64_t group_in = p.in_channels / p.groups, taps = m->taps;
    const int64_t spatial = p.out[0] * p.out[1] * p.out[2];
    const int64_t positions = p.batch * spatial;
    int64_t first = 0;
    const int64_t step = Step(positions, &first);
    patches_.assign(static_cast<size_t>(p.groups * taps * kBlock), 0.0f);
    int64_t filled = 0;
    for (int64_t pos = first; pos < positions; pos += step) {
      const int64_t n = pos / spatial, o = pos % spatial;
      const int64_t od = o / (p.out[1] * p.out[2]), oh = o / p.out[2] % p.out[1], ow = o % p.out[2];
      for (int64_t c = 0; c < p.in_channels; ++c) {
        const int64_t g = c / group_in, ci = c % group_in;
        const float* plane = x + (n * p.in_channels + c) * p.in[0] * p.in[1] * p.in[2];
        float* column = patches_.data() + (g * taps + ci * kernel) * kBlock + filled;
        int64_t t = 0;
        for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
          int64_t id = 0;
          const bool in_d = Source(*m, 0, od, kd, &id);
          for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
            int64_t ih = 0;
            const bool in_h = in_d && Source(*m, 1, oh, kh, &ih);
            for (int64_t kw = 0; kw < p.kernel[2]; ++kw, ++t) {
              int64_t iw = 0;
              const bool inside = in_h && Source(*m, 2, ow, kw, &iw);
              const float v = inside ? plane[(id * p.in[1] + ih) * p.in[2] + iw] : 0.0f;
              column[t * kBlock] = std::isfinite(v) ? v : 0.0f;
            }
          }
        }
      }
      if (++filled == kBlock) {
        Flush(m, filled);
        filled = 0;
      }
    }
    if (filled > 0) Flush(m, filled);
  }

  // H += X^T X for the gathered patches (the upper triangle), then clears them. Each H[i][j] adds one
  // float dot product summed over the block's patches in order; the block is transposed first so that
  // the dot products of one row i with every j >= i run side by side (the loop over j vectorizes, and
  // each lane keeps its own sum's order: the same bits as one dot product at a time).
  void Flush(Moments* m, int64_t filled) {
    const int64_t taps = m->taps;
    transposed_.resize(static_cast<size_t>(kBlock * taps));
    dots_.resize(static_cast<size_t>(taps));
    for (int64_t g = 0; g < m->params.groups; ++g) {
      float* block = patches_.data() + g * taps * kBlock;
      double* h = m->sums.data() + g * taps * taps;
      for (int64_t t = 0; t < taps; ++t) {
        for (int64_t b = 0; b < kBlock; ++b) transposed_[static_cast<size_t>(b * taps + t)] = block[t * kBlock + b];
      }
      for (int64_t i = 0; i < taps; ++i) {
        float* dot = dots_.data();
        std::fill(dot + i, dot + taps, 0.0f);
        for (int64_t b = 0; b < kBlock; ++b) {
          const float* row = transposed_.data() + b * taps;
          const float xi = row[i];
          for (int64_t j = i; j < taps; ++j) dot[j] += xi * row[j];
        }
        for (int64_t j = i; j < taps; ++j) h[i * taps + j] += dot[j];
      }
      std::fill(block, block + taps * kBlock, 0.0f);
    }
    m->rows += static_cast<uint64_t>(filled);
  }

  std::map<std::string, Moments> moments_;
  std::vector<float> patches_;  // groups x taps x kBlock
  std::vector<float> transposed_;  // one group's patches, kBlock x taps
  std::vector<float> dots_;        // taps
  uint64_t run_ = 0;
  Status status_;
};

}  // namespace

bool FactorRoundingSystem(std::vector<double> moments, int64_t taps, std::vector<int32_t>* order,
                          std::vector<double>* factor) {
  order->clear();
  factor->clear();
  const int64_t n = taps;
  if (n <= 0 || static_cast<int64_t>(moments.size()) != n * n) return false;
  double mean_diag = 0.0;
  for (int64_t i = 0; i < n; ++i) mean_diag += moments[static_cast<size_t>(i * n + i)];
  mean_diag /= static_cast<double>(n);
  if (!(mean_diag > 0.0) || !std::isfinite(mean_diag)) return false;
  // Act order: the columns with the largest second moment first.
  std::vector<int32_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int32_t a, int32_t b) {
    return moments[static_cast<size_t>(a) * (n + 1)] > moments[static_cast<size_t>(b) * (n + 1)];
  });
  std::vector<double> a(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) a[static_cast<size_t>(i * n + j)] = moments[static_cast<size_t>(perm[i] * n + perm[j])];
    a[static_cast<size_t>(i * n + i)] += kDamping * mean_diag;
  }
  if (!CholeskyLower(&a, n)) return false;
  // inv = L^-1 (lower), row by row: inv[i][:i] = -(L[i][:i] . inv[:i][:i]) / L[i][i].
  std::vector<double> inv(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double* row = inv.data() + i * n;
    for (int64_t k = 0; k < i; ++k) {
      const double l = a[static_cast<size_t>(i * n + k)];
      const double* inv_k = inv.data() + k * n;
      for (int64_t j = 0; j <= k; ++j) row[j] -= l * inv_k[j];
    }
    const double pivot = a[static_cast<size_t>(i * n + i)];
    for (int64_t j = 0; j < i; ++j) row[j] /= pivot;
    row[i] = 1.0 / pivot;
  }
  // H^-1 = L^-T L^-1: its lower triangle, sum over k >= i >= j of inv[k][i] inv[k][j].
  std::vector<double> h_inv(static_cast<size_t>(n * n), 0.0);
  for (int64_t k = 0; k < n; ++k) {
    const double* inv_k = inv.data() + k * n;
    for (int64_t i = 0; i <= k; ++i) {
      const double v = inv_k[i];
      double* row = h_inv.data() + i * n;
      for (int64_t j = 0; j <= i; ++j) row[j] += v * inv_k[j];
    }
  }
  if (!CholeskyLower(&h_inv, n)) return false;
  factor->assign(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) (*factor)[static_cast<size_t>(i * n + j)] = h_inv[static_cast<size_t>(j * n + i)];
  }
  *order = std::move(perm);
  return true;
}

void RoundChannel(const RoundingSystem& system, int64_t group, const float* weights, float scale, int8_t* codes) {
  const int64_t n = system.taps;
  const bool factored = group >= 0 && group < system.groups && static_cast<size_t>(group) < system.order.size() &&
                        !system.order[static_cast<size_t>(group)].empty();
  if (!factored) {
    for (int64_t i = 0; i < n; ++i) codes[i] = static_cast<int8_t>(QuantizeValue(weights[i], scale, 0, -127, 127));
    return;
  }
  const std::vector<int32_t>& order = system.order[static_cast<size_t>(group)];
  const double* u = system.factor[static_cast<size_t>(group)].data();
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = weights[order[static_cast<size_t>(i)]];
  for (int64_t i = 0; i < n; ++i) {
    const int32_t q = QuantizeValue(static_cast<float>(w[static_cast<size_t>(i)]), scale, 0, -127, 127);
    codes[order[static_cast<size_t>(i)]] = static_cast<int8_t>(q);
    const double error = (w[static_cast<size_t>(i)] - static_cast<double>(q) * scale) / u[i * n + i];
    for (int64_t j = i + 1; j < n; ++j) w[static_cast<size_t>(j)] -= error * u[i * n + j];
  }
}

Status CollectInputMoments(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                           std::map<std::string, InputMoments>* moments) {
  moments->clear();
  std::unique_ptr<Context> context;
  NPURT_RETURN_IF_ERROR(OpenModel(float_model, "weight rounding: cannot load the float model: ", &context));
  MomentObserver observer;
  for (size_t k = 0; k < samples.size(); ++k) {
    observer.StartRun();
    NPURT_RETURN_IF_ERROR(RunSample(samples[k], k, context.get(), &observer));
    NPURT_RETURN_IF_ERROR(observer.status());
  }
  for (auto& entry : observer.moments()) {
    MomentObserver::Moments& m = entry.second;
    InputMoments out;
    out.groups = m.params.groups;
    out.taps = m.taps;
    out.rows = m.rows;
    out.sums = std::move(m.sums);
    const int64_t n = out.taps;
    for (int64_t g = 0; g < out.groups; ++g) {  // mirror the upper triangles
      double* h = out.sums.data() + g * n * n;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < i; ++j) h[i * n + j] = h[j * n + i];
      }
    }
    moments->emplace(entry.first, std::move(out));
  }
  return Status::Ok();
}

Status CollectRoundingSystems(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                              std::map<std::string, RoundingSystem>* systems) {
  systems->clear();
  std::map<std::string, InputMoments> moments;
  NPURT_RETURN_IF_ERROR(CollectInputMoments(float_model, samples, &moments));
  for (auto& entry : moments) {
    InputMoments& m = entry.second;
    if (m.rows < kMinRowsPerTap * static_cast<uint64_t>(m.taps)) continue;  // under-determined: nearest
    RoundingSystem system;
    system.groups = m.groups;
    system.taps = m.taps;
    system.order.resize(static_cast<size_t>(m.groups));
    system.factor.resize(static_cast<size_t>(m.groups));
    const int64_t n = m.taps;
    for (int64_t g = 0; g < m.groups; ++g) {
      FactorRoundingSystem(std::vector<double>(m.sums.begin() + g * n * n, m.sums.begin() + (g + 1) * n * n), n,
                           &system.order[static_cast<size_t>(g)], &system.factor[static_cast<size_t>(g)]);
    }
    m.sums = std::vector<double>();  // one node's moments at a time
    systems->emplace(entry.first, std::move(system));
  }
  return Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
