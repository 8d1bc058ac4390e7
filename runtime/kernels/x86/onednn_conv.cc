#include "runtime/kernels/x86/onednn_conv.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/x86/onednn_common.h"

namespace npurt {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using Dt = memory::data_type;

// One band: output positions [begin, end) along the cut axis and the input rows
// (or columns) it reads.
struct Band {
  int64_t begin = 0, end = 0;           // output, along the cut axis
  int64_t in_begin = 0, in_count = 0;   // input, along the cut axis
  int64_t pad_begin = 0, pad_end = 0;   // padding of the band
};

// The band of output positions [begin, end) of an axis with `in` inputs.
Band MakeBand(int64_t begin, int64_t end, int64_t in, int64_t kernel, int64_t stride, int64_t dilation,
              int64_t pad_begin) {
  const int64_t extent = (kernel - 1) * dilation + 1;
  const int64_t first = begin * stride - pad_begin;      // first input read (may be padding)
  const int64_t last = (end - 1) * stride - pad_begin + extent;  // one past the last
  Band b;
  b.begin = begin;
  b.end = end;
  b.in_begin = std::max<int64_t>(first, 0);
  b.in_count = std::min<int64_t>(last, in) - b.in_begin;
  b.pad_begin = b.in_begin - first;
  b.pad_end = std::max<int64_t>(last - in, 0);
  return b;
}

// A convolution's or a deconvolution's primitive descriptor.
struct PrimitiveDesc {
  dnnl::convolution_forward::primitive_desc conv;
  dnnl::deconvolution_forward::primitive_desc deconv;
  const dnnl::primitive_desc_base& get() const {
    if (conv) return conv;
    return deconv;
  }
};

}  // namespace

struct OnednnConv::Impl {
  bool cut_columns = false;  // cut the output columns (output one row high) instead of the rows
  int64_t in_h = 1, in_w = 1, in_c = 1, out_h = 1, out_w = 1, out_c = 1;
  size_t in_elem = 1, out_elem = 1;
  std::vector<Band> bands;
  std::vector<size_t> geometry;           // per band: its index in primitives / weights
  std::vector<dnnl::primitive> primitives;  // per distinct band geometry
  std::vector<memory> weights;  // per geometry; geometries with the same blocked layout share one
  memory bias;                  // empty when the conv has none
  // The fused activation's per-channel affine as two binary post-ops (mul, add) from post-op
  // `affine_post_op` on; empty when there is none.
  memory affine_scale, affine_shift;
  int affine_post_op = -1;
  // A residual: a sum post-op over the output band, which Run fills with the residual first. (A binary
  // add reading the residual in place measured slower than a separate Add in oneDNN 2.6's 1x1 kernels on
  // AVX2, and its gemm-based convolution reads a full-size binary operand at the wrong offsets.)
  bool residual = false;
  size_t scratch = 0;
  std::string implementation;
  struct ItemMemory {
    memory src, dst, scratch;
  };
  std::vector<ItemMemory> items;  // per (image, band): batch-major
  // A ConvTranspose whose kernel equals its stride, without pads, dilations or groups: every input pixel
  // alone makes the kH x kW output pixels it covers, so it runs as a 1x1 convolution to kH * kW * M
  // channels (oneDNN's 1x1 kernels, where its deconvolution is slow for few output channels), whose
  // per-pixel outputs are then moved to their places (depth to space).
  std::unique_ptr<OnednnConv> pointwise;
  int64_t shuffle_h = 1, shuffle_w = 1;
  size_t pointwise_output_bytes = 0;  // one band's 1x1 output, at the start of the band's scratch
};

namespace {

// Whether a transposed convolution `p` (in its own terms) is one input pixel per kernel-sized output block.
bool DepthToSpace(const ConvParams& p) {
  for (int d = 1; d <= 2; ++d) {
    if (p.kernel[d] != p.stride[d] || p.dilation[d] != 1 || p.pad_begin[d] != 0 || p.out[d] != p.in[d] * p.stride[d]) {
      return false;
    }
  }
  // A one-row input cuts its bands along the columns, whose kH > 1 output rows would not be contiguous.
  return p.groups == 1 && !(p.in[1] == 1 && p.kernel[1] > 1);
}

// Whether an output position along axis `d` of `p` reads only padding: none of its taps lands in the input.
bool SomeOutputReadsOnlyPadding(const ConvParams& p, int d) {
  for (int64_t o = 0; o < p.out[d]; ++o) {
    bool reads_input = false;
    for (int64_t k = 0; k < p.kernel[d] && !reads_input; ++k) {
      const int64_t at = o * p.stride[d] - p.pad_begin[d] + k * p.dilation[d];
      reads_input = at >= 0 && at < p.in[d];
    }
    if (!reads_input) return true;
  }
  return false;
}

// Tiles `per_channel` (m values of `elem` bytes) `times` times.
std::vector<uint8_t> Tiled(const void* per_channel, int64_t m, size_t elem, int64_t times) {
  std::vector<uint8_t> out(static_cast<size_t>(m * times) * elem);
  for (int64_t t = 0; t < times; ++t) {
    std::memcpy(out.data() + static_cast<size_t>(t * m) * elem, per_channel, static_cast<size_t>(m) * elem);
  }
  return out;
}

}  // namespace

OnednnConv::OnednnConv(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnConv::~OnednnConv() = default;
int OnednnConv::slices() const {
  return impl_->pointwise ? impl_->pointwise->slices() : static_cast<int>(impl_->bands.size());
}
size_t OnednnConv::scratch_bytes_per_slice() const {
  return impl_->pointwise ? impl_->pointwise_output_bytes + impl_->pointwise->scratch_bytes_per_slice() : impl_->scratch;
}
const std::string& OnednnConv::implementation() const { return impl_->implementation; }

bool OnednnConv::Supports(const ConvParams& p, bool accumulate) {
  const CpuTarget target = ActiveCpuTarget();
  // Without VNNI oneDNN halves s8 weights (sums off by up to 2 steps): int8 sums need it.
  if (accumulate ? target < CpuTarget::kAvx512Vnni : target < CpuTarget::kAvx2) return false;
  // HardSigmoid as two post-ops (linear, clip) went wrong in oneDNN 2.6's int8 kernels (saturated to the
  // wrong end) and was never tested in the float ones: float keeps it on the reference kernel.
  if (!accumulate && p.activation.kind == FusedActivation::kHardSigmoid) return false;
  // 1-D and 2-D (a 3-D one with a single depth position that reads no padding is 2-D too).
  return p.in[0] == 1 && p.out[0] == 1 && p.kernel[0] == 1 && p.pad_begin[0] == 0;
}

bool OnednnConv::HasPaddingOnlyOutputs(const ConvParams& p) {
  return SomeOutputReadsOnlyPadding(p, 1) || SomeOutputReadsOnlyPadding(p, 2);
}

Status OnednnConv::Create(const ConvParams& p, const void* weights_data, const void* bias_data, int max_slices,
                          std::unique_ptr<OnednnConv>* out, bool transposed, const OnednnConvAccumulate* accumulate,
                          const ConvResidual* residual) {
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  const bool q8 = accumulate != nullptr;  // int8 weights
  if (q8 && bias_data != nullptr) return NPURT_ERROR(kFail, "an accumulating convolution with a bias");
  if (residual != nullptr) {
    if (transposed || q8 || residual->type != DataType::kFloat32) {
      return NPURT_ERROR(kFail, "a residual of type %s in this convolution", DataTypeName(residual->type));
    }
    m.residual = true;
  }
  m.in_h = p.in[1];
  m.in_w = p.in[2];
  m.in_c = p.in_channels;
  m.out_h = p.out[1];
  m.out_w = p.out[2];
  m.out_c = p.out_channels;
  m.in_elem = q8 ? 1 : 4;
  m.out_elem = 4;  // float32 or int32
  if (transposed && DepthToSpace(p)) {
    // Weights (C, M, kH, kW) -> (kH * kW * M, C, 1, 1); the bias repeats per kernel position.
    const int64_t C = p.in_channels, M = p.out_channels, KH = p.kernel[1], KW = p.kernel[2], blocks = KH * KW;
    const size_t w_elem = q8 ? 1 : 4;
    std::vector<uint8_t> weights(static_cast<size_t>(C * M * blocks) * w_elem);
    const uint8_t* w = static_cast<const uint8_t*>(weights_data);
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t o = 0; o < M; ++o) {
        for (int64_t k = 0; k < blocks; ++k) {
          std::memcpy(weights.data() + static_cast<size_t>((k * M + o) * C + c) * w_elem,
                      w + static_cast<size_t>((c * M + o) * blocks + k) * w_elem, w_elem);
        }
      }
    }
    std::vector<uint8_t> bias;
    if (bias_data != nullptr) bias = Tiled(bias_data, M, 4, blocks);  // float
    ConvParams pointwise = p;
    pointwise.out_channels = M * blocks;
    for (int d = 1; d <= 2; ++d) {
      pointwise.out[d] = p.in[d];
      pointwise.kernel[d] = pointwise.stride[d] = 1;
    }
    NPURT_RETURN_IF_ERROR(Create(pointwise, weights.data(), bias_data != nullptr ? bias.data() : nullptr, max_slices,
                                 &m.pointwise, false, accumulate));
    m.shuffle_h = KH;
    m.shuffle_w = KW;
    int64_t largest = 0;
    for (int slice = 0; slice < m.pointwise->slices(); ++slice) {
      largest = std::max(largest, m.pointwise->band(0, slice).output_elements);
    }
    m.pointwise_output_bytes = (static_cast<size_t>(largest) * m.out_elem + 63) / 64 * 64;
    m.implementation = m.pointwise->implementation() + "+depth_to_space";
    out->reset(new OnednnConv(std::move(impl)));
    return Status::Ok();
  }

  // Bands: rows, or columns of a one-row input (still contiguous in NHWC).
  m.cut_columns = m.out_h == 1 && m.in_h == 1;
  const int axis = m.cut_columns ? 2 : 1;
  const int other = axis == 1 ? 2 : 1;
  Band whole;  // the other axis, whole
  if (!transposed) {
    // Bands of one height (the last one shorter): the inner bands have one geometry and share a primitive.
    const int64_t positions = p.out[axis];
    const int64_t wanted = std::max<int64_t>(1, std::min<int64_t>(max_slices, positions));
    const int64_t height = (positions + wanted - 1) / wanted;
    const int64_t count = (positions + height - 1) / height;
    for (int64_t i = 0; i < count; ++i) {
      Band b = MakeBand(i * height, std::min((i + 1) * height, positions), p.in[axis], p.kernel[axis],
                        p.stride[axis], p.dilation[axis], p.pad_begin[axis]);
      if (b.in_count <= 0) {
        return NPURT_ERROR(kFail, "output positions %lld..%lld read only padding", static_cast<long long>(b.begin),
                           static_cast<long long>(b.end));
      }
      m.bands.push_back(b);
    }
    whole = MakeBand(0, p.out[other], p.in[other], p.kernel[other], p.stride[other], p.dilation[other],
                     p.pad_begin[other]);
  } else {
    // Output size = (in - 1) * stride + extent - pads; the end pad is what remains (negative:
    // output_padding, which oneDNN takes as a negative pad).
    auto end_pad = [&p](int d) {
      return (p.in[d] - 1) * p.stride[d] + (p.kernel[d] - 1) * p.dilation[d] + 1 - p.pad_begin[d] - p.out[d];
    };
    // oneDNN 2.6's int8 deconvolution gets outputs wrong that no tap reaches (stride > kernel) or that pads
    // larger than the kernel crop, its int32 sums too (tests/ops/conv_transpose_int8_test.cc,
    // MatchesFloatOracleOnRandomCases, fails without this); those stay on the reference kernel.
    for (int d = 1; q8 && d <= 2; ++d) {
      const int64_t reach = (p.kernel[d] - 1) * p.dilation[d];
      if (p.stride[d] > p.kernel[d] || p.pad_begin[d] > reach || end_pad(d) < 0 || end_pad(d) > reach) {
        return NPURT_ERROR(kFail, "int8 transposed convolution with stride > kernel, or pads beyond it");
      }
    }
    const bool separable = p.kernel[axis] == p.stride[axis] && p.dilation[axis] == 1 && p.pad_begin[axis] == 0 &&
                           end_pad(axis) == 0;
    const int64_t count = separable ? std::max<int64_t>(1, std::min<int64_t>(max_slices, p.in[axis])) : 1;
    for (int64_t i = 0; i < count; ++i) {
      Band b;
      b.in_begin = i * p.in[axis] / count;
      b.in_count = (i + 1) * p.in[axis] / count - b.in_begin;
      b.begin = b.in_begin * p.stride[axis];
      b.end = count == 1 ? p.out[axis] : (b.in_begin + b.in_count) * p.stride[axis];
      b.pad_begin = p.pad_begin[axis];
      b.pad_end = end_pad(axis);
      m.bands.push_back(b);
    }
    whole.pad_begin = p.pad_begin[other];
    whole.pad_end = end_pad(other);
  }

  // oneDNN 2.6.3's brgconv kernels (avx512_core) get output positions that read only padding wrong: under a
  // sum post-op they lose the bias there, and some such geometries crash in the JIT code
  // (tests/ops/conv_fast_path_test.cc, PaddingOnlyOutputsKeepTheBias). oneDNN offers no other implementation after
  // brgconv for them, so they stay on the reference kernel (no real model pads by a whole kernel). Its
  // depthwise brdgmm_dw kernels get them right (the same test, groups = channels).
  const bool avoid_brgconv = !transposed && HasPaddingOnlyOutputs(p);
  const memory::dim G = p.groups, OC = p.out_channels, IC = p.in_channels, KH = p.kernel[1], KW = p.kernel[2];
  const memory::dims w_dims = G == 1 ? memory::dims{OC, IC, KH, KW} : memory::dims{G, OC / G, IC / G, KH, KW};
  // ONNX ConvTranspose weights are (C, M / groups, kH, kW): oneDNN's "io" order.
  const Tag w_tag = transposed ? (G == 1 ? Tag::iohw : Tag::giohw) : (G == 1 ? Tag::oihw : Tag::goihw);
  const memory::desc w_user_md(w_dims, q8 ? Dt::s8 : Dt::f32, w_tag);
  const memory::desc w_any_md(w_dims, q8 ? Dt::s8 : Dt::f32, Tag::any);
  const memory::desc b_md({OC}, Dt::f32, Tag::x);

  OnednnSingleThread one_thread;
  const std::lock_guard<std::mutex> creating(OnednnCreationMutex());
  try {
    const dnnl::engine& engine = OnednnEngine();
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::post_ops po;
    // A residual joins first, before the activation.
    if (m.residual) po.append_sum(1.0f);
    if (accumulate == nullptr) AppendActivation(p.activation, &po);
    const float* scale = p.activation.scale;
    const float* shift = p.activation.shift;
    const bool uniform = scale != nullptr && std::all_of(scale, scale + OC, [scale](float v) { return v == *scale; }) &&
                         std::all_of(shift, shift + OC, [shift](float v) { return v == *shift; });
    if (accumulate == nullptr && uniform) {
      // One scale and shift (PP-LCNetV3's affine blocks): an eltwise post-op, far cheaper in oneDNN's
      // kernels than binary ones (it may fuse the multiply-add).
      po.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, *scale, *shift);
    } else if (accumulate == nullptr && scale != nullptr) {
      const memory::desc per_channel({1, OC, 1, 1}, Dt::f32, Tag::nchw);
      m.affine_post_op = po.len();
      po.append_binary(dnnl::algorithm::binary_mul, per_channel);
      po.append_binary(dnnl::algorithm::binary_add, per_channel);
      m.affine_scale = CopiedMemory(per_channel, p.activation.scale);
      m.affine_shift = CopiedMemory(per_channel, p.activation.shift);
    }
    if (accumulate != nullptr) attr.set_zero_points(DNNL_ARG_SRC, 0, {accumulate->zero_point});
    attr.set_post_ops(po);

    memory w_user(w_user_md, engine, const_cast<void*>(weights_data));
    std::vector<PrimitiveDesc> pds;
    std::vector<const Band*> made;  // a band of each geometry made
    for (const Band& b : m.bands) {
      const auto same = std::find_if(made.begin(), made.end(), [&b](const Band* o) {
        return o->in_count == b.in_count && o->end - o->begin == b.end - b.begin && o->pad_begin == b.pad_begin &&
               o->pad_end == b.pad_end;
      });
      if (same != made.end()) {
        m.geometry.push_back(static_cast<size_t>(same - made.begin()));
        continue;
      }
      m.geometry.push_back(made.size());
      made.push_back(&b);
      const int64_t ih = axis == 1 ? b.in_count : m.in_h, iw = axis == 2 ? b.in_count : m.in_w;
      const int64_t oh = axis == 1 ? b.end - b.begin : m.out_h, ow = axis == 2 ? b.end - b.begin : m.out_w;
      memory::dims pad_l(2), pad_r(2);
      pad_l[axis - 1] = b.pad_begin;
      pad_r[axis - 1] = b.pad_end;
      pad_l[other - 1] = whole.pad_begin;
      pad_r[other - 1] = whole.pad_end;
      const Dt src_dt = accumulate == nullptr ? Dt::f32 : accumulate->unsigned_input ? Dt::u8 : Dt::s8;
      const memory::desc src_md({1, IC, ih, iw}, src_dt, Tag::nhwc);
      const memory::desc dst_md({1, OC, oh, ow}, accumulate == nullptr ? Dt::f32 : Dt::s32, Tag::nhwc);
      const memory::desc b_or_none = bias_data != nullptr ? b_md : memory::desc();
      const memory::dims strides{p.stride[1], p.stride[2]}, dilates{p.dilation[1] - 1, p.dilation[2] - 1};
      PrimitiveDesc pd;
      if (transposed) {
        pd.deconv = dnnl::deconvolution_forward::primitive_desc(
            dnnl::deconvolution_forward::desc(dnnl::prop_kind::forward_inference,
                                              dnnl::algorithm::deconvolution_direct, src_md, w_any_md, b_or_none,
                                              dst_md, strides, dilates, pad_l, pad_r),
            attr, engine);
        m.primitives.emplace_back(dnnl::deconvolution_forward(pd.deconv));
      } else {
        pd.conv = dnnl::convolution_forward::primitive_desc(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                            src_md, w_any_md, b_or_none, dst_md, strides, dilates, pad_l, pad_r),
            attr, engine);
        if (avoid_brgconv && std::string(pd.conv.impl_info_str()).rfind("brg", 0) == 0) {
          return NPURT_ERROR(kFail, "oneDNN's brgconv with outputs that read only padding");
        }
        m.primitives.emplace_back(dnnl::convolution_forward(pd.conv));
      }
      pds.push_back(pd);
      m.scratch = std::max(m.scratch, pd.get().scratchpad_desc().get_size());
      if (m.implementation.empty()) m.implementation = pd.get().impl_info_str();
      m.weights.push_back(PackedWeights(w_user, pd.get().weights_desc(), m.weights));
    }
    for (int64_t n = 0; n < p.batch; ++n) {
      for (size_t k = 0; k < m.bands.size(); ++k) {
        const dnnl::primitive_desc_base& pd = pds[m.geometry[k]].get();
        m.items.push_back({memory(pd.src_desc(), engine, nullptr), memory(pd.dst_desc(), engine, nullptr),
                           memory(pd.scratchpad_desc(), engine, nullptr)});
      }
    }
    if (bias_data != nullptr) m.bias = CopiedMemory(b_md, bias_data);
  } catch (const dnnl::error& e) {
    return OnednnError(e, "a convolution");
  } catch (const std::bad_alloc&) {
    return NPURT_ERROR(kMallocFail, "out of memory making a oneDNN convolution");
  }
  out->reset(new OnednnConv(std::move(impl)));
  return Status::Ok();
}

OnednnConv::BandSpan OnednnConv::band(int64_t n, int slice) const {
  const Impl& m = *impl_;
  if (m.pointwise) {
    // The 1x1 band's input pixels [first, first + count) of image n make output blocks of kH x kW pixels.
    BandSpan span = m.pointwise->band(n, slice);
    const int64_t first = span.input_offset / m.in_c - n * m.in_h * m.in_w, count = span.input_elements / m.in_c;
    span.output_offset = n * m.out_h * m.out_w * m.out_c + (first / m.in_w) * m.shuffle_h * m.out_w * m.out_c +
                         (first % m.in_w) * m.shuffle_w * m.out_c;
    span.output_elements = count * m.shuffle_h * m.shuffle_w * m.out_c;
    return span;
  }
  const Band& b = m.bands[static_cast<size_t>(slice)];
  // NHWC: a band of rows (or of the columns of a one-row tensor) is contiguous.
  const int64_t in_step = m.cut_columns ? m.in_c : m.in_w * m.in_c;
  const int64_t out_step = m.cut_columns ? m.out_c : m.out_w * m.out_c;
  BandSpan span;
  span.input_offset = n * m.in_h * m.in_w * m.in_c + b.in_begin * in_step;
  span.input_elements = b.in_count * in_step;
  span.output_offset = n * m.out_h * m.out_w * m.out_c + b.begin * out_step;
  span.output_elements = (b.end - b.begin) * out_step;
  return span;
}

Status OnednnConv::Run(int64_t n, int slice, const void* input, void* output, void* scratch,
                       const void* residual) const {
  const Impl& m = *impl_;
  const BandSpan span = band(n, slice);
  const int64_t out_at = span.output_offset * static_cast<int64_t>(m.out_elem);
  return RunBand(n, slice, static_cast<const uint8_t*>(input) + span.input_offset * static_cast<int64_t>(m.in_elem),
                 static_cast<uint8_t*>(output) + out_at, scratch,
                 residual != nullptr ? static_cast<const uint8_t*>(residual) + out_at : nullptr);
}

Status OnednnConv::RunBand(int64_t n, int slice, const void* band_input, void* band_output, void* scratch,
                           const void* band_residual) const {
  const Impl& m = *impl_;
  if (m.residual != (band_residual != nullptr)) {
    return NPURT_ERROR(kFail, "a convolution %s a residual was run %s one", band_residual ? "without" : "with",
                       band_residual ? "with" : "without");
  }
  if (m.pointwise) {
    uint8_t* blocks = static_cast<uint8_t*>(scratch);
    NPURT_RETURN_IF_ERROR(m.pointwise->RunBand(n, slice, band_input, blocks, blocks + m.pointwise_output_bytes));
    // Pixel q's channels (kh, kw, m): row kh of its block is kW * M values, at output row kh below the block's top.
    const BandSpan span = m.pointwise->band(n, slice);
    const int64_t first = span.input_offset / m.in_c - n * m.in_h * m.in_w, count = span.input_elements / m.in_c;
    const size_t row_bytes = static_cast<size_t>(m.shuffle_w * m.out_c) * m.out_elem;
    uint8_t* out = static_cast<uint8_t*>(band_output);
    for (int64_t q = 0; q < count; ++q) {
      const int64_t row = (first + q) / m.in_w - first / m.in_w, column = (first + q) % m.in_w - first % m.in_w;
      for (int64_t kh = 0; kh < m.shuffle_h; ++kh) {
        const int64_t at = ((row * m.shuffle_h + kh) * m.out_w + column * m.shuffle_w) * m.out_c;
        std::memcpy(out + static_cast<size_t>(at) * m.out_elem,
                    blocks + (static_cast<size_t>(q * m.shuffle_h + kh) * row_bytes), row_bytes);
      }
    }
    return Status::Ok();
  }
  const size_t band_index = static_cast<size_t>(slice);
  const size_t geometry = m.geometry[band_index];
  // The memory handles of this (image, band): only this call uses them, so
  // re-pointing them needs no lock and allocates nothing.
  const Impl::ItemMemory& io = m.items[static_cast<size_t>(n) * m.bands.size() + band_index];
  dnnl_memory_set_data_handle(io.src.get(), const_cast<void*>(band_input));
  dnnl_memory_set_data_handle(io.dst.get(), band_output);
  dnnl_memory_set_data_handle(io.scratch.get(), scratch);
  dnnl_exec_arg_t args[7] = {{DNNL_ARG_SRC, io.src.get()},
                             {DNNL_ARG_WEIGHTS, m.weights[geometry].get()},
                             {DNNL_ARG_DST, io.dst.get()},
                             {DNNL_ARG_SCRATCHPAD, io.scratch.get()}};
  int count = 4;
  if (m.bias) args[count++] = {DNNL_ARG_BIAS, m.bias.get()};
  if (m.residual) {  // the sum post-op reads the output band
    std::memcpy(band_output, band_residual, static_cast<size_t>(band(n, slice).output_elements) * m.out_elem);
  }
  if (m.affine_post_op >= 0) {
    args[count++] = {DNNL_ARG_ATTR_MULTIPLE_POST_OP(m.affine_post_op) | DNNL_ARG_SRC_1, m.affine_scale.get()};
    args[count++] = {DNNL_ARG_ATTR_MULTIPLE_POST_OP(m.affine_post_op + 1) | DNNL_ARG_SRC_1, m.affine_shift.get()};
  }
  OnednnSingleThread one_thread;
  return OnednnExecute(m.primitives[geometry], args, count);
}

}  // namespace npurt
