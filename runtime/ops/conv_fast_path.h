// The optimized Conv and ConvTranspose path: a oneDNN convolution (runtime/kernels/x86) chosen in
// prepare when the CPU, the build and the node allow it, run in NHWC between
// relayouts of the NCHW graph tensors. Absent (enabled() false) otherwise, and
// the op runs its reference kernel.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/conv.h"
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
  // `transposed`: a ConvTranspose node (see OnednnConv::Create).
  Status Prepare(OpNode* node, const ConvParams& p, const ConvQuantParams* quant, bool transposed = false);
  bool enabled() const { return conv_ != nullptr; }
  Status Eval(OpNode* node) const;

 private:
  std::unique_ptr<OnednnConv> conv_;
  size_t elem_ = 4;          // bytes per activation
  size_t input_bytes_ = 0;   // NHWC staging of the input, rounded to 64
  size_t output_bytes_ = 0;  // and of the output
};

}  // namespace npurt
