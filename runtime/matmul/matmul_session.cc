#include "runtime/matmul/matmul_session.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "runtime/core/thread_pool.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/ref/gemm.h"
#include "runtime/kernels/ref/quantize.h"
#if NPURT_HAVE_ONEDNN
#include "runtime/kernels/x86/onednn_matmul.h"
#endif

namespace npurt {

#if !NPURT_HAVE_ONEDNN
// Builds without oneDNN (ARM, or -DNPURT_WITH_ONEDNN=OFF) sum floats on the reference Gemm.
class OnednnMatMul {};
#endif

namespace {

size_t RoundUp64(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

const char* WhichName(MmWhich w) { return w == MmWhich::kA ? "A" : w == MmWhich::kB ? "B" : "C"; }


}  // namespace

MatmulSession::~MatmulSession() = default;

Status MatmulSession::Create(const MatmulConfig& config, const std::vector<MatmulShape>& shapes, bool dynamic,
                             std::unique_ptr<MatmulSession>* out) {
  if (shapes.empty()) return NPURT_ERROR(kParamInvalid, "no shape");
  if (config.b_quant_type < 0 || config.b_quant_type > 5) {
    return NPURT_ERROR(kParamInvalid, "B_quant_type %d is not an rknn_matmul_quant_type", config.b_quant_type);
  }
  const bool per_group = config.b_quant_type >= 4;
  if (per_group && config.group_size <= 0) {
    return NPURT_ERROR(kParamInvalid, "per-group B quantization needs group_size > 0 (it is %lld)",
                       static_cast<long long>(config.group_size));
  }
  if (per_group && !MmElemIsInteger(config.types.b)) {
    return NPURT_ERROR(kParamInvalid, "type %d has a float16 B: it is not quantized per group", config.type);
  }
  std::unique_ptr<MatmulSession> s(new MatmulSession());
  s->config_ = config;
  s->shapes_ = shapes;
  s->dynamic_ = dynamic;
  s->threads_ = ThreadPool::DefaultThreads();
  int64_t max_mk = 0, max_mn = 0, max_m = 0, max_k = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const MatmulShape& sh = shapes[i];
    MatmulGeometry g;
    Status st = MakeMatmulGeometry(*config.platform, config.types, config.b_layout, config.ac_layout, sh.m, sh.k,
                                   sh.n, &g);
    if (!st.ok()) {
      return shapes.size() == 1 ? st : NPURT_ERROR(kParamInvalid, "shape %zu (M %lld, K %lld, N %lld): %s", i,
                                                   static_cast<long long>(sh.m), static_cast<long long>(sh.k),
                                                   static_cast<long long>(sh.n), st.message().c_str());
    }
    if (per_group && sh.k % config.group_size != 0) {
      return NPURT_ERROR(kParamInvalid, "K %lld is not a multiple of group_size %lld", static_cast<long long>(sh.k),
                         static_cast<long long>(config.group_size));
    }
    s->geometries_.push_back(std::move(g));
    max_mk = std::max(max_mk, sh.m * sh.k);
    max_mn = std::max(max_mn, sh.m * sh.n);
    max_m = std::max(max_m, sh.m);
    max_k = std::max(max_k, sh.k);
  }
  // The per-run buffers, for the largest shape.
  if (s->IntegerOutput()) {
    s->kernel_ = ChooseIgemmKernel(false);
    s->a_codes_.resize(static_cast<size_t>(max_mk));
    if (s->kernel_ != nullptr) {
      const int64_t row_bytes = IgemmGroupK(*s->kernel_, max_k) * IgemmElementBytes(s->kernel_->format);
      s->staged_.assign(static_cast<size_t>((max_m + s->kernel_->mr) * row_bytes), 0);
    }
    s->sums_.resize(static_cast<size_t>(max_mn));
  } else {
    s->a_float_.resize(static_cast<size_t>(max_mk));
    s->c_float_.resize(static_cast<size_t>(max_mn));
  }
  *out = std::move(s);
  return Status::Ok();
}

Status MatmulSession::SelectShape(const MatmulShape& want) {
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const MatmulShape& sh = shapes_[i];
    if (sh.m == want.m && sh.k == want.k && sh.n == want.n) {
      current_ = static_cast<int>(i);
      selected_ = true;
      // B bound for another K x N no longer fits: it must be bound again.
      if (bound_[1].data != nullptr && (b_k_ != sh.k || b_n_ != sh.n)) {
        bound_[1] = Binding();
        b_raw_.clear();
        b_prepared_ = false;
      }
      return Status::Ok();
    }
  }
  return NPURT_ERROR(kParamInvalid, "shape M %lld, K %lld, N %lld was not given to rknn_matmul_create_dynamic_shape",
                     static_cast<long long>(want.m), static_cast<long long>(want.k), static_cast<long long>(want.n));
}

Status MatmulSession::SetQuant(MmWhich which, const float* scale, int32_t scale_len, const int32_t* zp,
                               int32_t zp_len) {
  if (scale == nullptr || scale_len <= 0) {
    return NPURT_ERROR(kParamInvalid, "%s: scale is NULL or scale_len %d is not > 0", WhichName(which), scale_len);
  }
  if (zp_len < 0 || (zp_len > 0 && zp == nullptr) || (zp_len > 0 && zp_len != scale_len)) {
    return NPURT_ERROR(kParamInvalid, "%s: zp_len %d must be 0 or scale_len %d, with zp not NULL", WhichName(which),
                       zp_len, scale_len);
  }
  if (which != MmWhich::kB && scale_len != 1) {
    return NPURT_ERROR(kParamInvalid, "%s is quantized per layer: scale_len %d must be 1", WhichName(which), scale_len);
  }
  for (int32_t i = 0; i < scale_len; ++i) {
    if (!(scale[i] > 0.0f) || !std::isfinite(scale[i])) {
      return NPURT_ERROR(kParamInvalid, "%s: scale[%d] = %g is not a finite value > 0", WhichName(which), i,
                         static_cast<double>(scale[i]));
    }
  }
  Quant q;
  q.scale.assign(scale, scale + scale_len);
  if (zp_len > 0) q.zp.assign(zp, zp + zp_len);
  const bool symmetric = which == MmWhich::kB ? config_.b_quant_type % 2 == 0 : true;
  for (int32_t v : q.zp) {
    if (which == MmWhich::kB && symmetric && v != 0) {
      return NPURT_ERROR(kParamInvalid, "B_quant_type is symmetric but a zero point is %d", v);
    }
  }
  quant_[static_cast<int>(which)] = std::move(q);
  if (which != MmWhich::kC) b_prepared_ = false;  // B's preparation folds A's zero point and B's scales
  return Status::Ok();
}

Status MatmulSession::CheckQuant() const {
  const Quant& b = quant_[1];
  const int64_t k = shape().k, n = shape().n;
  int64_t want = 1;
  const char* kind = "per layer";
  if (config_.b_quant_type == 2 || config_.b_quant_type == 3) want = n, kind = "per channel";
  if (config_.b_quant_type >= 4) want = k / config_.group_size * n, kind = "per group";
  const int64_t have = static_cast<int64_t>(b.scale.size());
  // Unset B scales (one 1.0) mean "not quantized" in any mode.
  if (have != want && !(have == 1 && b.scale[0] == 1.0f && b.zp.empty())) {
    return NPURT_ERROR(kParamInvalid, "B is quantized %s: %lld scales needed (K %lld, N %lld), %lld set", kind,
                       static_cast<long long>(want), static_cast<long long>(k), static_cast<long long>(n),
                       static_cast<long long>(have));
  }
  return Status::Ok();
}

float MatmulSession::BScaleAt(int64_t k, int64_t n) const {
  const std::vector<float>& s = quant_[1].scale;
  if (s.size() == 1) return s[0];
  if (config_.b_quant_type >= 4) return s[static_cast<size_t>(k / config_.group_size * shape().n + n)];
  return s[static_cast<size_t>(n)];
}

int32_t MatmulSession::BZeroAt(int64_t k, int64_t n) const {
  const std::vector<int32_t>& z = quant_[1].zp;
  if (z.empty()) return 0;
  if (z.size() == 1) return z[0];
  if (config_.b_quant_type >= 4) return z[static_cast<size_t>(k / config_.group_size * shape().n + n)];
  return z[static_cast<size_t>(n)];
}

Status MatmulSession::BScale(float* scale) {
  if (!MmElemIsInteger(config_.types.b)) return NPURT_ERROR(kParamInvalid, "B is float16: it has no scale");
  const std::vector<float>& s = quant_[1].scale;
  *scale = *std::max_element(s.begin(), s.end());
  return Status::Ok();
}

Status MatmulSession::Bind(MmWhich which, uint8_t* data, uint64_t size, std::shared_ptr<void> owner) {
  if (dynamic_ && !selected_) {
    return NPURT_ERROR(kParamInvalid, "a dynamic-shape context binds memory after rknn_matmul_set_dynamic_shape "
                                      "selects a shape");
  }
  const MatmulGeometry& g = geometry(current_);
  const MmMatrix& m = which == MmWhich::kA ? g.a : which == MmWhich::kB ? g.b : g.c;
  if (size < static_cast<uint64_t>(m.bytes)) {
    return NPURT_ERROR(kParamInvalid, "%s needs %lld bytes; the memory has %llu", WhichName(which),
                       static_cast<long long>(m.bytes), static_cast<unsigned long long>(size));
  }
  if (which == MmWhich::kB) {
    // Read now, as on the board: a later change to the memory takes another rknn_matmul_set_io_mem.
    b_raw_.assign(data, data + m.bytes);
    b_k_ = shape().k, b_n_ = shape().n;
    b_prepared_ = false;
  }
  bound_[static_cast<int>(which)] = Binding{data, size, std::move(owner)};
  return Status::Ok();
}

Status MatmulSession::PrepareB() {
  Status st = CheckQuant();
  if (!st.ok()) return st;
  const MmMatrix& bm = geometry(current_).b;
  const int64_t k = shape().k, n = shape().n;
  if (IntegerOutput()) {
    // B's codes (N, K), less their zero points, at one scale.
    std::vector<int8_t> raw(static_cast<size_t>(n * k));
    GatherInt8(b_raw_.data(), bm, /*transpose=*/true, raw.data());
    const std::vector<float>& s = quant_[1].scale;
    const bool several_scales = s.size() > 1;
    // int8 C per channel keeps each column's scale in its requantization; every other integer C needs one.
    const bool normalize = several_scales && !(config_.types.c == MmElem::kInt8 && config_.b_quant_type < 4);
    b_scale_ = normalize ? *std::max_element(s.begin(), s.end()) : s[0];
    b_codes_.assign(raw.size(), 0);
    b_codes_fit_int8_ = true;
    std::vector<int32_t> wide(raw.size());
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t kk = 0; kk < k; ++kk) {
        int32_t v = raw[static_cast<size_t>(j * k + kk)] - BZeroAt(kk, j);
        if (normalize) {
          const float q = RoundHalfToEven(static_cast<float>(v) * (BScaleAt(kk, j) / b_scale_));
          v = static_cast<int32_t>(std::clamp(q, -32768.0f, 32767.0f));
        }
        wide[static_cast<size_t>(j * k + kk)] = v;
        if (v < -128 || v > 127) b_codes_fit_int8_ = false;
      }
    }
    b_wide_ = std::move(wide);
    for (size_t i = 0; i < b_wide_.size(); ++i) b_codes_[i] = static_cast<int8_t>(std::clamp(b_wide_[i], -128, 127));
    packed_.reset();
    packed_zero_ = quant_[0].zp.empty() ? 0 : quant_[0].zp[0];
    if (kernel_ != nullptr && b_codes_fit_int8_) {
      packed_ = std::make_unique<IgemmPackedWeights>();
      PackIgemmWeights(*kernel_, b_codes_.data(), nullptr, 1, n, k, 1, packed_zero_, packed_.get());
    }
  } else {
    // B's values (K, N) as floats: dequantized codes or fp16 widened.
    b_float_.assign(static_cast<size_t>(k * n), 0.0f);
    GatherFloat(b_raw_.data(), bm, b_float_.data());
    if (MmElemIsInteger(config_.types.b)) {
      for (int64_t kk = 0; kk < k; ++kk) {
        for (int64_t j = 0; j < n; ++j) {
          float& v = b_float_[static_cast<size_t>(kk * n + j)];
          v = (v - static_cast<float>(BZeroAt(kk, j))) * BScaleAt(kk, j);
        }
      }
    }
    onednn_.clear();
#if NPURT_HAVE_ONEDNN
    size_t scratch = 0;
    for (const MatmulShape& sh : shapes_) {
      if (sh.k != k || sh.n != n || onednn_.count(sh.m) != 0) continue;
      OnednnMatMulShape os;
      os.m = sh.m, os.n = n, os.k = k;
      if (!OnednnMatMul::Supports(os)) break;
      std::unique_ptr<OnednnMatMul> mm;
      // One row band per thread: each band reads all of B, so more bands than threads only add traffic.
      st = OnednnMatMul::Create(os, b_float_.data(), nullptr, threads_, &mm);
      if (!st.ok()) return st;
      scratch = std::max(scratch, static_cast<size_t>(mm->slices()) * RoundUp64(mm->scratch_bytes_per_slice()));
      onednn_[sh.m] = std::move(mm);
    }
    scratch_.assign(scratch, 0);
#endif
  }
  b_prepared_ = true;
  return Status::Ok();
}

Status MatmulSession::Run() {
  for (int i = 0; i < 3; ++i) {
    if (bound_[i].data == nullptr) {
      return NPURT_ERROR(kParamInvalid, "%s has no memory: bind A, B and C with rknn_matmul_set_io_mem first%s",
                         WhichName(static_cast<MmWhich>(i)),
                         i == 1 && b_k_ != 0 ? " (a shape of another K or N dropped B's binding)" : "");
    }
  }
  const MatmulGeometry& g = geometry(current_);
  if (bound_[0].size < static_cast<uint64_t>(g.a.bytes) || bound_[2].size < static_cast<uint64_t>(g.c.bytes)) {
    return NPURT_ERROR(kParamInvalid, "the memory bound to A or C is smaller than this shape's (%lld, %lld bytes)",
                       static_cast<long long>(g.a.bytes), static_cast<long long>(g.c.bytes));
  }
  if (!b_prepared_) {
    Status st = PrepareB();
    if (!st.ok()) return st;
  }
  return IntegerOutput() ? RunInteger() : RunFloat();
}

// sums (M, N) = sum_k (a - a_zero) * B'; a (M, K) int8 codes.
void MatmulSession::IntegerSums(const int8_t* a, int32_t a_zero, int32_t* sums) const {
  const int64_t m = shape().m, k = shape().k, n = shape().n;
  if (packed_ != nullptr && a_zero == packed_zero_) {
    const IgemmKernel& kern = *kernel_;
    const int64_t group_k = IgemmGroupK(kern, k);
    const int64_t row_bytes = group_k * IgemmElementBytes(kern.format);
    uint8_t* staged = const_cast<uint8_t*>(staged_.data());
    IgemmStageArgs stage;
    stage.input = a;
    stage.pixel_stride = k;
    stage.channel_stride = 1;
    stage.group_in = k;
    stage.group_k = group_k;
    stage.zero_point = a_zero;
    stage.staged = staged;
    stage.row_bytes = row_bytes;
    ParallelFor(m, threads_, [&](int64_t begin, int64_t end) { kern.stage(stage, WorkRange{begin, end}); });
    const int64_t mr = kern.mr, nr = kern.nr;
    const int64_t tiles = (m + mr - 1) / mr;
    ParallelFor(tiles, threads_, [&](int64_t begin, int64_t end) {
      IgemmTileArgs t;
      t.taps = 1;
      t.kgroups = static_cast<int>(packed_->kgroups);
      t.base = staged;
      t.row_bytes = row_bytes;
      t.out_stride = n;
      for (int64_t b = 0; b < packed_->blocks; ++b) {
        t.weights = packed_->Block(0, b);
        t.bias = packed_->BlockBias(0, b);
        t.cols = static_cast<int>(std::min(nr, n - b * nr));
        for (int64_t tile = begin; tile < end; ++tile) {
          t.rows = static_cast<int>(std::min(mr, m - tile * mr));
          t.first_row = tile * mr;
          t.out_int32 = sums + tile * mr * n + b * nr;
          (t.rows == 1 ? kern.row_tile : kern.tile)(t);
        }
      }
    });
    return;
  }
  // The reference loop: no kernel runs here (NPURT_CPU_TARGET=ref), or B' leaves int8.
  ParallelFor(m, threads_, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const int32_t* bj = b_wide_.data() + j * k;
        int64_t acc = 0;
        for (int64_t kk = 0; kk < k; ++kk) acc += static_cast<int64_t>(a[i * k + kk] - a_zero) * bj[kk];
        sums[i * n + j] = static_cast<int32_t>(std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX));
      }
    }
  });
}

Status MatmulSession::RunInteger() {
  const MatmulGeometry& g = geometry(current_);
  const int64_t m = shape().m, n = shape().n;
  const int8_t* a = reinterpret_cast<const int8_t*>(bound_[0].data);
  if (!(g.a.elem == MmElem::kInt8 && g.a.kind == MmLayoutKind::kRowMajor)) {
    GatherInt8(bound_[0].data, g.a, false, a_codes_.data());
    a = a_codes_.data();
  }
  const int32_t a_zero = quant_[0].zp.empty() ? 0 : quant_[0].zp[0];
  const bool c_in_place = g.c.elem == MmElem::kInt32 && g.c.kind == MmLayoutKind::kRowMajor;
  int32_t* sums = c_in_place ? reinterpret_cast<int32_t*>(bound_[2].data) : sums_.data();
  IntegerSums(a, a_zero, sums);
  if (c_in_place) return Status::Ok();
  if (g.c.elem == MmElem::kInt8) {
    // Requantized: round-half-even(acc * sA * sB / sC) + zC, saturated.
    const float sa = quant_[0].scale[0], sc = quant_[2].scale[0];
    const int32_t zc = quant_[2].zp.empty() ? 0 : quant_[2].zp[0];
    const bool per_column = quant_[1].scale.size() > 1 && config_.b_quant_type < 4;  // B not normalized
    const FusedActivationParams none;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const float sb = per_column ? quant_[1].scale[static_cast<size_t>(j)] : b_scale_;
        int32_t& v = sums[i * n + j];
        v = Requantize(v, sa * sb, none, sc, zc, -128, 127);
      }
    }
  }
  ScatterInt32(sums, g.c, bound_[2].data);  // int16 C saturates here
  return Status::Ok();
}

Status MatmulSession::RunFloat() {
  const MatmulGeometry& g = geometry(current_);
  const int64_t m = shape().m, k = shape().k, n = shape().n;
  float* a = a_float_.data();
  GatherFloat(bound_[0].data, g.a, a);
  if (MmElemIsInteger(g.a.elem)) {
    const float sa = quant_[0].scale[0];
    const float za = static_cast<float>(quant_[0].zp.empty() ? 0 : quant_[0].zp[0]);
    for (int64_t i = 0; i < m * k; ++i) a[i] = (a[i] - za) * sa;
  }
  const bool c_in_place = g.c.elem == MmElem::kFloat32 && g.c.kind == MmLayoutKind::kRowMajor;
  float* c = c_in_place ? reinterpret_cast<float*>(bound_[2].data) : c_float_.data();
  bool done = false;
#if NPURT_HAVE_ONEDNN
  auto it = onednn_.find(m);
  if (it != onednn_.end()) {
    const OnednnMatMul& mm = *it->second;
    const size_t per_slice = RoundUp64(mm.scratch_bytes_per_slice());
    Status failed = Status::Ok();
    std::mutex failed_mutex;
    ParallelFor(mm.slices(), threads_, [&](int64_t begin, int64_t end) {
      for (int64_t s = begin; s < end; ++s) {
        Status st = mm.Run(static_cast<int>(s), a, c, scratch_.data() + static_cast<size_t>(s) * per_slice);
        if (!st.ok()) {
          std::lock_guard<std::mutex> lock(failed_mutex);
          failed = st;
        }
      }
    });
    if (!failed.ok()) return failed;
    done = true;
  }
#endif
  if (!done) {
    GemmParams p;
    p.m = m, p.n = n, p.k = k;
    ParallelFor(m, threads_, [&](int64_t begin, int64_t end) {
      f32_gemm__ref(p, a, b_float_.data(), nullptr, c, WorkRange{begin, end});
    });
  }
  if (!c_in_place) ScatterFloat(c, g.c, bound_[2].data);
  return Status::Ok();
}

}  // namespace npurt
