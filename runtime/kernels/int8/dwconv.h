// npurt's int8 depthwise convolution kernels (one input and one output channel per group), NHWC, exact:
// one template (dwconv_microkernel.h) with the dot product as its ISA policy -- the igemm's policies
// (igemm_policies_*.h): vpdpbusd on uint8 quads, vpmaddwd / vpdpwssd on int16 pairs, sdot, portable pairs
// -- each also compiled as an exact AVX2 emulation, as the igemm kernels are.
//
// The activations are staged once per run as column groups: staged pixel (r, j) of the padded input holds,
// per channel, one 4-byte group of the G = 4 / element bytes values of columns j, j + dw, ..., j + (G-1) dw
// (the igemm's formats: int16 pairs of the codes, uint8 quads x + 128, int8 quads; the zero point's code
// outside the input). One dot instruction then sums G horizontal taps of a kernel row for kLanes channels:
// a 3x3 kernel is 3 quads or 6 pairs a channel vector, read straight from the staged rows (no indirection
// buffer, no unpacking). The bias absorbs the format's compensation, as in the igemm; the sums are int32,
// the reference's accumulator where that fits int32 (the op checks), written as float(acc) for the
// shared requantization rows, or as int32.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

constexpr int64_t kDwconvChannelBlock = 16;  // staged pixels and packed weights pad the channels to this

// The convolution as the kernels see it (2-D; 1-D as height 1).
struct DwconvGeometry {
  int64_t channels = 0, padded_channels = 0;  // padded: a multiple of kDwconvChannelBlock
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  // The format's values per group, and what follows from it: tap groups per kernel row and the staged
  // image's size (rows x columns of padded_channels groups).
  int64_t pack = 2, row_groups = 1, staged_h = 1, staged_w = 1;
};
DwconvGeometry MakeDwconvGeometry(IgemmFormat format, int64_t channels, int64_t in_h, int64_t in_w, int64_t out_h,
                                  int64_t out_w, int64_t kernel_h, int64_t kernel_w, int64_t stride_h, int64_t stride_w,
                                  int64_t dilation_h, int64_t dilation_w, int64_t pad_top, int64_t pad_left);
inline int64_t DwconvStagedBytes(const DwconvGeometry& g) { return g.staged_h * g.staged_w * g.padded_channels * 4; }

struct DwconvStageArgs {
  const DwconvGeometry* geometry = nullptr;
  const void* input = nullptr;  // int8 or int16 codes; pixel p channel c at p * pixel_stride + c * channel_stride
  bool input_int16 = false;
  int64_t pixel_stride = 0, channel_stride = 1;
  int32_t zero_point = 0;
  const void* zero_row = nullptr;  // channels codes of the zero point (the input's type), for the padding
  uint8_t* staged = nullptr;
};

struct DwconvArgs {
  const DwconvGeometry* geometry = nullptr;
  const uint8_t* staged = nullptr;
  const int64_t* tap_offsets = nullptr;  // kernel_h * row_groups byte offsets of a pixel's tap groups
  const uint8_t* weights = nullptr;      // packed (PackDwconvWeights)
  const int32_t* bias = nullptr;         // padded_channels values (with the compensation)
  float* out = nullptr;                  // row p of the range at out + (p - begin) * channels
  int32_t* out_int32 = nullptr;          // instead of out (not nullptr): the int32 accumulators themselves
};

struct DwconvKernel {
  const char* name;   // e.g. "s8_dwconv_16c4__avx512vnni"
  CpuTarget needs;
  bool (*cpu_has)();  // an extra CPU feature test (AVX-VNNI, dotprod), or nullptr
  bool emulated;      // the dot instruction is emulated in AVX2 (tests)
  IgemmFormat format;
  bool int16_inputs;  // can read int16 activations (int16 pairs)
  // Output pixels `pixels` (row-major over out_h x out_w) into float(acc) or int32 rows.
  void (*run)(const DwconvArgs& args, WorkRange pixels);
  // Staged rows `rows` (of staged_h).
  void (*stage)(const DwconvStageArgs& args, WorkRange rows);
};

const std::vector<const DwconvKernel*>& AllDwconvKernels();
bool DwconvKernelRuns(const DwconvKernel& k);
// The kernel for `int16_input` convolutions under ActiveCpuTarget() (nullptr: the ref target). Follows
// ScopedIgemmKernelChoice(nullptr) (no npurt int8 kernel) and ScopedDwconvKernelChoice; under
// NPURT_INT8_KERNEL=<igemm kernel> the depthwise kernel of the same ISA (the same "__" suffix).
const DwconvKernel* ChooseDwconvKernel(bool int16_input);

// Tests: while alive, ChooseDwconvKernel returns `kernel` where it runs and reads the input type (nullptr:
// none).
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

// Byte offsets from a pixel's first staged group of its tap groups: (kh, g) at kh * row_groups + g.
std::vector<int64_t> DwconvTapOffsets(const DwconvGeometry& g);

// Weights (C, 1, kH, kW) int8 as [channel block][kh][tap group][16 channels][4 bytes] in the kernel's
// format (taps past kW zero); bias (C) or nullptr padded, less (zero point [+ 128 for uint8 quads]) *
// sum(w), wrapping as the sums do.
void PackDwconvWeights(const DwconvKernel& k, const DwconvGeometry& g, const int8_t* weights, const int32_t* bias,
                       int32_t zero_point, std::vector<uint8_t>* packed, std::vector<int32_t>* packed_bias);

}  // namespace npurt
