#include "runtime/ops/gemm_fast_path.h"

#include <atomic>
#include <vector>

#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#if NPURT_HAVE_ONEDNN
#include "runtime/kernels/x86/onednn_matmul.h"
#include "runtime/kernels/x86/requantize_avx2.h"
#endif

namespace npurt {

#if !NPURT_HAVE_ONEDNN
class OnednnMatMul {};
#endif

#if NPURT_HAVE_ONEDNN
namespace {

size_t RoundUp64(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

}  // namespace
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
  if (!node->may_pack_constants || !b.constant || (bias != nullptr && !bias->constant)) return Status::Ok();
  // Quantized: exact float sums, requantized by npurt as the reference does, on every CPU target.
  if (shape.quantized) return PrepareFloatSums(node, shape, bias);
  const DataType type = DataType::kFloat32;
  if (a.dtype != type || b.dtype != type || y.dtype != type) return Status::Ok();
  OnednnMatMulShape s;
  s.m = shape.rows;
  s.n = shape.n;
  s.k = shape.k;
  s.trans_b = shape.trans_b;
  s.activation = shape.activation;
  if (!OnednnMatMul::Supports(s)) return Status::Ok();
  std::unique_ptr<OnednnMatMul> matmul;
  const Status st = OnednnMatMul::Create(s, b.data, bias != nullptr ? bias->data : nullptr,
                                         ThreadPool::HardwareThreads(), &matmul);
  if (!st.ok()) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (%s)", node->def->name, node->name.c_str(), st.message().c_str());
    return Status::Ok();
  }
  node->scratch_bytes = static_cast<size_t>(matmul->slices()) * RoundUp64(matmul->scratch_bytes_per_slice());
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
  if (float_sums_) return EvalFloatSums(node);
  return RunSlices(node->threads, node->inputs[0]->data, node->outputs[0]->data, node->scratch);
#else
  static_cast<void>(node);
  return NPURT_ERROR(kFail, "no optimized matmul in this build");
#endif
}

#if NPURT_HAVE_ONEDNN
Status GemmFastPath::RunSlices(int threads, const void* a, void* output, uint8_t* scratch) const {
  const size_t per_slice = RoundUp64(matmul_->scratch_bytes_per_slice());
  std::atomic<bool> failed{false};
  ParallelFor(matmul_->slices(), threads, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const Status s = matmul_->Run(static_cast<int>(i), a, output, scratch + static_cast<size_t>(i) * per_slice);
      if (!s.ok()) failed.store(true, std::memory_order_relaxed);
    }
  });
  if (failed.load()) return NPURT_ERROR(kFail, "the oneDNN matmul failed");
  return Status::Ok();
}

Status GemmFastPath::PrepareFloatSums(OpNode* node, const GemmFastShape& shape, const Tensor* bias) {
  const Tensor& a = *node->inputs[0];
  const Tensor& b = *node->inputs[1];
  const Tensor& y = *node->outputs[0];
  auto activation_type = [](DataType t) { return t == DataType::kInt8 || t == DataType::kInt16; };
  if (!activation_type(a.dtype) || !activation_type(y.dtype) || b.dtype != DataType::kInt8) return Status::Ok();
  if (bias != nullptr && bias->dtype != DataType::kInt32) return Status::Ok();
  OnednnMatMulShape s;
  s.m = shape.rows;
  s.n = shape.n;
  s.k = shape.k;
  s.trans_b = shape.trans_b;  // the activation applies after the bias, in the requantization
  if (!OnednnMatMul::Supports(s)) return Status::Ok();
  const int8_t* codes = b.as<int8_t>();
  const int64_t weight_sum = shape.trans_b ? MaxAbsWeightSum(codes, 1, shape.n, shape.k)
                                           : MaxAbsWeightSum(codes, shape.k, shape.n, 1);
  if (!ChooseFloatSumSplit(a.dtype, shape.a_zero_point, weight_sum, &split_)) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (float sums could round: weights of absolute sum %lld)",
              node->def->name, node->name.c_str(), static_cast<long long>(weight_sum));
    return Status::Ok();
  }
  std::vector<float> weights(static_cast<size_t>(b.num_elements()));
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = codes[i];
  std::unique_ptr<OnednnMatMul> matmul;
  const Status st = OnednnMatMul::Create(s, weights.data(), nullptr, ThreadPool::HardwareThreads(), &matmul);
  if (!st.ok()) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (%s)", node->def->name, node->name.c_str(), st.message().c_str());
    return Status::Ok();
  }
  a_bytes_ = RoundUp64(static_cast<size_t>(shape.rows * shape.k) * 4);
  sums_bytes_ = RoundUp64(static_cast<size_t>(shape.rows * shape.n) * 4);
  node->scratch_bytes = (a_bytes_ + sums_bytes_) * static_cast<size_t>(split_.pieces) +
                        static_cast<size_t>(matmul->slices()) * RoundUp64(matmul->scratch_bytes_per_slice());
  node->kernel = "onednn_f32sum:" + matmul->implementation();
  if (split_.pieces == 2) node->kernel += " in 2 pieces";
  shape_ = shape;
  bias_ = bias;
  float_sums_ = true;
  matmul_ = std::move(matmul);
  return Status::Ok();
}

Status GemmFastPath::EvalFloatSums(OpNode* node) const {
  const Tensor& a = *node->inputs[0];
  Tensor& y = *node->outputs[0];
  const bool two = split_.pieces == 2;
  float* a_float = reinterpret_cast<float*>(node->scratch);
  float* sums = reinterpret_cast<float*>(node->scratch + a_bytes_);
  float* low_a = two ? reinterpret_cast<float*>(node->scratch + a_bytes_ + sums_bytes_) : nullptr;
  float* low_sums = two ? reinterpret_cast<float*>(node->scratch + a_bytes_ * 2 + sums_bytes_) : nullptr;
  uint8_t* library_scratch = node->scratch + (a_bytes_ + sums_bytes_) * static_cast<size_t>(split_.pieces);
  const int64_t a_elements = shape_.rows * shape_.k;
  ParallelFor(a_elements, ThreadsFor(*node, a_elements), [&](int64_t begin, int64_t end) {
    if (two) {
      codes_to_float_pieces__avx2(a.data, a.dtype, shape_.a_zero_point, split_.shift, a_float, low_a,
                                  WorkRange{begin, end});
    } else {
      codes_to_float__avx2(a.data, a.dtype, shape_.a_zero_point, a_float, WorkRange{begin, end});
    }
  });
  NPURT_RETURN_IF_ERROR(RunSlices(node->threads, a_float, sums, library_scratch));
  if (two) NPURT_RETURN_IF_ERROR(RunSlices(node->threads, low_a, low_sums, library_scratch));
  RequantizeRowsParams rq;
  rq.channels = shape_.n;
  rq.bias = bias_ != nullptr ? bias_->as<int32_t>() : nullptr;
  rq.acc_scale = shape_.acc_scale.data();
  rq.activation = shape_.activation;
  rq.out_scale = shape_.output_scale;
  rq.out_zero_point = shape_.output_zero_point;
  rq.out_min = shape_.output_min;
  rq.out_max = shape_.output_max;
  rq.out_type = y.dtype;
  ParallelFor(shape_.rows, ThreadsFor(*node, shape_.rows * shape_.n * 4), [&](int64_t begin, int64_t end) {
    requantize_float_rows__avx2(rq, sums, y.data, WorkRange{begin, end}, low_sums, split_.shift);
  });
  return Status::Ok();
}
#endif

}  // namespace npurt
