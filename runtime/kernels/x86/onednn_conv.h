// 2-D convolution (1-D as H = 1) on oneDNN, int8 or float32, NHWC activations.
//
// Threads: npurt's pool, not OpenMP, owns the parallelism (one pool per process,
// the core mask, spin-then-block; see runtime/core/thread_pool.h). Each primitive
// is single-threaded; the output rows are cut into `slices()` bands, one
// primitive per band geometry (the inner bands share one), built in Create
// (rknn_init) with the weights reordered once into the blocked layout oneDNN picks. A band reads its input rows in place:
// in NHWC a run of rows is contiguous, so a band is a pointer offset with its own
// top and bottom padding. Output 1 row high cuts the columns instead.
//
// Float32, or int8 in accumulator mode: exact int32 sums that npurt requantizes itself (runtime/ops/
// conv_fast_path.h), bit-exact with the reference. (oneDNN's own int8 requantization -- output scales, zero
// points and eltwise post-ops -- rounds differently from the reference and, in oneDNN 2.6.3's VNNI kernels,
// saturated outputs to the wrong end: up to 255 steps off. It is not used.)
//
// A residual (a float Conv's fused Add, runtime/kernels/ref/conv.h) joins before the activation as
// oneDNN's first post-op, a sum over the output band, which Run fills with the residual first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/conv.h"

namespace npurt {

// Accumulator mode, for the quantized convolutions, which npurt requantizes:
// int8 or uint8 input with a zero point, int32 output sum((x - zero_point) * w)
// over the taps, padding adding nothing; no bias, scale or activation.
struct OnednnConvAccumulate {
  bool unsigned_input = false;
  int32_t zero_point = 0;
};

class OnednnConv {
 public:
  // Whether Create can take this convolution: 1-D or 2-D, and in accumulator mode a CPU with VNNI.
  static bool Supports(const ConvParams& p, bool accumulate);
  // Whether an output position of `p` reads only padding (oneDNN's brgconv gets those wrong: Create refuses
  // them where it would pick brgconv).
  static bool HasPaddingOnlyOutputs(const ConvParams& p);

  // `weights` (M, C / groups, kH, kW) float, or int8 with `accumulate`, and `bias` (M) float
  // (nullptr: none; none in accumulator mode) are copied. `max_slices` is the
  // most threads the op may run on. `transposed`: a ConvTranspose with `p` in its
  // terms (p.out the output size, p.pad_begin its pads) and weights (C, M / groups,
  // kH, kW); its rows are cut only where bands cannot overlap (kernel = stride, no pads).
  // `accumulate` (then the weights are int8) makes an accumulator-mode convolution.
  // `residual` (float32; not with `transposed` or `accumulate`): Run then takes its data.
  static Status Create(const ConvParams& p, const void* weights, const void* bias, int max_slices,
                       std::unique_ptr<OnednnConv>* out, bool transposed = false,
                       const OnednnConvAccumulate* accumulate = nullptr, const ConvResidual* residual = nullptr);
  ~OnednnConv();

  // Bands per image, and the scratch one band needs while it runs.
  int slices() const;
  size_t scratch_bytes_per_slice() const;
  // Runs band `slice` of image `n`: input (N, H, W, C), output (N, oH, oW, M) and the
  // residual (as the output; nullptr when Create had none), all dense.
  // `scratch` holds scratch_bytes_per_slice(), owned by this call alone.
  // Never throws; a failure means a broken invariant and returns kFail.
  Status Run(int64_t n, int slice, const void* input, void* output, void* scratch,
             const void* residual = nullptr) const;
  // Where band `slice` of image `n` reads and writes, in elements of the whole NHWC tensors: a
  // contiguous run of input rows (with the rows its kernel overlaps) and of output rows.
  struct BandSpan {
    int64_t input_offset = 0, input_elements = 0;
    int64_t output_offset = 0, output_elements = 0;
  };
  BandSpan band(int64_t n, int slice) const;
  // Run on the band's own rows copied elsewhere: `band_input` holds band(n, slice).input_elements
  // values, `band_output` receives output_elements (kernels that convert around the library call),
  // `band_residual` holds the residual's output_elements.
  Status RunBand(int64_t n, int slice, const void* band_input, void* band_output, void* scratch,
                 const void* band_residual = nullptr) const;
  // oneDNN's implementation name, e.g. "brgconv:avx512_core_vnni".
  const std::string& implementation() const;

 private:
  struct Impl;
  explicit OnednnConv(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace npurt
