#include "runtime/kernels/x86/onednn_common.h"

#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cstring>

#include "runtime/kernels/dispatch.h"

namespace npurt {

namespace {

dnnl::cpu_isa IsaFor(CpuTarget target) {
  switch (target) {
    case CpuTarget::kRef:
    case CpuTarget::kPortable:
    case CpuTarget::kAvx2: return dnnl::cpu_isa::avx2;
    case CpuTarget::kAvx512: return dnnl::cpu_isa::avx512_core;
    case CpuTarget::kAvx512Vnni: return dnnl::cpu_isa::avx512_core_vnni;
  }
  return dnnl::cpu_isa::avx2;
}

}  // namespace

const dnnl::engine& OnednnEngine() {
  static const dnnl::engine engine = [] {
    // Only effective before the first JIT kernel is made; failure (a later call) changes nothing.
    dnnl_set_max_cpu_isa(static_cast<dnnl_cpu_isa_t>(IsaFor(ActiveCpuTarget())));
    return dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return engine;
}

const dnnl::stream& OnednnStream() {
  static const dnnl::stream stream(OnednnEngine());
  return stream;
}

std::mutex& OnednnCreationMutex() {
  static std::mutex mutex;
  return mutex;
}

OnednnSingleThread::OnednnSingleThread() : saved_(omp_get_max_threads()) {
  if (saved_ != 1) omp_set_num_threads(1);
}

OnednnSingleThread::~OnednnSingleThread() {
  if (saved_ != 1) omp_set_num_threads(saved_);
}

Status OnednnExecute(const dnnl::primitive& primitive, const dnnl_exec_arg_t* args, int count) {
  const dnnl_status_t s = dnnl_primitive_execute(primitive.get(), OnednnStream().get(), count, args);
  if (s != dnnl_success) return NPURT_ERROR(kFail, "oneDNN primitive execution failed (status %d)", static_cast<int>(s));
  return Status::Ok();
}

void AppendActivation(const FusedActivationParams& a, dnnl::post_ops* po) {
  using A = dnnl::algorithm;
  switch (a.kind) {
    case FusedActivation::kNone: break;
    case FusedActivation::kRelu: po->append_eltwise(1.0f, A::eltwise_relu, 0.0f, 0.0f); break;
    case FusedActivation::kLeakyRelu: po->append_eltwise(1.0f, A::eltwise_relu, a.a, 0.0f); break;
    case FusedActivation::kClip:
      po->append_eltwise(1.0f, A::eltwise_clip, std::max(a.a, -FLT_MAX), std::min(a.b, FLT_MAX));
      break;
    case FusedActivation::kHardSigmoid:
      po->append_eltwise(1.0f, A::eltwise_linear, a.a, a.b);
      po->append_eltwise(1.0f, A::eltwise_clip, 0.0f, 1.0f);
      break;
    case FusedActivation::kHardSwish: po->append_eltwise(1.0f, A::eltwise_hardswish, 0.0f, 0.0f); break;
  }
}

dnnl::memory PackedWeights(const dnnl::memory& user, const dnnl::memory::desc& packed,
                           const std::vector<dnnl::memory>& done) {
  for (const dnnl::memory& w : done) {
    if (w.get_desc() == packed) return w;
  }
  dnnl::memory w(packed, OnednnEngine());
  dnnl::reorder(user, w).execute(OnednnStream(), const_cast<dnnl::memory&>(user), w);
  return w;
}

dnnl::memory CopiedMemory(const dnnl::memory::desc& md, const void* data) {
  dnnl::memory m(md, OnednnEngine());
  std::memcpy(m.get_data_handle(), data, md.get_size());
  return m;
}

Status OnednnError(const dnnl::error& e, const char* what) {
  return NPURT_ERROR(kFail, "oneDNN cannot make %s: %s (status %d)", what, e.what(), static_cast<int>(e.status));
}

}  // namespace npurt
