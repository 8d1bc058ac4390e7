#include "runtime/ops/conv_fast_path.h"

#include <atomic>

#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernels/ref/layout.h"
#if NPURT_HAVE_ONEDNN
#include "runtime/kernels/x86/onednn_conv.h"
#endif

namespace npurt {

#if !NPURT_HAVE_ONEDNN
// Builds without oneDNN (ARM, or -DNPURT_WITH_ONEDNN=OFF) keep the reference kernels.
class OnednnConv {};
#endif

namespace {

size_t RoundUp64(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

}  // namespace

ConvFastPath::ConvFastPath() = default;
ConvFastPath::~ConvFastPath() = default;
ConvFastPath::ConvFastPath(ConvFastPath&&) noexcept = default;
ConvFastPath& ConvFastPath::operator=(ConvFastPath&&) noexcept = default;

Status ConvFastPath::Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams* quant, bool transposed) {
#if NPURT_HAVE_ONEDNN
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const Tensor* b = node->input(2);
  // int8 in and out (int16 tensors of the hybrid scheme stay on the reference kernel).
  if (quant != nullptr && (x.dtype != DataType::kInt8 || y.dtype != DataType::kInt8)) return Status::Ok();
  // The weights are packed once here: they must be constants.
  if (!node->may_pack_constants || !node->inputs[1]->constant || (b != nullptr && !b->constant)) return Status::Ok();
  if (!OnednnConv::Supports(p, quant != nullptr)) return Status::Ok();
  std::unique_ptr<OnednnConv> conv;
  const Status s = OnednnConv::Create(p, quant, node->inputs[1]->data, b != nullptr ? b->data : nullptr,
                                      ThreadPool::HardwareThreads(), &conv, transposed);
  if (!s.ok()) {
    NPURT_LOG(kDebug, "Conv '%s': reference kernel (%s)", node->name.c_str(), s.message().c_str());
    return Status::Ok();
  }
  elem_ = quant != nullptr ? 1 : 4;
  input_bytes_ = RoundUp64(static_cast<size_t>(x.num_elements()) * elem_);
  output_bytes_ = RoundUp64(static_cast<size_t>(y.num_elements()) * elem_);
  const size_t items = static_cast<size_t>(p.batch) * static_cast<size_t>(conv->slices());
  node->scratch_bytes = input_bytes_ + output_bytes_ + items * RoundUp64(conv->scratch_bytes_per_slice());
  node->kernel = "onednn:" + conv->implementation();
  node->channels_last_io = true;
  conv_ = std::move(conv);
#else
  static_cast<void>(node);
  static_cast<void>(p);
  static_cast<void>(quant);
  static_cast<void>(transposed);
#endif
  return Status::Ok();
}

Status ConvFastPath::Eval(OpNode* node) const {
#if NPURT_HAVE_ONEDNN
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const int64_t batch = x.shape[0], in_channels = x.shape[1], out_channels = y.shape[1];
  const int64_t in_spatial = x.num_elements() / (batch * in_channels);
  const int64_t out_spatial = y.num_elements() / (batch * out_channels);
  uint8_t* in_nhwc = node->scratch;
  uint8_t* out_nhwc = in_nhwc + input_bytes_;
  uint8_t* per_item = out_nhwc + output_bytes_;
  const size_t item_scratch = RoundUp64(conv_->scratch_bytes_per_slice());
  const size_t elem = elem_;

  // Channels-last tensors (runtime/core/layout_pass.h) are read and written in place.
  const void* src = x.channels_last ? x.data : in_nhwc;
  void* dst = y.channels_last ? y.data : out_nhwc;
  if (!x.channels_last) {
    ParallelFor(batch * in_spatial, ThreadsFor(*node, x.num_elements()), [&](int64_t begin, int64_t end) {
      nchw_to_nhwc(x.data, in_nhwc, batch, in_channels, in_spatial, elem, WorkRange{begin, end});
    });
  }
  const int slices = conv_->slices();
  std::atomic<bool> failed{false};
  ParallelFor(batch * slices, node->threads, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const Status s = conv_->Run(i / slices, static_cast<int>(i % slices), src, dst,
                                  per_item + static_cast<size_t>(i) * item_scratch);
      if (!s.ok()) failed.store(true, std::memory_order_relaxed);
    }
  });
  if (failed.load()) return NPURT_ERROR(kFail, "the oneDNN convolution failed");
  if (!y.channels_last) {
    ParallelFor(batch * out_spatial, ThreadsFor(*node, y.num_elements()), [&](int64_t begin, int64_t end) {
      nhwc_to_nchw(out_nhwc, y.data, batch, out_channels, out_spatial, elem, WorkRange{begin, end});
    });
  }
  return Status::Ok();
#else
  static_cast<void>(node);
  return NPURT_ERROR(kFail, "no optimized convolution in this build");
#endif
}

}  // namespace npurt
