#include "runtime/ops/conv_int8_path.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernels/int8/requantize_kernels.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/ops/float_sum_split.h"

namespace npurt {
namespace {

size_t RoundUp64(size_t bytes) { return (bytes + 63) & ~size_t{63}; }
bool Codes(DataType t) { return t == DataType::kInt8 || t == DataType::kInt16; }

// The two pieces of int16 inputs, d = x - zero point = 256 h + l (0 <= l < 256), into two staged images of
// int16 pairs (a group's padding elements 0).
void StagePieces(const IgemmStageArgs& s, uint8_t* high_image, uint8_t* low_image, WorkRange pixels) {
  const int16_t* in = static_cast<const int16_t*>(s.input);
  for (int64_t p = pixels.begin; p < pixels.end; ++p) {
    int16_t* high = reinterpret_cast<int16_t*>(high_image + p * s.row_bytes);
    int16_t* low = reinterpret_cast<int16_t*>(low_image + p * s.row_bytes);
    std::memset(high, 0, static_cast<size_t>(s.row_bytes));
    std::memset(low, 0, static_cast<size_t>(s.row_bytes));
    for (int64_t g = 0; g < s.groups; ++g) {
      for (int64_t c = 0; c < s.group_in; ++c) {
        const int64_t channel = g * s.group_in + c;
        const int32_t d = in[p * s.pixel_stride + channel * s.channel_stride] - s.zero_point;
        const int32_t l = d & 255;
        high[g * s.group_k + c] = static_cast<int16_t>((d - l) / 256);
        low[g * s.group_k + c] = static_cast<int16_t>(l);
      }
    }
  }
}

constexpr int64_t kBandPixels = 64;     // output pixels per work item, at most about
constexpr int64_t kChunkChannels = 2048;  // output channels per work item, at most about
// and at most about this many bytes of packed weights (every tile of the band reads them all: they should
// stay in the core's L2 cache, 512 KiB to 2 MiB on the CPUs npurt runs on, beside the activations).
constexpr int64_t kChunkWeightBytes = 256 * 1024;
// Patches copy a kernel row's run in pieces of this many bytes (one vector move each), overrunning by less.
constexpr int64_t kPatchCopy = 16;

}  // namespace

Status ConvInt8Path::Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams& q,
                             const ConvResidual* residual) {
  const Tensor& w = *node->inputs[1];
  // The weights are packed once here: they must be constants.
  if (!node->may_pack_constants || !w.constant || w.dtype != DataType::kInt8) return Status::Ok();
  const Tensor* b = node->input(2);
  if (b != nullptr && !b->constant) return Status::Ok();
  return PrepareWith(node, p, q, residual, w.as<int8_t>(), b != nullptr ? b->as<int32_t>() : nullptr);
}

Status ConvInt8Path::PrepareMatrix(OpNode* node, const GemmFastShape& shape, const Tensor* bias) {
  const Tensor& b = *node->inputs[1];
  if (!shape.quantized || !node->may_pack_constants || !b.constant || b.dtype != DataType::kInt8) return Status::Ok();
  // The rows as the pixels of a 1 x rows image of k channels, B as n 1x1 filters.
  ConvParams p;
  p.in_channels = shape.k;
  p.out_channels = shape.n;
  p.in[2] = p.out[2] = shape.rows;
  p.activation = shape.activation;
  ConvQuantParams q;
  q.input_zero_point = shape.a_zero_point;
  q.acc_scale = shape.acc_scale;
  q.output_scale = shape.output_scale;
  q.output_zero_point = shape.output_zero_point;
  q.output_min = shape.output_min;
  q.output_max = shape.output_max;
  if (q.acc_scale.size() == 1) q.acc_scale.assign(static_cast<size_t>(shape.n), q.acc_scale[0]);
  if (static_cast<int64_t>(q.acc_scale.size()) != shape.n) return Status::Ok();
  const int8_t* weights = b.as<int8_t>();
  if (!shape.trans_b) {  // (K, N) -> (N, K)
    transposed_b_.resize(static_cast<size_t>(shape.k * shape.n));
    for (int64_t kk = 0; kk < shape.k; ++kk) {
      for (int64_t j = 0; j < shape.n; ++j) transposed_b_[static_cast<size_t>(j * shape.k + kk)] = weights[kk * shape.n + j];
    }
    weights = transposed_b_.data();
  }
  matrix_io_ = true;
  if (bias != nullptr && !bias->constant) return Status::Ok();
  NPURT_RETURN_IF_ERROR(PrepareWith(node, p, q, nullptr, weights, bias != nullptr ? bias->as<int32_t>() : nullptr));
  node->channels_last_io = false;  // matrices: no layout to choose
  return Status::Ok();
}

Status ConvInt8Path::PrepareDepthToSpace(OpNode* node, const ConvParams& t, const ConvQuantParams& q) {
  const Tensor& w = *node->inputs[1];
  const Tensor* b = node->input(2);
  if (!node->may_pack_constants || !w.constant || w.dtype != DataType::kInt8 || (b != nullptr && !b->constant)) {
    return Status::Ok();
  }
  if (t.groups != 1 || t.in[0] != 1 || t.kernel[0] != 1 || t.out[0] != 1) return Status::Ok();
  for (int d = 1; d <= 2; ++d) {
    if (t.kernel[d] != t.stride[d] || t.dilation[d] != 1 || t.pad_begin[d] != 0 || t.out[d] != t.in[d] * t.stride[d]) {
      return Status::Ok();
    }
  }
  const int64_t C = t.in_channels, M = t.out_channels, blocks = t.kernel[1] * t.kernel[2];
  if (blocks == 1 || static_cast<int64_t>(q.acc_scale.size()) != M) return Status::Ok();  // a plain 1x1: Conv's job
  // Weights (C, M, kH, kW) -> (kH * kW * M, C); bias, scales and the affine repeat per kernel position.
  std::vector<int8_t> weights(static_cast<size_t>(blocks * M * C));
  const int8_t* wc = w.as<int8_t>();
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t k = 0; k < blocks; ++k) weights[static_cast<size_t>((k * M + m) * C + c)] = wc[(c * M + m) * blocks + k];
    }
  }
  auto tiled = [&](const auto* values) {
    std::vector<std::remove_const_t<std::remove_pointer_t<decltype(values)>>> out(static_cast<size_t>(blocks * M));
    for (int64_t o = 0; o < blocks * M; ++o) out[static_cast<size_t>(o)] = values[o % M];
    return out;
  };
  std::vector<int32_t> bias;
  if (b != nullptr) bias = tiled(b->as<int32_t>());
  ConvQuantParams pq = q;
  pq.acc_scale = tiled(q.acc_scale.data());
  ConvParams pointwise = t;
  pointwise.out_channels = blocks * M;
  for (int d = 1; d <= 2; ++d) {
    pointwise.out[d] = t.in[d];
    pointwise.kernel[d] = pointwise.stride[d] = 1;
  }
  if (t.activation.scale != nullptr) {
    d2s_.scale = tiled(t.activation.scale);
    d2s_.shift = tiled(t.activation.shift);
    pointwise.activation.scale = d2s_.scale.data();
    pointwise.activation.shift = d2s_.shift.data();
  }
  d2s_.kh = t.kernel[1], d2s_.kw = t.kernel[2], d2s_.channels = M, d2s_.in_w = t.in[2], d2s_.out_w = t.out[2];
  NPURT_RETURN_IF_ERROR(PrepareWith(node, pointwise, pq, nullptr, weights.data(), b != nullptr ? bias.data() : nullptr));
  if (!enabled()) {
    d2s_ = DepthToSpace();
    return Status::Ok();
  }
  y_pixels_ = t.out[1] * t.out[2];
  y_channels_ = M;
  node->kernel += "+depth_to_space";
  return Status::Ok();
}

Status ConvInt8Path::PrepareWith(OpNode* node, const ConvParams& p, const ConvQuantParams& q,
                                 const ConvResidual* residual, const int8_t* weights, const int32_t* bias) {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  if (!Codes(x.dtype) || !Codes(y.dtype) ||
      (residual != nullptr && !Codes(residual->type))) {
    return Status::Ok();
  }
  if (p.in[0] != 1 || p.kernel[0] != 1 || p.out[0] != 1) return Status::Ok();  // 3-D: the reference kernel
  const bool int16_input = x.dtype == DataType::kInt16;
  quant_ = q;
  activation_ = p.activation;
  int16_input_ = int16_input;
  has_residual_ = residual != nullptr;
  if (has_residual_) residual_ = *residual;
  batch_ = p.batch;
  in_pixels_ = p.in[1] * p.in[2];
  out_pixels_ = p.out[1] * p.out[2];
  in_channels_ = p.in_channels;
  out_channels_ = p.out_channels;
  y_pixels_ = out_pixels_;
  y_channels_ = out_channels_;
  const int64_t group_in = p.in_channels / p.groups;
  const int64_t taps = p.kernel[1] * p.kernel[2];
  if (int16_input) {
    // int16 codes: the reference sums in int64; int32 lanes give its value where every final accumulator
    // fits int32 (int32 additions wrap, so the partial sums may leave it).
    const int64_t weight_sum = MaxAbsWeightSum(weights, 1, p.out_channels, group_in * taps);
    int64_t max_bias = 0;
    for (int64_t m = 0; bias != nullptr && m < p.out_channels; ++m) {
      max_bias = std::max<int64_t>(max_bias, std::llabs(bias[m]));
    }
    const int64_t d_max = std::max<int64_t>(32767 - q.input_zero_point, q.input_zero_point + 32768);
    if (d_max * weight_sum > INT32_MAX) {
      // Two pieces, |h| <= 256 and 0 <= l < 256: each piece's sums stay within 256 * sum|w|.
      if (256 * weight_sum > INT32_MAX) {
        NPURT_LOG(kDebug, "Conv '%s': no int8 kernel (weights of absolute sum %" PRId64 ")", node->name.c_str(),
                  weight_sum);
        return Status::Ok();
      }
      sums_ = Sums::kTwoPieces;
    } else if (d_max * weight_sum + max_bias > INT32_MAX) {
      sums_ = Sums::kBiasApart;
    }
  }
  if (sums_ != Sums::kFloat) {  // the bias joins in the rows; two pieces hold d itself (no compensation)
    piece_rows_ = ChooseRequantizePieceRows();
    if (bias != nullptr) apart_bias_.assign(bias, bias + p.out_channels);
  }
  // The depthwise kernels: float sums with the bias in them, or int32 sums with the bias apart.
  if (!pieces() && d2s_.kh == 0 && p.groups == p.in_channels && p.groups == p.out_channels &&
      PrepareDepthwise(node, p, weights, sums_ == Sums::kFloat ? bias : nullptr)) {
    return Status::Ok();
  }
  // (One input channel per group and int32 sums too: the igemm's blocks are nearly empty, but the
  // alternative, oneDNN's s32 sums, got such int16 convolutions wrong.)
  const IgemmKernel* kernel = ChooseIgemmKernel(int16_input);
  if (kernel == nullptr) return Status::Ok();
  const int64_t element_bytes = IgemmElementBytes(kernel->format);
  const int64_t group_k = IgemmGroupK(*kernel, group_in);
  const int64_t row_bytes = p.groups * group_k * element_bytes;
  const int64_t in_pixels = p.in[1] * p.in[2], out_pixels = p.out[1] * p.out[2];
  if ((in_pixels + 1) * row_bytes > INT32_MAX) return Status::Ok();  // offsets are int32

  kernel_ = kernel;
  requantize_ = ChooseRequantizeFloatRows();
  const int32_t weight_zero_point = pieces() ? 0 : q.input_zero_point;
  const int32_t* packed_bias = sums_ == Sums::kFloat ? bias : nullptr;
  // Patches where a tap holds at most two 4-byte groups: the first layers' 3 channels padded to 4 and
  // 49 taps of 2 groups each spend more on the taps than on the dot products.
  const bool patches = p.groups == 1 && taps > 1 && !pieces() && group_in * element_bytes <= 8;
  row_bytes_ = row_bytes;
  staged_group_k_ = group_k;
  patches_ = Patches();
  if (patches) {
    // Weights (M, C, taps) -> (M, taps x C), the patch's order; the pixels staged without padding.
    std::vector<int8_t> by_tap(static_cast<size_t>(p.out_channels * taps * group_in));
    for (int64_t m = 0; m < p.out_channels; ++m) {
      for (int64_t c = 0; c < group_in; ++c) {
        for (int64_t t = 0; t < taps; ++t) {
          by_tap[static_cast<size_t>((m * taps + t) * group_in + c)] = weights[(m * group_in + c) * taps + t];
        }
      }
    }
    PackIgemmWeights(*kernel, by_tap.data(), packed_bias, 1, p.out_channels, taps * group_in, 1, weight_zero_point,
                     &weights_);
    row_bytes_ = group_in * element_bytes;
    staged_group_k_ = group_in;
    patches_.taps = taps;
    patches_.unit = row_bytes_;
    patches_.row_bytes = weights_.group_k * element_bytes;
  } else {
    PackIgemmWeights(*kernel, weights, packed_bias, p.groups, p.out_channels, group_in, taps, weight_zero_point,
                     &weights_);
  }
  const int64_t mr = kernel->mr, nr = kernel->nr;
  tiles_ = (out_pixels + mr - 1) / mr;

  // The indirection buffer: for each tile, tap and row, the staged pixel it reads (the padding pixel,
  // after the image's, where the tap falls outside). A 1x1 convolution of stride 1 without padding reads
  // its rows in place.
  if (patches) {
    patches_.in_h = p.in[1], patches_.in_w = p.in[2], patches_.out_w = p.out[2];
    patches_.kernel_h = p.kernel[1], patches_.kernel_w = p.kernel[2];
    patches_.stride_h = p.stride[1], patches_.stride_w = p.stride[2];
    patches_.pad_top = p.pad_begin[1], patches_.pad_left = p.pad_begin[2];
    patches_.dilation_h = p.dilation[1], patches_.dilation_w = p.dilation[2];
  }
  const bool direct = patches || (taps == 1 && p.stride[1] == 1 && p.stride[2] == 1 && p.pad_begin[1] == 0 &&
                      p.pad_begin[2] == 0 && p.in[1] == p.out[1] && p.in[2] == p.out[2]);
  const bool codes_as_staged = kernel->format == (int16_input ? IgemmFormat::kPairsS16 : IgemmFormat::kQuadsS8);
  in_place_ = direct && !patches && !pieces() && codes_as_staged && p.groups * group_k == p.in_channels;
  offsets_.clear();
  if (!direct) {
    offsets_.resize(static_cast<size_t>(tiles_ * taps * mr));
    const int32_t padding = static_cast<int32_t>(in_pixels * row_bytes);
    for (int64_t tile = 0; tile < tiles_; ++tile) {
      for (int64_t tap = 0; tap < taps; ++tap) {
        const int64_t kh = tap / p.kernel[2], kw = tap % p.kernel[2];
        for (int64_t i = 0; i < mr; ++i) {
          const int64_t pixel = std::min(tile * mr + i, out_pixels - 1);  // a short tile repeats its last row
          const int64_t ih = pixel / p.out[2] * p.stride[1] - p.pad_begin[1] + kh * p.dilation[1];
          const int64_t iw = pixel % p.out[2] * p.stride[2] - p.pad_begin[2] + kw * p.dilation[2];
          const bool inside = ih >= 0 && ih < p.in[1] && iw >= 0 && iw < p.in[2];
          offsets_[static_cast<size_t>((tile * taps + tap) * mr + i)] =
              inside ? static_cast<int32_t>((ih * p.in[2] + iw) * row_bytes) : padding;
        }
      }
    }
  }

  // Work items: bands of output pixels x chunks of a group's nr blocks, enough of them to keep every
  // thread busy.
  const int threads = ThreadPool::HardwareThreads();
  band_tiles_ = std::max<int64_t>(1, kBandPixels / mr);
  bands_ = (tiles_ + band_tiles_ - 1) / band_tiles_;
  chunk_blocks_ = std::min<int64_t>({weights_.blocks, std::max<int64_t>(1, kChunkChannels / nr),
                                     std::max<int64_t>(1, kChunkWeightBytes / weights_.block_bytes)});
  auto chunks = [&] { return (weights_.blocks + chunk_blocks_ - 1) / chunk_blocks_; };
  while (chunk_blocks_ > 1 && bands_ * p.groups * chunks() < 4 * threads) chunk_blocks_ = (chunk_blocks_ + 1) / 2;
  chunks_ = chunks();

  const size_t out_elem = DataTypeSize(y.dtype);
  // (+ kPatchCopy: patches copy a kernel row in pieces of kPatchCopy bytes)
  image_bytes_ = RoundUp64(static_cast<size_t>((in_pixels + 1) * row_bytes_ + kPatchCopy));
  staged_bytes_ = image_bytes_ * (pieces() ? 2 : 1);
  output_bytes_ = RoundUp64(static_cast<size_t>(y.num_elements()) * out_elem);
  residual_bytes_ = has_residual_ ? RoundUp64(static_cast<size_t>(y.num_elements()) * DataTypeSize(residual_.type)) : 0;
  // A slot: float or int32 sums (two pieces: two regions); with depth to space also the item's
  // requantized rows before they go to their output pixels.
  const int64_t item_values = band_tiles_ * mr * chunk_blocks_ * nr;
  sums_bytes_ = RoundUp64(static_cast<size_t>(item_values) * sizeof(float));
  slot_bytes_ = sums_bytes_ * (pieces() ? 2 : 1) + (d2s_.kh > 0 ? RoundUp64(static_cast<size_t>(item_values) * out_elem) : 0);
  if (patches) {
    patches_.slot_at = slot_bytes_;
    slot_bytes_ += RoundUp64(static_cast<size_t>(band_tiles_ * mr * patches_.row_bytes + kPatchCopy));
  }
  slots_ = threads;
  node->scratch_bytes = staged_bytes_ + output_bytes_ + residual_bytes_ + static_cast<size_t>(slots_) * slot_bytes_;
  // The requantization in the tiles' epilogue where the kernel has it: float sums, no depth to space, an
  // activation that folds into the clamp.
  fused_tile_ = nullptr;
  if (sums_ == Sums::kFloat && d2s_.kh == 0 && kernel->tile_requant[0][0] != nullptr &&
      (y.dtype == DataType::kInt8 || y.dtype == DataType::kInt16)) {
    const FoldedClamp clamp = FoldActivationIntoClamp(RowsParams(*node, 0, p.out_channels));
    if (clamp.folded) {
      const int residual_kind = !has_residual_ ? 0 : residual_.type == DataType::kInt16 ? 2 : 1;
      fused_tile_ = kernel->tile_requant[residual_kind][y.dtype == DataType::kInt16 ? 1 : 0];
      fused_lo_ = clamp.lo, fused_hi_ = clamp.hi;
    }
  }
  node->kernel = std::string(kernel->name) + (pieces() ? " in 2 pieces" : sums_ == Sums::kBiasApart ? " int32 sums" : "") +
                 (patches ? " over patches" : "");
  node->channels_last_io = true;
  return Status::Ok();
}

bool ConvInt8Path::PrepareDepthwise(OpNode* node, const ConvParams& p, const int8_t* weights, const int32_t* bias) {
  const DwconvKernel* dw = ChooseDwconvKernel(int16_input_);
  const Tensor& y = *node->outputs[0];
  if (dw == nullptr) return false;
  const int64_t channels = p.out_channels;
  // Bands of the kernel's rows; an image shorter than that in one band of its own height (the general
  // kernel: a band's rows kernel would stage and sum rows that do not exist).
  const int band_rows = static_cast<int>(std::min<int64_t>(dw->band_rows, std::max<int64_t>(p.out[1], 1)));
  dw_geometry_ = MakeDwconvGeometry(dw->format, band_rows, channels, p.in[1], p.in[2], p.out[1], p.out[2],
                                    p.kernel[1], p.kernel[2], p.stride[1], p.stride[2], p.dilation[1], p.dilation[2],
                                    p.pad_begin[1], p.pad_begin[2]);
  dw_ = dw;
  dw_run_ = DwconvRunFor(*dw, dw_geometry_);
  requantize_ = ChooseRequantizeFloatRows();
  dw_tap_offsets_ = DwconvTapOffsets(dw_geometry_);
  PackDwconvWeights(*dw, dw_geometry_, weights, bias, quant_.input_zero_point, &dw_weights_, &dw_bias_);
  const size_t in_elem = int16_input_ ? 2 : 1;
  dw_zero_row_.resize(static_cast<size_t>(channels) * in_elem);
  for (int64_t c = 0; c < channels; ++c) {
    if (int16_input_) {
      const int16_t code = static_cast<int16_t>(quant_.input_zero_point);
      std::memcpy(dw_zero_row_.data() + c * 2, &code, 2);
    } else {
      dw_zero_row_[static_cast<size_t>(c)] = static_cast<uint8_t>(static_cast<int8_t>(quant_.input_zero_point));
    }
  }
  bands_ = dw_geometry_.bands * dw_geometry_.chunks;  // the items
  const int threads = ThreadPool::HardwareThreads();
  staged_bytes_ = 0;
  output_bytes_ = RoundUp64(static_cast<size_t>(y.num_elements()) * DataTypeSize(y.dtype));
  residual_bytes_ = has_residual_ ? RoundUp64(static_cast<size_t>(y.num_elements()) * DataTypeSize(residual_.type)) : 0;
  dw_region_bytes_ = RoundUp64(static_cast<size_t>(DwconvRegionBytes(dw_geometry_)));
  slot_bytes_ = dw_region_bytes_ +
                RoundUp64(static_cast<size_t>(dw_geometry_.band_rows * dw_geometry_.chunk_cols * channels) * sizeof(float));
  slots_ = threads;
  node->scratch_bytes = staged_bytes_ + output_bytes_ + residual_bytes_ + static_cast<size_t>(slots_) * slot_bytes_;
  // The requantization in the bands' epilogue where the kernel has it: float sums, no residual, an
  // activation that folds into the clamp, int8 or int16 codes out.
  dw_run_requant_ = nullptr;
  if (sums_ == Sums::kFloat && !has_residual_ && (y.dtype == DataType::kInt8 || y.dtype == DataType::kInt16)) {
    const FoldedClamp clamp = FoldActivationIntoClamp(RowsParams(*node, 0, channels));
    if (clamp.folded) {
      dw_run_requant_ = DwconvRunRequantFor(*dw, dw_geometry_, y.dtype == DataType::kInt16);
      fused_lo_ = clamp.lo, fused_hi_ = clamp.hi;
    }
  }
  node->kernel = std::string(dw->name) + (sums_ == Sums::kBiasApart ? " int32 sums" : "");
  node->channels_last_io = true;
  return true;
}

void ConvInt8Path::RunDepthwiseItem(const OpNode& node, int64_t index, const DwconvStageArgs& stage,
                                    const void* residual, void* out, uint8_t* slot) const {
  const DwconvItem item = DwconvItemAt(dw_geometry_, index);
  dw_->stage(stage, item, slot);
  DwconvArgs a;
  a.geometry = &dw_geometry_;
  a.region = slot;
  a.tap_offsets = dw_tap_offsets_.data();
  a.weights = dw_weights_.data();
  a.bias = dw_bias_.data();
  float* sums = reinterpret_cast<float*>(slot + dw_region_bytes_);
  if (dw_run_requant_ != nullptr) {  // codes straight from the sums' registers into the output rows
    IgemmRequant r;
    r.acc_scale = quant_.acc_scale.data();
    r.out_scale = quant_.output_scale;
    r.lo = fused_lo_, r.hi = fused_hi_;
    r.out_zero_point = quant_.output_zero_point;
    r.out_stride = dw_geometry_.out_w * out_channels_;
    r.out = static_cast<uint8_t*>(out) + static_cast<size_t>((item.row * dw_geometry_.out_w + item.col) * out_channels_) *
                                             DataTypeSize(node.outputs[0]->dtype);
    a.requant = &r;
    dw_run_requant_(a, item);
    return;
  }
  if (sums_ == Sums::kBiasApart) {
    a.out_int32 = reinterpret_cast<int32_t*>(sums);
  } else {
    a.out = sums;
  }
  dw_run_(a, item);
  // Each of the item's rows: a run of item.cols output pixels.
  RequantizeRowsParams rq = RowsParams(node, 0, out_channels_);
  if (sums_ == Sums::kBiasApart && !apart_bias_.empty()) rq.bias = apart_bias_.data();
  const size_t out_elem = DataTypeSize(rq.out_type);
  for (int64_t r = 0; r < item.rows; ++r) {
    const int64_t first = (item.row + r) * dw_geometry_.out_w + item.col;
    if (has_residual_) {
      rq.residual.data = static_cast<const uint8_t*>(residual) +
                         static_cast<size_t>(first * out_channels_) * DataTypeSize(residual_.type);
    }
    uint8_t* dst = static_cast<uint8_t*>(out) + static_cast<size_t>(first * out_channels_) * out_elem;
    const int64_t at = r * item.cols * out_channels_;
    if (sums_ == Sums::kBiasApart) {
      piece_rows_(rq, a.out_int32 + at, nullptr, dst, WorkRange{0, item.cols});
    } else {
      requantize_(rq, sums + at, dst, WorkRange{0, item.cols});
    }
  }
}

RequantizeRowsParams ConvInt8Path::RowsParams(const OpNode& node, int64_t m0, int64_t cols) const {
  RequantizeRowsParams rq;
  rq.channels = cols;
  rq.acc_scale = quant_.acc_scale.data() + m0;
  rq.activation = activation_;
  if (rq.activation.scale != nullptr) {
    rq.activation.scale += m0;
    rq.activation.shift += m0;
  }
  rq.out_scale = quant_.output_scale;
  rq.out_zero_point = quant_.output_zero_point;
  rq.out_min = quant_.output_min;
  rq.out_max = quant_.output_max;
  rq.out_type = node.outputs[0]->dtype;
  if (has_residual_) rq.residual = residual_;
  return rq;
}

void ConvInt8Path::RunItem(const OpNode& node, int64_t item, const uint8_t* staged, const void* residual, void* out,
                           float* sums) const {
  const int64_t groups = weights_.groups, group_out = weights_.group_out;
  const int64_t mr = kernel_->mr, nr = kernel_->nr;
  const int64_t band = item / (groups * chunks_);
  const int64_t g = item / chunks_ % groups;
  const int64_t chunk = item % chunks_;
  const int64_t tile_begin = band * band_tiles_, tile_end = std::min(tiles_, tile_begin + band_tiles_);
  const int64_t block_begin = chunk * chunk_blocks_, block_end = std::min(weights_.blocks, block_begin + chunk_blocks_);
  const int64_t col_begin = block_begin * nr;
  const int64_t cols = std::min(group_out, block_end * nr) - col_begin;
  const int64_t pixel_begin = tile_begin * mr;
  const int64_t rows = std::min(out_pixels_, tile_end * mr) - pixel_begin;
  const int64_t element_bytes = IgemmElementBytes(kernel_->format);

  IgemmTileArgs t;
  t.taps = static_cast<int>(weights_.taps);
  t.kgroups = static_cast<int>(weights_.kgroups);
  t.row_bytes = row_bytes_;
  t.out_stride = cols;
  // int32 sums (one piece: the slot's start; two: the high image's there, the low one's in its second half).
  int32_t* piece_sums[2] = {reinterpret_cast<int32_t*>(sums), reinterpret_cast<int32_t*>(sums) + sums_bytes_ / 4};
  int64_t first_row = 0;  // of the rows the tiles read
  if (patches_.row_bytes > 0) {
    uint8_t* rows_at = reinterpret_cast<uint8_t*>(sums) + patches_.slot_at;
    BuildPatches(staged, pixel_begin, rows, rows_at);
    staged = rows_at;
    t.row_bytes = patches_.row_bytes;
    first_row = pixel_begin;
  }
  if (sums_ == Sums::kFloat && d2s_.kh == 0) {
    // Block by block: the band's tiles of one block of nr channels (its weights stay in L1 across them),
    // then those sums, band rows x nr, requantized into their place in the output rows.
    t.base = staged + g * weights_.group_k * element_bytes;
    const size_t out_elem = DataTypeSize(node.outputs[0]->dtype);
    const size_t residual_elem = has_residual_ ? DataTypeSize(residual_.type) : 0;
    for (int64_t block = block_begin; block < block_end; ++block) {
      t.weights = weights_.Block(g, block);
      t.bias = weights_.BlockBias(g, block);
      t.cols = static_cast<int>(std::min(nr, group_out - block * nr));
      t.out_stride = t.cols;
      const int64_t m0 = g * group_out + block * nr;
      if (fused_tile_ != nullptr) {
        // Each tile's codes straight from its registers into the output rows (a tile of one row: the row
        // tile's sums and the rows' requantization).
        IgemmRequant r;
        r.acc_scale = quant_.acc_scale.data() + m0;
        r.out_scale = quant_.output_scale;
        r.lo = fused_lo_, r.hi = fused_hi_;
        r.out_zero_point = quant_.output_zero_point;
        r.residual_scale = residual_.scale;
        r.residual_zero_point = residual_.zero_point;
        r.out_stride = out_channels_;
        for (int64_t tile = tile_begin; tile < tile_end; ++tile) {
          t.rows = static_cast<int>(std::min(mr, out_pixels_ - tile * mr));
          t.offsets = offsets_.empty() ? nullptr : offsets_.data() + tile * weights_.taps * mr;
          t.first_row = tile * mr - first_row;
          const size_t first = static_cast<size_t>(tile * mr * out_channels_ + m0);
          if (t.rows == 1) {
            t.out = sums;
            kernel_->row_tile(t);
            RequantizeRowsParams rq = RowsParams(node, m0, t.cols);
            if (has_residual_) rq.residual.data = static_cast<const uint8_t*>(residual) + first * residual_elem;
            requantize_(rq, sums, static_cast<uint8_t*>(out) + first * out_elem, WorkRange{0, 1});
            continue;
          }
          r.out = static_cast<uint8_t*>(out) + first * out_elem;
          r.residual = has_residual_ ? static_cast<const uint8_t*>(residual) + first * residual_elem : nullptr;
          fused_tile_(t, r);
        }
        continue;
      }
      for (int64_t tile = tile_begin; tile < tile_end; ++tile) {
        t.rows = static_cast<int>(std::min(mr, out_pixels_ - tile * mr));
        t.offsets = offsets_.empty() ? nullptr : offsets_.data() + tile * weights_.taps * mr;
        t.first_row = tile * mr - first_row;
        t.out = sums + (tile - tile_begin) * mr * t.cols;
        (t.rows == 1 ? kernel_->row_tile : kernel_->tile)(t);
      }
      RequantizeRowsParams rq = RowsParams(node, m0, t.cols);
      rq.out_stride = out_channels_;
      const size_t first = static_cast<size_t>(pixel_begin * out_channels_ + m0);
      if (has_residual_) rq.residual.data = static_cast<const uint8_t*>(residual) + first * residual_elem;
      requantize_(rq, sums, static_cast<uint8_t*>(out) + first * out_elem, WorkRange{0, rows});
    }
    return;
  }
  for (int piece = 0; piece < (pieces() ? 2 : 1); ++piece) {
    t.base = staged + piece * image_bytes_ + g * weights_.group_k * element_bytes;
    for (int64_t tile = tile_begin; tile < tile_end; ++tile) {
      t.rows = static_cast<int>(std::min(mr, out_pixels_ - tile * mr));
      t.offsets = offsets_.empty() ? nullptr : offsets_.data() + tile * weights_.taps * mr;
      t.first_row = tile * mr - first_row;
      for (int64_t block = block_begin; block < block_end; ++block) {
        t.weights = weights_.Block(g, block);
        t.bias = weights_.BlockBias(g, block);
        t.cols = static_cast<int>(std::min(nr, group_out - block * nr));
        const int64_t at = (tile - tile_begin) * mr * cols + (block - block_begin) * nr;
        if (sums_ != Sums::kFloat) {
          t.out_int32 = piece_sums[piece] + at;
        } else {
          t.out = sums + at;
        }
        // One row (a Gemm of one row, an image's last pixel): the row tile, not mr rows' work for it.
        (t.rows == 1 ? kernel_->row_tile : kernel_->tile)(t);
      }
    }
  }

  // The rows' requantization: channels [m0, m0 + cols) of each output pixel.
  const int64_t m0 = g * group_out + col_begin;
  RequantizeRowsParams rq = RowsParams(node, m0, cols);
  if (!apart_bias_.empty()) rq.bias = apart_bias_.data() + m0;
  const size_t out_elem = DataTypeSize(rq.out_type);
  const size_t residual_elem = has_residual_ ? DataTypeSize(residual_.type) : 0;
  auto at = [&](const void* base, int64_t pixel, size_t elem) {
    return static_cast<const uint8_t*>(base) + static_cast<size_t>(pixel * out_channels_ + m0) * elem;
  };
  // Rows [r, r + n) of the item: whole rows in one call, else row by row.
  auto rows_out = [&](int64_t r, int64_t n) {
    if (has_residual_) rq.residual.data = at(residual, pixel_begin + r, residual_elem);
    uint8_t* o = const_cast<uint8_t*>(at(out, pixel_begin + r, out_elem));
    if (sums_ != Sums::kFloat) {
      piece_rows_(rq, piece_sums[0] + r * cols, pieces() ? piece_sums[1] + r * cols : nullptr, o, WorkRange{0, n});
    } else {
      requantize_(rq, sums + r * cols, o, WorkRange{0, n});
    }
  };
  if (d2s_.kh > 0) {
    // Depth to space: the item's rows requantized at once, then each kernel row of each input pixel (kW
    // output pixels of M channels, contiguous in NHWC) copied to its place.
    uint8_t* rows_q = reinterpret_cast<uint8_t*>(sums) + sums_bytes_ * (pieces() ? 2 : 1);
    if (sums_ != Sums::kFloat) {
      piece_rows_(rq, piece_sums[0], pieces() ? piece_sums[1] : nullptr, rows_q, WorkRange{0, rows});
    } else {
      requantize_(rq, sums, rows_q, WorkRange{0, rows});
    }
    const int64_t M = d2s_.channels, run = d2s_.kw * M;
    if (m0 == 0 && cols == d2s_.kh * run) {
      // Every kernel row of each pixel: kh runs of run codes, the pixel's position stepped, not divided out
      // (a ConvTranspose to one channel copies 2 codes a run: the copy's size decides its cost).
      const size_t run_bytes = static_cast<size_t>(run) * out_elem;
      const int64_t row_step = d2s_.out_w * M;  // one output row, in elements
      int64_t ih = pixel_begin / d2s_.in_w, iw = pixel_begin % d2s_.in_w;
      uint8_t* const y = static_cast<uint8_t*>(out);
      for (int64_t r = 0; r < rows; ++r) {
        const uint8_t* from = rows_q + static_cast<size_t>(r * cols) * out_elem;
        uint8_t* to = y + static_cast<size_t>((ih * d2s_.kh * d2s_.out_w + iw * d2s_.kw) * M) * out_elem;
        for (int64_t kh = 0; kh < d2s_.kh; ++kh, from += run_bytes, to += row_step * out_elem) {
          switch (run_bytes) {
            case 2: std::memcpy(to, from, 2); break;
            case 4: std::memcpy(to, from, 4); break;
            case 8: std::memcpy(to, from, 8); break;
            case 16: std::memcpy(to, from, 16); break;
            default: std::memcpy(to, from, run_bytes);
          }
        }
        if (++iw == d2s_.in_w) iw = 0, ++ih;
      }
      return;
    }
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t pixel = pixel_begin + r, ih = pixel / d2s_.in_w, iw = pixel % d2s_.in_w;
      for (int64_t o = m0; o < m0 + cols;) {
        const int64_t kh = o / run, end = std::min(m0 + cols, (kh + 1) * run);
        const int64_t y_at = ((ih * d2s_.kh + kh) * d2s_.out_w + iw * d2s_.kw) * M + (o - kh * run);
        std::memcpy(static_cast<uint8_t*>(out) + static_cast<size_t>(y_at) * out_elem,
                    rows_q + static_cast<size_t>(r * cols + (o - m0)) * out_elem, static_cast<size_t>(end - o) * out_elem);
        o = end;
      }
    }
    return;
  }
  if (cols == out_channels_) {
    rows_out(0, rows);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) rows_out(r, 1);
}

void ConvInt8Path::BuildPatches(const uint8_t* staged, int64_t first_pixel, int64_t pixels, uint8_t* rows) const {
  // The geometry in locals: the byte stores below may alias any field, which would be read again after each.
  const Patches q = patches_;
  const int64_t unit = q.unit, run = q.kernel_w * unit, used = q.taps * unit, row_bytes = q.row_bytes;
  const int64_t in_h = q.in_h, in_w = q.in_w, out_w = q.out_w, kernel_h = q.kernel_h, kernel_w = q.kernel_w;
  const int64_t stride_h = q.stride_h, stride_w = q.stride_w, pad_top = q.pad_top, pad_left = q.pad_left;
  const int64_t dilation_h = q.dilation_h, dilation_w = q.dilation_w;
  const uint8_t* const padding = staged + in_h * in_w * unit;  // the staged padding pixel
  // Copies of kPatchCopy bytes, each one's overrun overwritten by the next (the staged image and the rows
  // have the slack); the K padding zero.
  auto copy = [](uint8_t* to, const uint8_t* from, int64_t bytes) {
    for (int64_t b = 0; b < bytes; b += kPatchCopy) std::memcpy(to + b, from + b, kPatchCopy);
  };
  int64_t oh = first_pixel / out_w, ow = first_pixel % out_w;
  for (int64_t r = 0; r < pixels; ++r, ow = ow + 1 < out_w ? ow + 1 : 0, oh += ow == 0 ? 1 : 0) {
    const int64_t iw0 = ow * stride_w - pad_left, ih0 = oh * stride_h - pad_top;
    const bool columns_inside = dilation_w == 1 && iw0 >= 0 && iw0 + kernel_w <= in_w;
    uint8_t* row = rows + r * row_bytes;
    if (columns_inside && ih0 >= 0 && ih0 + (kernel_h - 1) * dilation_h < in_h) {
      // The whole window inside: each kernel row one run of its image row.
      const uint8_t* from = staged + (ih0 * in_w + iw0) * unit;
      const int64_t step = dilation_h * in_w * unit;
      for (int64_t kh = 0; kh < kernel_h; ++kh, from += step) copy(row + kh * run, from, run);
    } else {
      for (int64_t kh = 0; kh < kernel_h; ++kh) {
        const int64_t ih = ih0 + kh * dilation_h;
        uint8_t* to = row + kh * run;
        if (columns_inside && ih >= 0 && ih < in_h) {
          copy(to, staged + (ih * in_w + iw0) * unit, run);
          continue;
        }
        for (int64_t kw = 0; kw < kernel_w; ++kw) {
          const int64_t iw = iw0 + kw * dilation_w;
          const bool inside = ih >= 0 && ih < in_h && iw >= 0 && iw < in_w;
          std::memcpy(to + kw * unit, inside ? staged + (ih * in_w + iw) * unit : padding, 8);
        }
      }
    }
    for (int64_t b = used; b < row_bytes; ++b) row[b] = 0;
  }
}

Status ConvInt8Path::Eval(OpNode* node) const {
  const Tensor& x = *node->inputs[0];
  const Tensor& y = *node->outputs[0];
  uint8_t* staged = node->scratch;
  uint8_t* staged_output = staged + staged_bytes_;
  uint8_t* staged_residual = staged_output + output_bytes_;
  uint8_t* slots = staged_residual + residual_bytes_;
  const size_t in_elem = DataTypeSize(x.dtype), out_elem = DataTypeSize(y.dtype);

  // NHWC output and residual: channels-last tensors in place, NCHW ones through staging.
  const bool x_last = x.channels_last || matrix_io_, y_last = y.channels_last || matrix_io_;
  uint8_t* out = y_last ? static_cast<uint8_t*>(y.data) : staged_output;
  const void* residual = nullptr;
  if (has_residual_) {
    const Tensor& r = *node->inputs[3];
    residual = r.data;
    if (!r.channels_last) {
      ParallelFor(batch_ * out_pixels_, ThreadsFor(*node, r.num_elements()), [&](int64_t begin, int64_t end) {
        nchw_to_nhwc(r.data, staged_residual, batch_, out_channels_, out_pixels_, DataTypeSize(r.dtype),
                     WorkRange{begin, end});
      });
      residual = staged_residual;
    }
  }

  DwconvStageArgs ds;
  ds.geometry = &dw_geometry_;
  ds.input_int16 = int16_input_;
  ds.pixel_stride = x_last ? in_channels_ : 1;
  ds.channel_stride = x_last ? 1 : in_pixels_;
  ds.zero_row = dw_zero_row_.data();
  IgemmStageArgs s;
  s.input_int16 = int16_input_;
  s.pixel_stride = x_last ? in_channels_ : 1;
  s.channel_stride = x_last ? 1 : in_pixels_;
  s.groups = weights_.groups;
  s.group_in = patches_.row_bytes > 0 ? in_channels_ : weights_.group_in;
  s.group_k = staged_group_k_;
  s.zero_point = quant_.input_zero_point;
  s.staged = staged;
  s.row_bytes = row_bytes_;
  const int workers = std::clamp(node->threads, 1, slots_);
  const int64_t items = dw_ != nullptr ? bands_ : bands_ * weights_.groups * chunks_;
  for (int64_t n = 0; n < batch_; ++n) {
    s.input = static_cast<const uint8_t*>(x.data) + static_cast<size_t>(n * in_channels_ * in_pixels_) * in_elem;
    const uint8_t* image_staged = staged;
    if (dw_ != nullptr) {
      ds.input = s.input;  // each item stages its own region
    } else if (in_place_ && x_last) {
      image_staged = static_cast<const uint8_t*>(s.input);
    } else {
      ParallelFor(in_pixels_, ThreadsFor(*node, in_pixels_ * in_channels_), [&](int64_t begin, int64_t end) {
        if (pieces()) {
          StagePieces(s, staged, staged + image_bytes_, WorkRange{begin, end});
        } else {
          kernel_->stage(s, WorkRange{begin, end});
        }
      });
      // The padding pixel: the zero point's code (pieces: d = 0).
      if (pieces()) {
        std::memset(staged + in_pixels_ * row_bytes_, 0, static_cast<size_t>(row_bytes_));
        std::memset(staged + image_bytes_ + in_pixels_ * row_bytes_, 0, static_cast<size_t>(row_bytes_));
      } else {
        kernel_->stage_padding(s, staged + in_pixels_ * row_bytes_);
      }
    }
    const size_t image = static_cast<size_t>(n * out_pixels_ * out_channels_);
    uint8_t* image_out = out + image * out_elem;
    const void* image_residual =
        has_residual_ ? static_cast<const uint8_t*>(residual) + image * DataTypeSize(residual_.type) : nullptr;
    // Balanced: a worker that finishes its share early takes the rest of another's.
    ParallelForBalanced(items, workers, [&](int worker, int64_t i) {
      float* sums = reinterpret_cast<float*>(slots + static_cast<size_t>(worker) * slot_bytes_);
      if (dw_ != nullptr) {
        RunDepthwiseItem(*node, i, ds, image_residual, image_out, reinterpret_cast<uint8_t*>(sums));
      } else {
        RunItem(*node, i, image_staged, image_residual, image_out, sums);
      }
    });
  }
  if (!y_last) {
    ParallelFor(batch_ * y_pixels_, ThreadsFor(*node, y.num_elements()), [&](int64_t begin, int64_t end) {
      nhwc_to_nchw(staged_output, y.data, batch_, y_channels_, y_pixels_, out_elem, WorkRange{begin, end});
    });
  }
  return Status::Ok();
}

}  // namespace npurt
