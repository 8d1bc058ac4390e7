// npurt's int8 depthwise convolution kernels (one input and one output channel per group), NHWC, exact:
// one template (dwconv_microkernel.h) with the dot product as its ISA policy -- the igemm's policies
// (igemm_policies_*.h): vpdpbusd on uint8 quads, vpmaddwd / vpdpwssd on int16 pairs, sdot, portable pairs
// -- each also compiled as an exact AVX2 emulation, as the igemm kernels are.
//
// Each work item -- a band of output rows times a chunk of output columns -- stages the input region it
// reads, in its thread's slot, as column groups: staged pixel (r, j) of the padded input holds, per
// channel, one 4-byte group of the G = 4 / element bytes values of columns j, j + dw, ..., j + (G-1) dw
// (the igemm's formats: int16 pairs of the codes, uint8 quads x + 128, int8 quads; the zero point's code
// outside the input). One dot instruction then sums G horizontal taps of a kernel row for kLanes
// channels: a 3x3 kernel is 3 quads or 6 pairs a channel vector, read straight from the staged rows (no
// indirection buffer, no unpacking), and the region stays in the core's cache between its staging and
// its reads. The kernel's rows of a band are computed together where the kernel height and stride are
// the common ones (3 or 5, stride 1 or 2, no vertical dilation): each staged row loaded once for every
// output row that reads it. The bias absorbs the format's compensation, as in the igemm; the sums are
// int32, the reference's accumulator where that fits int32 (the op checks), written as float(acc) for
// the shared requantization rows, or as int32, or -- the bands' kernels of the AVX-512 policies -- as the
// codes themselves, requantized in the epilogue (run_rows_requant).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/ref/work_range.h"

namespace npurt {

constexpr int64_t kDwconvChannelBlock = 16;  // staged pixels and packed weights pad the channels to this

// The convolution as the kernels see it (2-D; 1-D as height 1), and its work items.
struct DwconvGeometry {
  int64_t channels = 0, padded_channels = 0;  // padded: a multiple of kDwconvChannelBlock
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t pack = 2, row_groups = 1;  // the format's values per group; tap groups per kernel row
  // An item: band_rows output rows (the kernel's rows) x chunk_cols output columns, whose staged region
  // is region_h x region_w pixels of padded_channels groups. The region holds every column_step-th
  // column only: the taps read no others (stride 2 with pairs or quads: every second one).
  int64_t band_rows = 1, chunk_cols = 1, region_h = 1, region_w = 1, column_step = 1;
  int64_t bands = 1, chunks = 1;
};
// `max_region_bytes` bounds an item's staged region (and `max_sums` its sums) by narrowing its columns.
DwconvGeometry MakeDwconvGeometry(IgemmFormat format, int band_rows, int64_t channels, int64_t in_h, int64_t in_w,
                                  int64_t out_h, int64_t out_w, int64_t kernel_h, int64_t kernel_w, int64_t stride_h,
                                  int64_t stride_w, int64_t dilation_h, int64_t dilation_w, int64_t pad_top,
                                  int64_t pad_left, int64_t max_region_bytes = 192 * 1024, int64_t max_sums = 32768);
inline int64_t DwconvRegionBytes(const DwconvGeometry& g) { return g.region_h * g.region_w * g.padded_channels * 4; }

// Item i of the geometry: its first output row and column, and how many of each it has.
struct DwconvItem {
  int64_t row = 0, col = 0, rows = 1, cols = 1;
};
inline DwconvItem DwconvItemAt(const DwconvGeometry& g, int64_t i) {
  DwconvItem item;
  item.row = i / g.chunks * g.band_rows;
  item.col = i % g.chunks * g.chunk_cols;
  item.rows = g.out_h - item.row < g.band_rows ? g.out_h - item.row : g.band_rows;
  item.cols = g.out_w - item.col < g.chunk_cols ? g.out_w - item.col : g.chunk_cols;
  return item;
}

struct DwconvStageArgs {
  const DwconvGeometry* geometry = nullptr;
  const void* input = nullptr;  // int8 or int16 codes; pixel p channel c at p * pixel_stride + c * channel_stride
  bool input_int16 = false;
  int64_t pixel_stride = 0, channel_stride = 1;
  const void* zero_row = nullptr;  // channels codes of the zero point (the input's type), for the padding
};

struct DwconvArgs {
  const DwconvGeometry* geometry = nullptr;
  const uint8_t* region = nullptr;       // the item's staged region
  const int64_t* tap_offsets = nullptr;  // kernel_h * row_groups byte offsets of a pixel's tap groups
  const uint8_t* weights = nullptr;      // packed (PackDwconvWeights)
  const int32_t* bias = nullptr;         // padded_channels values (with the compensation)
  // The item's sums: output pixel (row r, column j) of the item at (r * cols + j) * channels.
  float* out = nullptr;
  int32_t* out_int32 = nullptr;  // instead of out (not nullptr): the int32 accumulators themselves
  // The kernels with the requantization fused (DwconvKernel::run_rows_requant) write codes instead: output
  // pixel (row r, column j) of the item at requant->out + r * out_stride + j * channels elements (out:
  // the item's first pixel), requant->acc_scale the channels' scales.
  const IgemmRequant* requant = nullptr;
};

using DwconvRunFn = void (*)(const DwconvArgs& args, const DwconvItem& item);

struct DwconvKernel {
  const char* name;   // e.g. "s8_dwconv_16c4__avx512vnni"
  CpuTarget needs;
  bool (*cpu_has)();  // an extra CPU feature test (AVX-VNNI, dotprod), or nullptr
  bool emulated;      // the dot instruction is emulated in AVX2 (tests)
  IgemmFormat format;
  bool int16_inputs;  // can read int16 activations (int16 pairs)
  int band_rows;      // output rows an item's band holds
  // An item's sums: any geometry (through the tap offsets), and the bands computed row-together for
  // kernel heights 3 and 5 at strides 1 and 2 without vertical dilation ([height == 5][stride == 2]).
  DwconvRunFn run;
  DwconvRunFn run_rows[2][2];
  // The bands' kernels with the requantization in their epilogue, as the igemm's fused tiles (int8 or int16
  // codes, an activation folded into the clamp, no residual): [int16 output][height == 5][stride == 2];
  // nullptr where the policy has no fused requantization.
  DwconvRunFn run_rows_requant[2][2][2];
  // The staged region of the item whose first output row and column are `item`'s, into `region`.
  void (*stage)(const DwconvStageArgs& args, const DwconvItem& item, uint8_t* region);
};
// The kernel's function for geometry `g`; its function with the requantization fused, or nullptr.
DwconvRunFn DwconvRunFor(const DwconvKernel& k, const DwconvGeometry& g);
DwconvRunFn DwconvRunRequantFor(const DwconvKernel& k, const DwconvGeometry& g, bool out16);

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

// Byte offsets, in an item's region, from a pixel's first staged group of its tap groups: (kh, g) at
// kh * row_groups + g.
std::vector<int64_t> DwconvTapOffsets(const DwconvGeometry& g);

// Weights (C, 1, kH, kW) int8 as [channel block][kh][tap group][16 channels][4 bytes] in the kernel's
// format (taps past kW zero); bias (C) or nullptr padded, less (zero point [+ 128 for uint8 quads]) *
// sum(w), wrapping as the sums do.
void PackDwconvWeights(const DwconvKernel& k, const DwconvGeometry& g, const int8_t* weights, const int32_t* bias,
                       int32_t zero_point, std::vector<uint8_t>* packed, std::vector<int32_t>* packed_bias);

}  // namespace npurt
