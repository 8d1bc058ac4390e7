// npurt's int8 depthwise convolution kernels (one input and one output channel per group), NHWC, exact:
// the int8 or int16 codes x staged as int16 (the igemm's int16-pair staging with one group), taps read
// through an indirection buffer, and per channel the sum over taps of x * w plus the bias, which absorbs
// zero point * sum(w), in int32 -- the reference's accumulator where that fits int32 (the op checks) --
// written as float(acc) for the shared requantization rows. Taps go in pairs, so one vpmaddwd sums two
// taps of eight channels.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

constexpr int64_t kDwconvChannelBlock = 16;  // staged rows and packed weights pad the channels to this

struct DwconvArgs {
  int64_t channels = 0;         // the output's (valid) channels
  int64_t padded_channels = 0;  // a multiple of kDwconvChannelBlock
  int taps = 1;
  const uint8_t* base = nullptr;   // staged rows of padded_channels int16
  const int32_t* offsets = nullptr;  // [pixel][taps rounded up to even] byte offsets from base
  const int16_t* weights = nullptr;  // packed (PackDwconvWeights)
  const int32_t* bias = nullptr;     // padded_channels values
  float* out = nullptr;              // row p of the range at out + (p - begin) * channels
  int32_t* out_int32 = nullptr;      // instead of out (not nullptr): the int32 accumulators themselves
};

struct DwconvKernel {
  const char* name;
  CpuTarget needs;
  // Output pixels `pixels` (offsets index them) into float(acc) rows.
  void (*run)(const DwconvArgs& args, WorkRange pixels);
  // The staging: igemm's int16 pairs with one group of all channels (group_k = padded_channels), and
  // its padding pixel.
  void (*stage)(const IgemmStageArgs& args, WorkRange pixels);
  void (*stage_padding)(const IgemmStageArgs& args, uint8_t* pixel);
};

// The kernel under ActiveCpuTarget() (nullptr: the ref target). Follows ScopedIgemmKernelChoice(nullptr)
// (no npurt int8 kernel) and ScopedDwconvKernelChoice.
const DwconvKernel* ChooseDwconvKernel();

// Tests: while alive, ChooseDwconvKernel returns `kernel` where it runs (nullptr: none).
class ScopedDwconvKernelChoice {
 public:
  explicit ScopedDwconvKernelChoice(const DwconvKernel* kernel);
  ~ScopedDwconvKernelChoice();
  ScopedDwconvKernelChoice(const ScopedDwconvKernelChoice&) = delete;
  ScopedDwconvKernelChoice& operator=(const ScopedDwconvKernelChoice&) = delete;

 private:
  const DwconvKernel* saved_;
  bool saved_forced_;
};
const std::vector<const DwconvKernel*>& AllDwconvKernels();

// Weights (C, 1, taps) int8 as [tap pair][channel block][16 channels permuted for the unpack][2] int16
// (a missing last tap 0); bias (C) or nullptr padded, less zero_point (the input's) * sum(w), wrapping.
void PackDwconvWeights(const int8_t* weights, const int32_t* bias, int64_t channels, int64_t taps, int32_t zero_point,
                       std::vector<int16_t>* packed, std::vector<int32_t>* packed_bias);

}  // namespace npurt
