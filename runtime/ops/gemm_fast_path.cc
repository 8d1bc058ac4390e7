#include "runtime/ops/gemm_fast_path.h"

#include <atomic>

#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#if NPURT_HAVE_ONEDNN
#include "runtime/kernels/x86/onednn_matmul.h"
#endif

namespace npurt {

#if !NPURT_HAVE_ONEDNN
class OnednnMatMul {};
#endif

GemmFastPath::GemmFastPath() = default;
GemmFastPath::~GemmFastPath() = default;
GemmFastPath::GemmFastPath(GemmFastPath&&) noexcept = default;
GemmFastPath& GemmFastPath::operator=(GemmFastPath&&) noexcept = default;

Status GemmFastPath::Prepare(OpNode* node, const GemmFastShape& shape, const Tensor* bias) {
#if NPURT_HAVE_ONEDNN
  const Tensor& a = *node->inputs[0];
  const Tensor& b = *node->inputs[1];
  const Tensor& y = *node->outputs[0];
  const DataType type = shape.quantized ? DataType::kInt8 : DataType::kFloat32;
  if (a.dtype != type || b.dtype != type || y.dtype != type) return Status::Ok();
  if (!node->may_pack_constants || !b.constant || (bias != nullptr && !bias->constant)) return Status::Ok();
  OnednnMatMulShape s;
  s.m = shape.rows;
  s.n = shape.n;
  s.k = shape.k;
  s.trans_b = shape.trans_b;
  s.activation = shape.activation;
  if (!OnednnMatMul::Supports(s, shape.quantized)) return Status::Ok();
  OnednnMatMulQuant q;
  q.a_zero_point = shape.a_zero_point;
  q.acc_scale = shape.acc_scale.data();
  q.output_scale = shape.output_scale;
  q.output_zero_point = shape.output_zero_point;
  std::unique_ptr<OnednnMatMul> matmul;
  const Status st = OnednnMatMul::Create(s, shape.quantized ? &q : nullptr, b.data,
                                         bias != nullptr ? bias->data : nullptr, ThreadPool::HardwareThreads(), &matmul);
  if (!st.ok()) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (%s)", node->def->name, node->name.c_str(), st.message().c_str());
    return Status::Ok();
  }
  node->scratch_bytes = static_cast<size_t>(matmul->slices()) * ((matmul->scratch_bytes_per_slice() + 63) & ~size_t{63});
  node->kernel = "onednn:" + matmul->implementation();
  matmul_ = std::move(matmul);
#else
  static_cast<void>(node);
  static_cast<void>(shape);
  static_cast<void>(bias);
#endif
  return Status::Ok();
}

Status GemmFastPath::Eval(OpNode* node) const {
#if NPURT_HAVE_ONEDNN
  const size_t scratch = (matmul_->scratch_bytes_per_slice() + 63) & ~size_t{63};
  std::atomic<bool> failed{false};
  ParallelFor(matmul_->slices(), node->threads, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const Status s = matmul_->Run(static_cast<int>(i), node->inputs[0]->data, node->outputs[0]->data,
                                    node->scratch + static_cast<size_t>(i) * scratch);
      if (!s.ok()) failed.store(true, std::memory_order_relaxed);
    }
  });
  if (failed.load()) return NPURT_ERROR(kFail, "the oneDNN matmul failed");
  return Status::Ok();
#else
  static_cast<void>(node);
  return NPURT_ERROR(kFail, "no optimized matmul in this build");
#endif
}

}  // namespace npurt
