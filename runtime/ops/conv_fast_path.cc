#include "runtime/ops/conv_fast_path.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/ref/quantize.h"
#if NPURT_HAVE_ONEDNN
#include "runtime/kernels/x86/onednn_conv.h"
#include "runtime/kernels/x86/requantize_avx2.h"
#include "runtime/kernels/x86/requantize_avx512.h"
#endif

namespace npurt {

#if !NPURT_HAVE_ONEDNN
// Builds without oneDNN (ARM, or -DNPURT_WITH_ONEDNN=OFF) keep the reference kernels.
class OnednnConv {};
#endif

#if NPURT_HAVE_ONEDNN
namespace {

size_t RoundUp64(size_t bytes) { return (bytes + 63) & ~size_t{63}; }

// A strided 1x1 convolution that reads no padding runs as a 1x1 of stride 1 (`dense`) on the pixels it
// reads: oneDNN's 1x1 kernel, where the strided one falls back to its general kernel (2-2.5x slower on
// ResNet-50's downsampling convolutions in NHWC on AVX2).
bool SubsampledPointwise(const ConvParams& p, bool transposed, ConvParams* dense, SubsampleGeometry* g) {
  if (transposed || p.kernel[0] != 1 || p.kernel[1] != 1 || p.kernel[2] != 1 || p.pad_begin[1] != 0 ||
      p.pad_begin[2] != 0 || (p.stride[1] == 1 && p.stride[2] == 1) || (p.out[1] - 1) * p.stride[1] >= p.in[1] ||
      (p.out[2] - 1) * p.stride[2] >= p.in[2]) {
    return false;
  }
  *g = SubsampleGeometry{p.batch, p.in_channels, p.in[1], p.in[2], p.out[1], p.out[2], p.stride[1], p.stride[2]};
  *dense = p;
  dense->in[1] = p.out[1];
  dense->in[2] = p.out[2];
  dense->stride[1] = dense->stride[2] = 1;
  return true;
}

}  // namespace
#endif

ConvFastPath::ConvFastPath() = default;
ConvFastPath::~ConvFastPath() = default;
ConvFastPath::ConvFastPath(ConvFastPath&&) noexcept = default;
ConvFastPath& ConvFastPath::operator=(ConvFastPath&&) noexcept = default;

Status ConvFastPath::Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams* quant, bool transposed,
                             const ConvResidual* residual) {
#if NPURT_HAVE_ONEDNN
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const Tensor* b = node->input(2);
  // The weights are packed once here: they must be constants.
  if (!node->may_pack_constants || !node->inputs[1]->constant || (b != nullptr && !b->constant)) return Status::Ok();
  if (residual != nullptr && transposed) return Status::Ok();
  has_residual_ = residual != nullptr;
  if (has_residual_) residual_ = *residual;
  const size_t out_elements = static_cast<size_t>(y.num_elements());
  residual_bytes_ = has_residual_ ? RoundUp64(out_elements * DataTypeSize(residual_.type)) : 0;
  if (quant != nullptr) {
    // Quantized convolutions sum exactly and npurt requantizes the sums as the reference does, so every
    // CPU target gives the reference's bits: int32 sums in oneDNN's VNNI kernels, float sums kept exact
    // without VNNI.
    return ActiveCpuTarget() >= CpuTarget::kAvx512Vnni ? PrepareAccumulating(node, p, *quant, transposed)
                                                       : PrepareFloatSums(node, p, *quant, transposed);
  }
  if (!OnednnConv::Supports(p, false)) return Status::Ok();
  ConvParams dense = p;
  subsampled_ = SubsampledPointwise(p, transposed, &dense, &subsample_);
  std::unique_ptr<OnednnConv> conv;
  const Status s = OnednnConv::Create(dense, node->inputs[1]->data, b != nullptr ? b->data : nullptr,
                                      ThreadPool::HardwareThreads(), &conv, transposed, nullptr,
                                      has_residual_ ? &residual_ : nullptr);
  if (!s.ok()) {
    NPURT_LOG(kDebug, "Conv '%s': reference kernel (%s)", node->name.c_str(), s.message().c_str());
    return Status::Ok();
  }
  // The NHWC input: x relaid, or the pixels a subsampled convolution reads.
  const int64_t staged = subsampled_ ? p.batch * p.out[1] * p.out[2] * p.in_channels : x.num_elements();
  input_bytes_ = RoundUp64(static_cast<size_t>(staged) * sizeof(float));
  output_bytes_ = RoundUp64(static_cast<size_t>(y.num_elements()) * sizeof(float));
  const size_t items = static_cast<size_t>(p.batch) * static_cast<size_t>(conv->slices());
  node->scratch_bytes =
      input_bytes_ + output_bytes_ + residual_bytes_ + items * RoundUp64(conv->scratch_bytes_per_slice());
  node->kernel = std::string(subsampled_ ? "onednn_subsampled:" : "onednn:") + conv->implementation();
  node->channels_last_io = true;
  conv_ = std::move(conv);
#else
  static_cast<void>(node);
  static_cast<void>(p);
  static_cast<void>(quant);
  static_cast<void>(transposed);
  static_cast<void>(residual);
#endif
  return Status::Ok();
}

Status ConvFastPath::Eval(OpNode* node) const {
#if NPURT_HAVE_ONEDNN
  if (accumulating_) return EvalAccumulating(node);
  if (float_sums_) return EvalFloatSums(node);
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const int64_t batch = x.shape[0], in_channels = x.shape[1], out_channels = y.shape[1];
  const int64_t in_spatial = x.num_elements() / (batch * in_channels);
  const int64_t out_spatial = y.num_elements() / (batch * out_channels);
  uint8_t* in_nhwc = node->scratch;
  uint8_t* out_nhwc = in_nhwc + input_bytes_;
  uint8_t* residual_nhwc = out_nhwc + output_bytes_;
  uint8_t* per_item = residual_nhwc + residual_bytes_;
  const size_t elem = sizeof(float);

  // Channels-last tensors (runtime/core/layout_pass.h) are read and written in place.
  const void* src = x.channels_last && !subsampled_ ? x.data : in_nhwc;
  void* dst = y.channels_last ? y.data : out_nhwc;
  if (subsampled_) {
    ParallelFor(batch * subsample_.out_h, ThreadsFor(*node, y.num_elements()), [&](int64_t begin, int64_t end) {
      subsample_to_nhwc(x.data, x.channels_last, in_nhwc, subsample_, elem, WorkRange{begin, end});
    });
  } else if (!x.channels_last) {
    ParallelFor(batch * in_spatial, ThreadsFor(*node, x.num_elements()), [&](int64_t begin, int64_t end) {
      nchw_to_nhwc(x.data, in_nhwc, batch, in_channels, in_spatial, elem, WorkRange{begin, end});
    });
  }
  NPURT_RETURN_IF_ERROR(RunBands(*conv_, batch, node->threads, src, dst, per_item, ResidualNhwc(*node, residual_nhwc)));
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

#if NPURT_HAVE_ONEDNN
const void* ConvFastPath::ResidualNhwc(const OpNode& node, uint8_t* staging) const {
  if (!has_residual_) return nullptr;
  const Tensor& r = *node.inputs[3];
  if (r.channels_last) return r.data;
  const int64_t batch = r.shape[0], channels = r.shape[1], spatial = r.num_elements() / (batch * channels);
  ParallelFor(batch * spatial, ThreadsFor(node, r.num_elements()), [&](int64_t begin, int64_t end) {
    nchw_to_nhwc(r.data, staging, batch, channels, spatial, DataTypeSize(r.dtype), WorkRange{begin, end});
  });
  return staging;
}

Status ConvFastPath::RunBands(const OnednnConv& conv, int64_t batch, int threads, const void* input, void* output,
                              uint8_t* scratch, const void* residual) const {
  const int slices = conv.slices();
  const size_t item_scratch = RoundUp64(conv.scratch_bytes_per_slice());
  std::atomic<bool> failed{false};
  ParallelFor(batch * slices, threads, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const Status s = conv.Run(i / slices, static_cast<int>(i % slices), input, output,
                                scratch + static_cast<size_t>(i) * item_scratch, residual);
      if (!s.ok()) {
        NPURT_LOG(kDebug, "a convolution band: %s", s.message().c_str());
        failed.store(true, std::memory_order_relaxed);
      }
    }
  });
  if (failed.load()) return NPURT_ERROR(kFail, "the oneDNN convolution failed");
  return Status::Ok();
}

Status ConvFastPath::PrepareAccumulating(OpNode* node, const ConvParams& p, const ConvQuantParams& quant,
                                         bool transposed) {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  auto codes = [](DataType t) { return t == DataType::kInt8 || t == DataType::kInt16; };
  if (!OnednnConv::Supports(p, true) || !codes(x.dtype) || !codes(y.dtype) ||
      node->inputs[1]->dtype != DataType::kInt8 || (has_residual_ && !codes(residual_.type))) {
    return Status::Ok();
  }
  const bool int16_input = x.dtype == DataType::kInt16;
  if (p.groups > 1 && (p.pad_begin[0] != 0 || p.pad_begin[1] != 0 || p.pad_begin[2] != 0)) {
    // oneDNN 2.6.3's grouped, padded s8 convolutions with a zero point gave wrong sums (one input channel
    // per group, a dilation, a stride above the kernel: the harness's regression shape); such layers take
    // the next path (npurt's int8 kernels take them where the CPU has any).
    NPURT_LOG(kDebug, "%s '%s': grouped and padded, not oneDNN's s32 sums", node->def->name, node->name.c_str());
    return Status::Ok();
  }
  const int32_t zp = quant.input_zero_point;
  OnednnConvAccumulate high{false, int16_input ? (zp >> 8) : zp};  // arithmetic shift: floor(zp / 256)
  OnednnConvAccumulate low{true, zp & 255};
  std::unique_ptr<OnednnConv> high_conv, low_conv;
  const int slices = ThreadPool::HardwareThreads();
  Status s = OnednnConv::Create(p, node->inputs[1]->data, nullptr, slices, &high_conv, transposed, &high);
  if (s.ok() && int16_input) {
    s = OnednnConv::Create(p, node->inputs[1]->data, nullptr, slices, &low_conv, transposed, &low);
  }
  if (!s.ok()) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (%s)", node->def->name, node->name.c_str(), s.message().c_str());
    return Status::Ok();
  }
  const size_t in_elements = static_cast<size_t>(x.num_elements());
  const size_t out_elements = static_cast<size_t>(y.num_elements());
  // NHWC: the high bytes (an int8 input's relayout), an int16 input's low bytes and relayout; the int32
  // sums (high and low), the requantized output.
  input_bytes_ = RoundUp64(in_elements) * (int16_input ? 2 : 1) + (int16_input ? RoundUp64(in_elements * 2) : 0);
  output_bytes_ = RoundUp64(out_elements * 4) * (int16_input ? 2 : 1) + RoundUp64(out_elements * 2);
  const size_t items = static_cast<size_t>(p.batch) * static_cast<size_t>(high_conv->slices());
  size_t per_item = RoundUp64(high_conv->scratch_bytes_per_slice());
  if (low_conv) per_item = std::max(per_item, RoundUp64(low_conv->scratch_bytes_per_slice()));
  node->scratch_bytes = input_bytes_ + output_bytes_ + residual_bytes_ + items * per_item;
  node->kernel = std::string(int16_input ? "onednn_s32sum_int16:" : "onednn_s32sum:") + high_conv->implementation();
  node->channels_last_io = true;
  quant_ = quant;
  activation_ = p.activation;
  accumulating_ = true;
  conv_ = std::move(high_conv);
  low_conv_ = std::move(low_conv);
  return Status::Ok();
}

RequantizeRowsParams ConvFastPath::RequantizeParams(const OpNode& node) const {
  const Tensor* bias = node.input(2);
  RequantizeRowsParams rq;
  rq.channels = node.outputs[0]->shape[1];
  rq.bias = bias != nullptr ? bias->as<int32_t>() : nullptr;
  rq.acc_scale = quant_.acc_scale.data();
  rq.activation = activation_;
  rq.out_scale = quant_.output_scale;
  rq.out_zero_point = quant_.output_zero_point;
  rq.out_min = quant_.output_min;
  rq.out_max = quant_.output_max;
  rq.out_type = node.outputs[0]->dtype;
  if (has_residual_) rq.residual = residual_;  // eval points rq.residual.data at the NHWC codes
  return rq;
}

Status ConvFastPath::PrepareFloatSums(OpNode* node, const ConvParams& p, const ConvQuantParams& quant,
                                      bool transposed) {
  ConvParams plain = p;  // the activation applies after the bias, in the requantization
  plain.activation = FusedActivationParams();
  if (!OnednnConv::Supports(plain, false)) return Status::Ok();
  // A subsampled convolution's float conversion picks out the pixels it reads: a quarter of the
  // conversions at stride 2, too.
  ConvParams sums = plain;
  subsampled_ = SubsampledPointwise(plain, transposed, &sums, &subsample_);
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const Tensor& w = *node->inputs[1];
  if (w.dtype != DataType::kInt8 || (x.dtype != DataType::kInt8 && x.dtype != DataType::kInt16)) return Status::Ok();
  // Conv weights (M, C / groups, kH, kW): one row per output channel. ConvTranspose (C, M / groups, kH, kW):
  // output channel j of group g sums over that group's C / groups input channels.
  int64_t weight_sum = 0;
  if (transposed) {
    const int64_t group_in = p.in_channels / p.groups, group_out = p.out_channels / p.groups;
    const int64_t taps = p.kernel[1] * p.kernel[2];
    for (int64_t g = 0; g < p.groups; ++g) {
      weight_sum = std::max(weight_sum, MaxAbsWeightSum(w.as<int8_t>() + g * group_in * group_out * taps, group_in,
                                                        group_out, taps));
    }
  } else {
    weight_sum = MaxAbsWeightSum(w.as<int8_t>(), 1, p.out_channels, w.num_elements() / p.out_channels);
  }
  if (!ChooseFloatSumSplit(x.dtype, quant.input_zero_point, weight_sum, &split_)) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (float sums could round: weights of absolute sum %lld)",
              node->def->name, node->name.c_str(), static_cast<long long>(weight_sum));
    return Status::Ok();
  }
  std::vector<float> weights(static_cast<size_t>(w.num_elements()));
  const int8_t* codes = w.as<int8_t>();
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = codes[i];
  // Bands small enough that one's float input and sums stay in the L2 cache between the conversion, the
  // library call and the requantization (at least one band per thread).
  const int threads = ThreadPool::HardwareThreads();
  const int64_t float_bytes = (x.num_elements() + y.num_elements()) * 4 / p.batch;
  const int64_t bands = std::max<int64_t>(threads, (float_bytes + kFloatSumBandBytes - 1) / kFloatSumBandBytes);
  std::unique_ptr<OnednnConv> conv;
  const Status s = OnednnConv::Create(sums, weights.data(), nullptr, static_cast<int>(bands), &conv, transposed);
  if (!s.ok()) {
    NPURT_LOG(kDebug, "%s '%s': reference kernel (%s)", node->def->name, node->name.c_str(), s.message().c_str());
    return Status::Ok();
  }
  int64_t band_in = 0, band_out = 0;
  for (int slice = 0; slice < conv->slices(); ++slice) {
    const OnednnConv::BandSpan span = conv->band(0, slice);
    band_in = std::max(band_in, span.input_elements);
    band_out = std::max(band_out, span.output_elements);
  }
  // Whole tensors: an NCHW input's NHWC relayout and an NCHW output's NHWC staging (int16 at most);
  // per thread: a band's float input, its sums and the library's scratch.
  input_bytes_ = RoundUp64(static_cast<size_t>(x.num_elements()) * 2);
  output_bytes_ = RoundUp64(static_cast<size_t>(y.num_elements()) * 2);
  band_input_bytes_ = RoundUp64(static_cast<size_t>(band_in) * 4);
  band_sums_bytes_ = RoundUp64(static_cast<size_t>(band_out) * 4);
  slot_bytes_ = (band_input_bytes_ + band_sums_bytes_) * static_cast<size_t>(split_.pieces) +
                RoundUp64(conv->scratch_bytes_per_slice());
  slots_ = threads;
  node->scratch_bytes = input_bytes_ + output_bytes_ + residual_bytes_ + static_cast<size_t>(slots_) * slot_bytes_;
  node->kernel = std::string(subsampled_ ? "onednn_f32sum_subsampled:" : "onednn_f32sum:") + conv->implementation();
  if (split_.pieces == 2) node->kernel += " in 2 pieces";
  node->channels_last_io = true;
  quant_ = quant;
  activation_ = p.activation;
  float_sums_ = true;
  conv_ = std::move(conv);
  return Status::Ok();
}

Status ConvFastPath::EvalFloatSums(OpNode* node) const {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const int64_t batch = x.shape[0], in_channels = x.shape[1], out_channels = y.shape[1];
  const int64_t in_spatial = x.num_elements() / (batch * in_channels);
  const int64_t out_spatial = y.num_elements() / (batch * out_channels);
  const size_t in_elem = x.dtype == DataType::kInt16 ? 2 : 1;
  const size_t out_elem = y.dtype == DataType::kInt16 ? 2 : 1;
  uint8_t* staged_input = node->scratch;
  uint8_t* staged_output = node->scratch + input_bytes_;
  uint8_t* residual_nhwc = staged_output + output_bytes_;
  uint8_t* slots = residual_nhwc + residual_bytes_;

  // An NCHW input in NHWC order first; channels-last tensors are read and written in place.
  const uint8_t* codes = static_cast<const uint8_t*>(x.data);
  if (!x.channels_last) {
    ParallelFor(batch * in_spatial, ThreadsFor(*node, x.num_elements()), [&](int64_t begin, int64_t end) {
      nchw_to_nhwc(x.data, staged_input, batch, in_channels, in_spatial, in_elem, WorkRange{begin, end});
    });
    codes = staged_input;
  }
  uint8_t* out = y.channels_last ? static_cast<uint8_t*>(y.data) : staged_output;

  RequantizeRowsParams rq = RequantizeParams(*node);
  rq.residual.data = ResidualNhwc(*node, residual_nhwc);
  // Each thread takes a contiguous run of bands and, per band: codes -> float (x - zero point), the library
  // sums, requantization into the output rows.
  const int workers = std::clamp(node->threads, 1, slots_);  // a test may ask for more threads than there are
  const int64_t items = batch * conv_->slices();
  std::atomic<bool> failed{false};
  ParallelFor(workers, workers, [&](int64_t first_worker, int64_t end_worker) {
    for (int64_t worker = first_worker; worker < end_worker; ++worker) {
      uint8_t* mine = slots + static_cast<size_t>(worker) * slot_bytes_;
      const bool two = split_.pieces == 2;
      float* band_input = reinterpret_cast<float*>(mine);
      float* band_sums = reinterpret_cast<float*>(mine + band_input_bytes_);
      float* low_input = two ? reinterpret_cast<float*>(mine + band_input_bytes_ + band_sums_bytes_) : nullptr;
      float* low_sums = two ? reinterpret_cast<float*>(mine + band_input_bytes_ * 2 + band_sums_bytes_) : nullptr;
      uint8_t* library_scratch = mine + (band_input_bytes_ + band_sums_bytes_) * static_cast<size_t>(split_.pieces);
      // `count` codes to float (x - zero point), or to its two pieces, at element `at` of the band.
      auto to_float = [&](const uint8_t* from, int64_t at, int64_t count) {
        if (two) {
          codes_to_float_pieces__avx2(from, x.dtype, quant_.input_zero_point, split_.shift, band_input + at,
                                      low_input + at, WorkRange{0, count});
        } else {
          codes_to_float__avx2(from, x.dtype, quant_.input_zero_point, band_input + at, WorkRange{0, count});
        }
      };
      for (int64_t i = worker * items / workers, end = (worker + 1) * items / workers; i < end; ++i) {
        const int64_t n = i / conv_->slices();
        const int slice = static_cast<int>(i % conv_->slices());
        const OnednnConv::BandSpan span = conv_->band(n, slice);
        if (subsampled_) {
          // Output pixel q of the image reads input pixel (q / oW * sH, q % oW * sW).
          const SubsampleGeometry& g = subsample_;
          const int64_t first = span.output_offset / out_channels - n * out_spatial;
          const uint8_t* image = codes + static_cast<size_t>(n * in_spatial * in_channels) * in_elem;
          for (int64_t q = first, end = first + span.output_elements / out_channels; q < end; ++q) {
            const int64_t pixel = q / g.out_w * g.stride_h * g.in_w + q % g.out_w * g.stride_w;
            to_float(image + static_cast<size_t>(pixel * in_channels) * in_elem, (q - first) * in_channels,
                     in_channels);
          }
        } else {
          to_float(codes + static_cast<size_t>(span.input_offset) * in_elem, 0, span.input_elements);
        }
        if (!conv_->RunBand(n, slice, band_input, band_sums, library_scratch).ok() ||
            (two && !conv_->RunBand(n, slice, low_input, low_sums, library_scratch).ok())) {
          failed.store(true, std::memory_order_relaxed);
          continue;
        }
        requantize_float_rows__avx2(RowsFrom(rq, span.output_offset), band_sums,
                                    out + static_cast<size_t>(span.output_offset) * out_elem,
                                    WorkRange{0, span.output_elements / out_channels}, low_sums, split_.shift);
      }
    }
  });
  if (failed.load()) return NPURT_ERROR(kFail, "the oneDNN convolution failed");
  if (!y.channels_last) {
    ParallelFor(batch * out_spatial, ThreadsFor(*node, y.num_elements()), [&](int64_t begin, int64_t end) {
      nhwc_to_nchw(staged_output, y.data, batch, out_channels, out_spatial, out_elem, WorkRange{begin, end});
    });
  }
  return Status::Ok();
}

Status ConvFastPath::EvalAccumulating(OpNode* node) const {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  const int64_t batch = x.shape[0], in_channels = x.shape[1], out_channels = y.shape[1];
  const int64_t in_spatial = x.num_elements() / (batch * in_channels);
  const int64_t out_spatial = y.num_elements() / (batch * out_channels);
  const bool int16_input = x.dtype == DataType::kInt16;
  const size_t in_elements = static_cast<size_t>(x.num_elements());
  const size_t out_elements = static_cast<size_t>(y.num_elements());
  // The scratch as PrepareAccumulating laid it out; the low planes and the int16 staging only for int16 inputs.
  const size_t pieces = int16_input ? 2 : 1;
  int8_t* high = reinterpret_cast<int8_t*>(node->scratch);
  uint8_t* low = int16_input ? node->scratch + RoundUp64(in_elements) : nullptr;
  int16_t* staged_input = int16_input ? reinterpret_cast<int16_t*>(node->scratch + RoundUp64(in_elements) * 2) : nullptr;
  int32_t* high_sum = reinterpret_cast<int32_t*>(node->scratch + input_bytes_);
  int32_t* low_sum =
      int16_input ? reinterpret_cast<int32_t*>(node->scratch + input_bytes_ + RoundUp64(out_elements * 4)) : nullptr;
  uint8_t* staged_output = node->scratch + input_bytes_ + RoundUp64(out_elements * 4) * pieces;
  uint8_t* residual_nhwc = node->scratch + input_bytes_ + output_bytes_;
  uint8_t* per_item = residual_nhwc + residual_bytes_;

  // NHWC codes: channels-last tensors are read and written in place, NCHW ones relaid (tiled); an int16
  // input is then cut into its high and low bytes, both passes streaming.
  const int in_threads = ThreadsFor(*node, x.num_elements());
  const void* codes = x.data;
  if (!x.channels_last) {
    void* relaid = int16_input ? static_cast<void*>(staged_input) : high;
    ParallelFor(batch * in_spatial, in_threads, [&](int64_t begin, int64_t end) {
      nchw_to_nhwc(x.data, relaid, batch, in_channels, in_spatial, int16_input ? 2 : 1, WorkRange{begin, end});
    });
    codes = relaid;
  }
  const void* high_codes = codes;
  if (int16_input) {
    const int16_t* wide = static_cast<const int16_t*>(codes);
    ParallelFor(static_cast<int64_t>(in_elements), in_threads, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        high[i] = static_cast<int8_t>(wide[i] >> 8);
        low[i] = static_cast<uint8_t>(wide[i] & 255);
      }
    });
    high_codes = high;
  }
  NPURT_RETURN_IF_ERROR(RunBands(*conv_, batch, node->threads, high_codes, high_sum, per_item));
  if (low_conv_) NPURT_RETURN_IF_ERROR(RunBands(*low_conv_, batch, node->threads, low, low_sum, per_item));

  // acc = bias + 256 * high sum + low sum, requantized as the reference does (in NHWC order), then to NCHW.
  const bool out16 = y.dtype == DataType::kInt16;
  const int out_threads = ThreadsFor(*node, y.num_elements() * 4);
  RequantizeRowsParams rq = RequantizeParams(*node);
  rq.residual.data = ResidualNhwc(*node, residual_nhwc);
  void* out = y.channels_last ? y.data : staged_output;
  ParallelFor(batch * out_spatial, out_threads, [&](int64_t begin, int64_t end) {
    requantize_rows__avx512(rq, high_sum, low_sum, out, WorkRange{begin, end});
  });
  if (!y.channels_last) {
    ParallelFor(batch * out_spatial, out_threads, [&](int64_t begin, int64_t end) {
      nhwc_to_nchw(staged_output, y.data, batch, out_channels, out_spatial, out16 ? 2 : 1, WorkRange{begin, end});
    });
  }
  return Status::Ok();
}
#endif

}  // namespace npurt
