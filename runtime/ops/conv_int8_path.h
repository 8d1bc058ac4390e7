// The quantized Conv on npurt's own int8 kernels (runtime/kernels/int8): the input staged once per run in
// the kernel's format, the output tiles of an implicit GEMM over an indirection buffer split between the
// threads, the sums requantized by the shared rows. Exact: the reference's bits on every CPU target.
// Chosen in prepare for 1-D and 2-D convolutions of int8 or int16 codes, and for the quantized Gemm /
// MatMul against a constant int8 B (a 1x1 convolution of its rows); enabled() false otherwise, and the op
// takes its next path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/kernels/int8/dwconv.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/int8/requantize_config.h"
#include "runtime/kernels/ref/conv.h"
#include "runtime/ops/gemm_fast_path.h"
#include "runtime/ops/op.h"

namespace npurt {

class ConvInt8Path {
 public:
  // Takes `node` (sets node->kernel, scratch_bytes, channels_last_io) when a kernel fits; `residual` is
  // a Conv's fused Add or nullptr.
  Status Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams& q, const ConvResidual* residual);
  // A Gemm / MatMul: A (input 0, rows x k row-major) times the constant int8 B (input 1) plus the int32
  // bias `bias` (N values) or nullptr, into the row-major output 0.
  Status PrepareMatrix(OpNode* node, const GemmFastShape& shape, const Tensor* bias);
  // A ConvTranspose (`t` its geometry in Conv terms, weights (C, M, kH, kW) input 1) whose kernel equals its
  // stride (no pads, dilations or groups): one input pixel per kH x kW output block, a 1x1 convolution to
  // kH * kW * M channels whose rows the requantization writes to their output pixels (depth to space).
  Status PrepareDepthToSpace(OpNode* node, const ConvParams& t, const ConvQuantParams& q);
  bool enabled() const { return kernel_ != nullptr || dw_ != nullptr; }
  Status Eval(OpNode* node) const;

 private:
  // One work item: a band of output pixels times a chunk of one group's output channels.
  void RunItem(const OpNode& node, int64_t item, const uint8_t* staged, const void* residual, void* out,
               float* sums) const;

  // `weights`: (M, C / groups, taps) int8; `bias`: M int32 or nullptr.
  Status PrepareWith(OpNode* node, const ConvParams& p, const ConvQuantParams& q, const ConvResidual* residual,
                     const int8_t* weights, const int32_t* bias);
  bool PrepareDepthwise(OpNode* node, const ConvParams& p, const int8_t* weights, const int32_t* bias);
  // One depthwise item: its region staged into `slot`, its sums after it, requantized to `out`.
  void RunDepthwiseItem(const OpNode& node, int64_t item, const DwconvStageArgs& stage, const void* residual, void* out,
                        uint8_t* slot) const;
  // The requantization of channels [m0, m0 + cols) of each output pixel.
  RequantizeRowsParams RowsParams(const OpNode& node, int64_t m0, int64_t cols) const;

  const IgemmKernel* kernel_ = nullptr;
  // Depthwise convolutions (one channel per group): their own kernel and its function for the geometry,
  // weights and tap offsets; items of a band of rows x a chunk of columns, each staging its own region
  // (dw_region_bytes_ of its slot) before its sums.
  const DwconvKernel* dw_ = nullptr;
  DwconvRunFn dw_run_ = nullptr;
  DwconvRunFn dw_run_requant_ = nullptr;  // the kernel with the requantization fused (codes out), or nullptr
  size_t dw_region_bytes_ = 0;
  DwconvGeometry dw_geometry_;
  std::vector<int64_t> dw_tap_offsets_;
  std::vector<uint8_t> dw_weights_;
  std::vector<int32_t> dw_bias_;
  std::vector<uint8_t> dw_zero_row_;  // the input zero point's code per channel (the padding's columns)
  RequantizeFloatRowsFn requantize_ = nullptr;
  // The tile with its requantization fused (the kernel's variant for this residual and output type), or
  // nullptr: the tiles write float sums that requantize_ turns into codes. Its clamp (the activation in).
  void (*fused_tile_)(const IgemmTileArgs& args, const IgemmRequant& requant) = nullptr;
  float fused_lo_ = 0.0f, fused_hi_ = 0.0f;
  // int16 inputs whose accumulators could pass int32 (kernels' sums int32, joined in int64 with the
  // bias by the piece rows): kBiasApart where only the bias could push them out; kTwoPieces where the
  // sums themselves could, d = x - zero point staged as d = 256 h + l in two images.
  enum class Sums { kFloat, kBiasApart, kTwoPieces };
  Sums sums_ = Sums::kFloat;
  bool pieces() const { return sums_ == Sums::kTwoPieces; }
  RequantizePieceRowsFn piece_rows_ = nullptr;
  std::vector<int32_t> apart_bias_;  // the output channels' bias, or empty
  size_t image_bytes_ = 0;            // one staged image (and its padding pixel)
  IgemmPackedWeights weights_;
  std::vector<int32_t> offsets_;  // [tile][tap][mr] byte offsets of the staged pixels; empty: direct 1x1
  ConvQuantParams quant_;
  FusedActivationParams activation_;
  bool int16_input_ = false;
  bool matrix_io_ = false;  // a Gemm / MatMul: input and output are row-major matrices (NHWC-like)
  // Depth to space (kh > 0): channel o = (kh * kW + kw) * M + m of input pixel (ih, iw) is output channel m
  // of pixel (ih * kH + kh, iw * kW + kw); the tiled per-channel parameters it reads.
  struct DepthToSpace {
    int64_t kh = 0, kw = 0, channels = 0, in_w = 0, out_w = 0;
    std::vector<float> scale, shift;
  } d2s_;
  int64_t y_pixels_ = 0, y_channels_ = 0;  // the output's (with depth to space, not the 1x1's)
  std::vector<int8_t> transposed_b_;  // a (K, N) B as (N, K)
  bool has_residual_ = false;
  ConvResidual residual_;
  int64_t in_pixels_ = 0, out_pixels_ = 0, in_channels_ = 0, out_channels_ = 0, batch_ = 1;
  int64_t row_bytes_ = 0;  // a staged pixel
  // A direct 1x1 whose staged rows would be the NHWC input's bytes as they are (int16 codes as pairs,
  // int8 codes as ARM's quads, no channel padding): the tiles read the input in place.
  bool in_place_ = false;
  int64_t staged_group_k_ = 0;  // staged elements per group of a pixel
  // Patches (row_bytes > 0): a convolution of few input channels (the first layer's RGB) as a 1x1 one
  // over its kH x kW x C patches, built per work item from the staged pixels (whose C is not padded):
  // one K of all the taps instead of taps short ones. offsets: [output pixel][tap] byte offsets.
  struct Patches {
    int64_t taps = 0, unit = 0, row_bytes = 0;  // unit: one tap's bytes (at most 8)
    size_t slot_at = 0;                         // where the item's patch rows start in its slot
    // The geometry: a kernel row's taps inside the input are one run of kernel_w * unit staged bytes.
    int64_t in_h = 0, in_w = 0, out_w = 0, kernel_h = 0, kernel_w = 0, stride_h = 1, stride_w = 1;
    int64_t pad_top = 0, pad_left = 0, dilation_h = 1, dilation_w = 1;
  } patches_;
  void BuildPatches(const uint8_t* staged, int64_t first_pixel, int64_t pixels, uint8_t* rows) const;
  int64_t tiles_ = 0;      // of mr output pixels
  int64_t band_tiles_ = 1, bands_ = 1;
  int64_t chunk_blocks_ = 1, chunks_ = 1;  // nr blocks per chunk, chunks per group
  // Scratch: the staged image (and its padding pixel), NHWC staging of an NCHW output and residual, then
  // one float sums slot per thread.
  size_t staged_bytes_ = 0, output_bytes_ = 0, residual_bytes_ = 0, slot_bytes_ = 0, sums_bytes_ = 0;
  int slots_ = 1;
};

}  // namespace npurt
