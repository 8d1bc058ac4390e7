// The optimized Conv and ConvTranspose path: a oneDNN convolution (runtime/kernels/x86) chosen in
// prepare when the CPU, the build and the node allow it, run in NHWC between
// relayouts of the NCHW graph tensors. Absent (enabled() false) otherwise, and
// the op runs its reference kernel.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/conv.h"
#include "runtime/kernels/ref/fused_activation.h"
#include "runtime/kernels/ref/layout.h"
#include "runtime/kernels/x86/requantize_rows.h"  // a plain struct: any CPU
#include "runtime/ops/float_sum_split.h"
#include "runtime/ops/op.h"

namespace npurt {

class OnednnConv;

class ConvFastPath {
 public:
  ConvFastPath();
  ~ConvFastPath();
  ConvFastPath(ConvFastPath&&) noexcept;
  ConvFastPath& operator=(ConvFastPath&&) noexcept;

  // Chooses the kernel for `node` (sets node->kernel and node->scratch_bytes when it
  // takes it); `quant` is nullptr for float. A convolution the library cannot make
  // stays on the reference kernel (logged at debug level), so only a broken model fails.
  // `transposed`: a ConvTranspose node (see OnednnConv::Create). `residual`: a Conv's fused Add (type and
  // quantization; eval reads node input 3), nullptr for none.
  Status Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams* quant, bool transposed = false,
                 const ConvResidual* residual = nullptr);
  bool enabled() const { return conv_ != nullptr; }
  Status Eval(OpNode* node) const;

 private:
  // The library convolutions of `conv`, run over every (image, band) item; `scratch` holds each item's.
  Status RunBands(const OnednnConv& conv, int64_t batch, int threads, const void* input, void* output,
                  uint8_t* scratch, const void* residual = nullptr) const;
  // Node input 3 (the residual) in NHWC: in place when channels-last, else relaid into `staging`.
  const void* ResidualNhwc(const OpNode& node, uint8_t* staging) const;
  Status PrepareAccumulating(OpNode* node, const ConvParams& p, const ConvQuantParams& quant, bool transposed);
  Status EvalAccumulating(OpNode* node) const;
  // The requantization of `node`'s sums (accumulating and float-sum modes).
  RequantizeRowsParams RequantizeParams(const OpNode& node) const;
  bool has_residual_ = false;
  ConvResidual residual_;      // type and quantization
  size_t residual_bytes_ = 0;  // NHWC staging of an NCHW residual, rounded to 64 (after the output's)
  Status PrepareFloatSums(OpNode* node, const ConvParams& p, const ConvQuantParams& quant, bool transposed);
  Status EvalFloatSums(OpNode* node) const;

  std::unique_ptr<OnednnConv> conv_;
  size_t input_bytes_ = 0;   // NHWC staging of the input, rounded to 64
  size_t output_bytes_ = 0;  // and of the output
  // Accumulating mode (every quantized convolution on a CPU with VNNI): the library sums int8 pieces into
  // int32 and npurt requantizes exactly as the reference. An int16 input x is cut into
  // x = 256 * high + low (high int8, low uint8, the zero point likewise): `conv_` sums the high
  // bytes, `low_conv_` the low ones, and acc = 256 * high sum + low sum.
  bool accumulating_ = false;
  std::unique_ptr<OnednnConv> low_conv_;
  // Float-sum mode (quantized convolutions on CPUs without VNNI, where oneDNN's int8 kernels halve the
  // weights): the codes, as float (x - zero point), and float weights are summed by a float32 library
  // convolution, kept exact (in two pieces where one could round: runtime/ops/float_sum_split.h), and npurt
  // requantizes the sums as the reference.
  bool float_sums_ = false;
  static constexpr int64_t kFloatSumBandBytes = 256 << 10;  // a band's float input + sums, at most about
  size_t band_input_bytes_ = 0, band_sums_bytes_ = 0;      // per thread: a band's float input, its sums
  size_t slot_bytes_ = 0;                                  // (per piece) and the library's scratch
  FloatSumSplit split_;
  int slots_ = 1;                                          // threads with a slot of scratch
  // A strided 1x1 convolution without padding runs as a 1x1 of stride 1 on the pixels it reads, picked
  // out into the input staging (float) or by the float conversion (float sums).
  bool subsampled_ = false;
  SubsampleGeometry subsample_;
  ConvQuantParams quant_;
  FusedActivationParams activation_;
};

}  // namespace npurt
