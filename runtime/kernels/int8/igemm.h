// npurt's int8 convolution microkernels: implicit GEMM over an indirection buffer (as XNNPACK's igemm),
// NHWC, exact integer arithmetic. One template (igemm_microkernel.h) with the dot product as its ISA
// policy; each policy is also compiled with an exact AVX2 emulation of its dot instruction, so its packing,
// blocking and compensation run on every x86-64 machine (the `emulated` kernels).
//
// The activations are staged once per run into the policy's format:
//   kPairsS16: int16 pairs of the codes x as they are (int8 or int16 inputs), against int16 weights
//              (vpmaddwd on AVX2 / AVX-512BW, portable scalar: |x w| <= 2^22, so a pair never saturates).
//              The bias absorbs zero point * sum(w); padding reads the zero point.
//   kQuadsU8:  uint8 quads x + 128 (int8 inputs only), against int8 weights (vpdpbusd, AVX-VNNI,
//              AVX-512 VNNI). Padding reads the zero point; the bias absorbs (zero point + 128) * sum(w).
//   kQuadsS8:  int8 quads of the codes x as they are (int8 inputs only), against int8 weights (ARM sdot).
//              Padding reads the zero point; the bias absorbs zero point * sum(w).
// Every group's K is padded with zeros to whole pairs / quads. A tile's sums are bias + dot in int32,
// which equals the reference's accumulator wherever the reference's fits int32 (checked by the op:
// int32 arithmetic wraps, so only the final value must fit), written as float(acc) -- the reference's
// conversion -- for the shared requantization rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

enum class IgemmFormat { kPairsS16, kQuadsU8, kQuadsS8 };
// Bytes of one staged element, and elements per 4-byte group.
constexpr int64_t IgemmElementBytes(IgemmFormat f) { return f == IgemmFormat::kPairsS16 ? 2 : 1; }
constexpr int64_t IgemmPack(IgemmFormat f) { return 4 / IgemmElementBytes(f); }

// One tile: rows (<= mr) output pixels x cols (<= nr) output channels of one group.
struct IgemmTileArgs {
  int rows = 0, cols = 0;
  int taps = 1;          // kernel positions
  int kgroups = 0;       // 32-bit activation groups per tap (a group's padded K / pack)
  const uint8_t* base = nullptr;  // the staged activations of this group's first channel
  // offsets[tap * mr + i]: byte offset from base of row i's pixel for that tap (padding: the staged
  // padding pixel). nullptr: a 1x1 convolution of stride 1, row i at base + (first_row + i) * row_bytes.
  const int32_t* offsets = nullptr;
  int64_t first_row = 0, row_bytes = 0;
  const uint8_t* weights = nullptr;  // this tile's packed block: [tap][kgroup][nr][4 bytes]
  const int32_t* bias = nullptr;     // nr values (the block's bias and compensation)
  float* out = nullptr;              // float(acc), row i at out + i * out_stride
  int32_t* out_int32 = nullptr;      // instead of out (not nullptr): the int32 accumulators themselves
  int64_t out_stride = 0;
};

// A tile's requantization fused into its epilogue (IgemmKernel::tile_requant): the sums go from registers
// to int8 / int16 codes with the requantization rows' arithmetic (runtime/kernels/int8/requantize_config.h,
// bit for bit), for an activation folded into the clamp (FoldActivationIntoClamp) and no affine. Rows
// out_stride elements apart, the residual's too (the rows' layout).
struct IgemmRequant {
  const float* acc_scale = nullptr;  // the tile's columns' values
  float out_scale = 1.0f;
  float lo = 0.0f, hi = 0.0f;        // the clamp, relative to the zero point
  int32_t out_zero_point = 0;
  const void* residual = nullptr;    // int8 or int16 codes (the kernel's variant), as the output
  float residual_scale = 1.0f;
  int32_t residual_zero_point = 0;
  void* out = nullptr;               // the tile's row 0, column 0
  int64_t out_stride = 0;
};

// Staging: pixels [begin, end) of an input (int8 or int16 codes; pixel p channel c at
// p * pixel_stride + c * channel_stride elements) into rows of groups * group_k bytes-per-element.
struct IgemmStageArgs {
  const void* input = nullptr;
  bool input_int16 = false;
  int64_t pixel_stride = 0, channel_stride = 0;
  int64_t groups = 1, group_in = 1;  // input channels per group
  int64_t group_k = 0;               // staged elements per group (padded)
  int32_t zero_point = 0;
  uint8_t* staged = nullptr;         // row p at staged + p * row_bytes
  int64_t row_bytes = 0;
};

struct IgemmKernel {
  const char* name;      // e.g. "s8_igemm_4x16c2__avx2"
  CpuTarget needs;       // the target this kernel runs on
  bool (*cpu_has)();     // an extra CPU feature test (AVX-VNNI), or nullptr
  bool emulated;         // the dot instruction is emulated in AVX2 (tests)
  IgemmFormat format;
  int mr, nr;            // tile: output pixels x output channels
  bool int16_inputs;     // can read int16 activations (kPairsS16)
  void (*tile)(const IgemmTileArgs& args);
  // A tile of one row (a Gemm of one row, an image's last pixel): the K groups summed four ways apart, so
  // the dot instructions do not wait on one another's latency.
  void (*row_tile)(const IgemmTileArgs& args);
  // The tile with its requantization fused (nullptr where the kernel has none: the op requantizes the
  // float sums): [residual: none, int8, int16][output: int8, int16].
  void (*tile_requant[3][2])(const IgemmTileArgs& args, const IgemmRequant& requant);
  void (*stage)(const IgemmStageArgs& args, WorkRange pixels);
  // The staged padding pixel: row_bytes bytes.
  void (*stage_padding)(const IgemmStageArgs& args, uint8_t* pixel);
};

// Every kernel compiled into this build, emulated ones included (tests walk them all).
const std::vector<const IgemmKernel*>& AllIgemmKernels();
// Whether `k` can run here under ActiveCpuTarget().
bool IgemmKernelRuns(const IgemmKernel& k);
// The kernel for `int16_input` convolutions under ActiveCpuTarget(), or nullptr (ref target: the
// reference kernels). NPURT_INT8_KERNEL=<name> picks a kernel by name where it runs (tests).
const IgemmKernel* ChooseIgemmKernel(bool int16_input);

// Tests: while alive, ChooseIgemmKernel returns `kernel` (nullptr: none, so the op takes its next path)
// where it runs and reads the input type, nullptr elsewhere. Ops choose in prepare.
class ScopedIgemmKernelChoice {
 public:
  explicit ScopedIgemmKernelChoice(const IgemmKernel* kernel);
  ~ScopedIgemmKernelChoice();
  ScopedIgemmKernelChoice(const ScopedIgemmKernelChoice&) = delete;
  ScopedIgemmKernelChoice& operator=(const ScopedIgemmKernelChoice&) = delete;

 private:
  const IgemmKernel* saved_;
  bool saved_forced_;
};

// True while a ScopedIgemmKernelChoice(nullptr) is alive: the tests of the library paths.
bool IgemmKernelsDisabledForTest();

// Weights packed once for a kernel: per group, per block of nr output channels,
// [tap][kgroup][nr][pack], zero past the group's channels and K; and per output channel the bias
// folded with the format's compensation (int32, wrapping).
struct IgemmPackedWeights {
  int64_t groups = 1, group_out = 1, group_in = 1, taps = 1;
  int64_t group_k = 0;        // staged elements per group (padded)
  int64_t kgroups = 0;        // group_k / pack
  int64_t blocks = 0;         // nr blocks per group
  int64_t block_bytes = 0;
  std::vector<uint8_t> data;  // groups * blocks * block_bytes, 64-byte aligned rows not needed
  std::vector<int32_t> bias;  // groups * blocks * nr
  const uint8_t* Block(int64_t g, int64_t b) const {
    return data.data() + static_cast<size_t>((g * blocks + b) * block_bytes);
  }
  const int32_t* BlockBias(int64_t g, int64_t b) const { return bias.data() + (g * blocks + b) * nr_; }
  int64_t nr_ = 0;
};

// Staged elements per group for a kernel: group_in padded to whole pairs / quads.
int64_t IgemmGroupK(const IgemmKernel& k, int64_t group_in);
// Conv weights (M, C / groups, taps) int8, bias (M) int32 or nullptr; zero_point the input's.
void PackIgemmWeights(const IgemmKernel& k, const int8_t* weights, const int32_t* bias, int64_t groups,
                      int64_t out_channels, int64_t group_in, int64_t taps, int32_t zero_point,
                      IgemmPackedWeights* out);

}  // namespace npurt
