#include "runtime/kernels/x86/onednn_matmul.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/x86/onednn_common.h"

namespace npurt {

using dnnl::memory;
using Tag = memory::format_tag;
using Dt = memory::data_type;

struct OnednnMatMul::Impl {
  int64_t n = 1, k = 1;
  std::vector<int64_t> band_begin;  // first row of each band; one more entry: M
  std::vector<dnnl::matmul> primitives;
  std::vector<memory> weights;  // per band; bands with the same packed layout share one
  memory bias;
  struct BandMemory {
    memory a, y, scratch;
  };
  std::vector<BandMemory> io;
  size_t scratch = 0;
  std::string implementation;
};

OnednnMatMul::OnednnMatMul(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnMatMul::~OnednnMatMul() = default;
int OnednnMatMul::slices() const { return static_cast<int>(impl_->primitives.size()); }
size_t OnednnMatMul::scratch_bytes_per_slice() const { return impl_->scratch; }
const std::string& OnednnMatMul::implementation() const { return impl_->implementation; }

bool OnednnMatMul::Supports(const OnednnMatMulShape& s) {
  if (ActiveCpuTarget() < CpuTarget::kAvx2) return false;
  // As in OnednnConv::Supports: HardSigmoid's two post-ops are not trusted.
  return s.activation.kind != FusedActivation::kHardSigmoid;
}

Status OnednnMatMul::Create(const OnednnMatMulShape& s, const void* b_data, const void* bias_data, int max_slices,
                            std::unique_ptr<OnednnMatMul>* out) {
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  m.n = s.n;
  m.k = s.k;
  const int64_t bands = std::max<int64_t>(1, std::min<int64_t>(max_slices, s.m));
  for (int64_t i = 0; i <= bands; ++i) m.band_begin.push_back(i * s.m / bands);

  const Dt act = Dt::f32;  // float32 only
  // B as the user holds it: (K, N) row-major, or (N, K) row-major seen as (K, N) with swapped strides.
  const memory::desc b_user_md({s.k, s.n}, act, s.trans_b ? memory::dims{1, s.k} : memory::dims{s.n, 1});
  const memory::desc b_any_md({s.k, s.n}, act, Tag::any);
  const memory::desc bias_md({1, s.n}, Dt::f32, Tag::ab);

  OnednnSingleThread one_thread;
  const std::lock_guard<std::mutex> creating(OnednnCreationMutex());
  try {
    const dnnl::engine& engine = OnednnEngine();
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::post_ops po;
    AppendActivation(s.activation, &po);  // never HardSigmoid: Supports() declines it
    attr.set_post_ops(po);
    memory b_user(b_user_md, engine, const_cast<void*>(b_data));
    for (int64_t i = 0; i < bands; ++i) {
      const int64_t rows = m.band_begin[i + 1] - m.band_begin[i];
      const memory::desc a_md({rows, s.k}, act, Tag::ab), y_md({rows, s.n}, act, Tag::ab);
      const auto desc = bias_data != nullptr ? dnnl::matmul::desc(a_md, b_any_md, bias_md, y_md)
                                             : dnnl::matmul::desc(a_md, b_any_md, y_md);
      const dnnl::matmul::primitive_desc pd(desc, attr, engine);
      m.primitives.emplace_back(pd);
      m.scratch = std::max(m.scratch, pd.scratchpad_desc().get_size());
      if (m.implementation.empty()) m.implementation = pd.impl_info_str();
      m.weights.push_back(PackedWeights(b_user, pd.weights_desc(), m.weights));
      m.io.push_back({memory(a_md, engine, nullptr), memory(y_md, engine, nullptr),
                      memory(pd.scratchpad_desc(), engine, nullptr)});
    }
    if (bias_data != nullptr) m.bias = CopiedMemory(bias_md, bias_data);
  } catch (const dnnl::error& e) {
    return OnednnError(e, "a matmul");
  } catch (const std::bad_alloc&) {
    return NPURT_ERROR(kMallocFail, "out of memory making a oneDNN matmul");
  }
  out->reset(new OnednnMatMul(std::move(impl)));
  return Status::Ok();
}

Status OnednnMatMul::Run(int slice, const void* a, void* y, void* scratch) const {
  const Impl& m = *impl_;
  const size_t band = static_cast<size_t>(slice);
  const int64_t row = m.band_begin[band];
  const Impl::BandMemory& io = m.io[band];
  dnnl_memory_set_data_handle(io.a.get(),
                              const_cast<uint8_t*>(static_cast<const uint8_t*>(a)) + row * m.k * static_cast<int64_t>(sizeof(float)));
  dnnl_memory_set_data_handle(io.y.get(), static_cast<uint8_t*>(y) + row * m.n * static_cast<int64_t>(sizeof(float)));
  dnnl_memory_set_data_handle(io.scratch.get(), scratch);
  dnnl_exec_arg_t args[5] = {{DNNL_ARG_SRC, io.a.get()},
                             {DNNL_ARG_WEIGHTS, m.weights[band].get()},
                             {DNNL_ARG_DST, io.y.get()},
                             {DNNL_ARG_SCRATCHPAD, io.scratch.get()},
                             {DNNL_ARG_BIAS, m.bias ? m.bias.get() : nullptr}};
  OnednnSingleThread one_thread;
  return OnednnExecute(m.primitives[band], args, m.bias ? 5 : 4);
}

}  // namespace npurt
