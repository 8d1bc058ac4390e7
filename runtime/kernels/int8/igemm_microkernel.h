// The igemm microkernel and the activation staging, templated on the ISA policy (igemm.h). Included only
// by the files that instantiate it, each compiled for its ISA; everything here has internal linkage
// (no std:: templates either), so an AVX-512 instantiation can never stand in for another file's.
//
// A policy provides, on a vector of kLanes int32 lanes (kSpillSums: the sums go through memory before the
// stores, where the registers are too few to keep them and the loop's operands):
//   Vec Zero(); Vec Load(const uint8_t*) (kLanes groups of 4 bytes); Vec Broadcast(const uint8_t*)
//   (one 4-byte group to every lane); Vec Dot(Vec acc, Vec a, Vec w) (acc + the lane-wise dot of a's
//   and w's pack elements: vpmaddwd + vpaddd, vpdpbusd, ...); Vec Add(Vec, Vec); Vec LoadInt(const int32_t*);
//   void StoreFloat(float*, Vec) (float of each lane, correctly rounded).
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/kernels/int8/fused_epilogue.h"
#include "runtime/kernels/int8/igemm.h"

namespace npurt {
namespace {

// The tile's sums: acc[i][j] = bias + the dot products over taps and K groups (int32, wrapping: the order
// of the additions does not change them, so the sums start at the bias).
template <class P, int MR, int NV>
inline void IgemmAccumulate(const IgemmTileArgs& t, typename P::Vec (&acc)[MR][NV]) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int NR = NV * kLanes;
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) {
    const Vec start = P::LoadInt(t.bias + j * kLanes);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) acc[i][j] = start;
  }
  const uint8_t* w = t.weights;
  for (int tap = 0; tap < t.taps; ++tap) {
    const uint8_t* a[MR];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      if (t.offsets != nullptr) {
        a[i] = t.base + t.offsets[tap * MR + i];
      } else {
        a[i] = t.base + (t.first_row + (i < t.rows ? i : t.rows - 1)) * t.row_bytes;
      }
    }
    for (int k = 0; k < t.kgroups; ++k) {
      Vec wv[NV];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) wv[j] = P::Load(w + j * kLanes * 4);
      w += NR * 4;
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const Vec b = P::Broadcast(a[i] + 4 * k);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[i][j] = P::Dot(acc[i][j], b, wv[j]);
      }
    }
  }
  // (With 16 vector registers, AVX2's, the sums go through memory: kept in registers into the epilogue
  // they leave too few for the loop above, which then spills.)
  if constexpr (P::kSpillSums) {
    alignas(64) Vec stored[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) stored[i][j] = acc[i][j];
    }
    asm volatile("" : : "r"(stored) : "memory");
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = stored[i][j];
    }
  }
}

template <class P, int MR, int NV>
void IgemmTile(const IgemmTileArgs& t) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int NR = NV * kLanes;
  Vec acc[MR][NV];
  IgemmAccumulate<P, MR, NV>(t, acc);
  static_assert(sizeof(Vec) == kLanes * sizeof(int32_t), "a policy's vector is its int32 lanes in order");
  // The accumulators are indexed by constants only (a loop that can leave early would index them at run
  // time and keep them in memory through the whole tile); the fields read before any store, which could
  // alias them.
  const int64_t stride = t.out_stride;
  if (t.rows == MR && t.cols == NR) {  // a whole tile: every vector stored as it is
    if (t.out_int32 != nullptr) {
      int32_t* const out = t.out_int32;
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) {
          std::memcpy(out + i * stride + j * kLanes, &acc[i][j], sizeof(Vec));
        }
      }
    } else {
      float* const out = t.out;
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) P::StoreFloat(out + i * stride + j * kLanes, acc[i][j]);
      }
    }
    return;
  }
  // A partial tile: the sums through a local block, then the rows and columns that exist (float(acc) as
  // the policies' StoreFloat rounds it).
  alignas(64) int32_t block[MR][NR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      std::memcpy(&block[i][j * kLanes], &acc[i][j], sizeof(Vec));
    }
  }
  const int rows = t.rows, cols = t.cols;
  int32_t* const out_int32 = t.out_int32;
  float* const out = t.out;
  for (int i = 0; i < rows; ++i) {
    if (out_int32 != nullptr) {
      std::memcpy(out_int32 + i * stride, block[i], static_cast<size_t>(cols) * sizeof(int32_t));
    } else {
      for (int c = 0; c < cols; ++c) out[i * stride + c] = static_cast<float>(block[i][c]);
    }
  }
}

// The tile with its requantization in the epilogue (igemm.h's IgemmRequant, fused_epilogue.h), rows past
// t.rows and columns past t.cols not stored. kResidual: 0 none, 1 int8, 2 int16 codes.
template <class P, int MR, int NV, int kResidual, bool kOut16>
void IgemmTileRequant(const IgemmTileArgs& t, const IgemmRequant& r) {
  typename P::Vec acc[MR][NV];
  IgemmAccumulate<P, MR, NV>(t, acc);
  // Everything read before the stores, which could alias it (int8 stores alias anything).
  const typename P::Requant c(r);
  StoreRequantizedBlock<P, MR, NV, kResidual, kOut16>(c, acc, t.rows, t.cols, r.acc_scale,
                                                      static_cast<const uint8_t*>(r.residual),
                                                      static_cast<uint8_t*>(r.out), r.out_stride);
}

// The fused tiles of a policy, every variant (igemm.h's IgemmKernel::tile_requant).
#define NPURT_IGEMM_TILE_REQUANT(P, MR, NV)                                                  \
  {                                                                                          \
    {IgemmTileRequant<P, MR, NV, 0, false>, IgemmTileRequant<P, MR, NV, 0, true>},           \
        {IgemmTileRequant<P, MR, NV, 1, false>, IgemmTileRequant<P, MR, NV, 1, true>},       \
        {IgemmTileRequant<P, MR, NV, 2, false>, IgemmTileRequant<P, MR, NV, 2, true>}        \
  }

// A tile of one row (a Gemm of one row; a convolution's last pixel where the pixels are not a multiple of
// MR, as a 7x7 image's 49th): kSplit partial sums per vector, K group k of each tap into partial k % kSplit
// (int32 additions wrap, so the order of the sums does not change them), the tap's pixel from row 0 of
// the tile's offsets (MR apart) or the direct rows.
template <class P, int MR, int NV>
void IgemmRowTile(const IgemmTileArgs& t) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes, NR = NV * kLanes, kSplit = 4;
  Vec acc[kSplit][NV];
#pragma GCC unroll 4
  for (int s = 0; s < kSplit; ++s) {
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[s][j] = P::Zero();
  }
  const uint8_t* w = t.weights;
  const int kgroups = t.kgroups;
  for (int tap = 0; tap < t.taps; ++tap) {
    const uint8_t* a = t.offsets != nullptr ? t.base + t.offsets[tap * MR] : t.base + t.first_row * t.row_bytes;
    int k = 0;
    for (; k + kSplit <= kgroups; k += kSplit) {
#pragma GCC unroll 4
      for (int s = 0; s < kSplit; ++s) {
        const Vec b = P::Broadcast(a + 4 * (k + s));
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[s][j] = P::Dot(acc[s][j], b, P::Load(w + (s * NR + j * kLanes) * 4));
      }
      w += kSplit * NR * 4;
    }
    for (; k < kgroups; ++k, w += NR * 4) {
      const Vec b = P::Broadcast(a + 4 * k);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[0][j] = P::Dot(acc[0][j], b, P::Load(w + j * kLanes * 4));
    }
  }
  alignas(64) int32_t block[NR];
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) {
    const Vec v = P::Add(P::Add(P::Add(acc[0][j], acc[1][j]), P::Add(acc[2][j], acc[3][j])), P::LoadInt(t.bias + j * kLanes));
    std::memcpy(block + j * kLanes, &v, sizeof(v));
  }
  if (t.out_int32 != nullptr) {
    std::memcpy(t.out_int32, block, static_cast<size_t>(t.cols) * sizeof(int32_t));
  } else {
    for (int c = 0; c < t.cols; ++c) t.out[c] = static_cast<float>(block[c]);
  }
}

// Channel c of pixel p of the input, as int32.
inline int32_t InputCode(const IgemmStageArgs& s, int64_t p, int64_t c) {
  const int64_t at = p * s.pixel_stride + c * s.channel_stride;
  return s.input_int16 ? static_cast<const int16_t*>(s.input)[at] : static_cast<const int8_t*>(s.input)[at];
}

// One staged value of the format from a code.
template <IgemmFormat F>
inline void StageValue(int32_t code, uint8_t* row, int64_t k) {
  if constexpr (F == IgemmFormat::kQuadsU8) {
    row[k] = static_cast<uint8_t>(code + 128);
  } else if constexpr (F == IgemmFormat::kQuadsS8) {
    row[k] = static_cast<uint8_t>(static_cast<int8_t>(code));
  } else {
    reinterpret_cast<int16_t*>(row)[k] = static_cast<int16_t>(code);
  }
}

template <IgemmFormat F>
constexpr int64_t kStagedElementBytes = IgemmElementBytes(F);

// n int8 codes as staged elements (the loops the compiler vectorizes: restrict pointers and no field of
// the arguments read inside, which a byte store could otherwise alias).
template <IgemmFormat F>
inline void StageCodes(const int8_t* __restrict in, uint8_t* __restrict out, int64_t n) {
  if constexpr (F == IgemmFormat::kQuadsU8) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(in[i] + 128);
  } else if constexpr (F == IgemmFormat::kQuadsS8) {
    std::memcpy(out, in, static_cast<size_t>(n));
  } else {
    int16_t* __restrict wide = reinterpret_cast<int16_t*>(out);
    for (int64_t i = 0; i < n; ++i) wide[i] = in[i];
  }
}

// Pixels [begin, end) staged; a group's padding elements zero.
template <IgemmFormat F>
void IgemmStage(const IgemmStageArgs& s, WorkRange pixels) {
  // The caller passes exact bounds (no std:: helpers here: see the file comment).
  const int64_t begin = pixels.begin, end = pixels.end;
  const int64_t groups = s.groups, group_in = s.group_in, group_k = s.group_k, row_bytes = s.row_bytes;
  const int64_t pixel_stride = s.pixel_stride;
  uint8_t* const staged = s.staged;
  constexpr int64_t kElem = kStagedElementBytes<F>;
  const bool nhwc8 = s.channel_stride == 1 && !s.input_int16;
  const int8_t* const in8 = static_cast<const int8_t*>(s.input);
  if (nhwc8 && groups * group_in == pixel_stride && group_k == group_in &&
      row_bytes == groups * group_k * kElem) {
    // NHWC int8 whose channels fill the staged rows: one run over the pixels.
    StageCodes<F>(in8 + begin * pixel_stride, staged + begin * row_bytes, (end - begin) * pixel_stride);
    return;
  }
  if constexpr (F == IgemmFormat::kPairsS16) {
    if (s.input_int16 && s.channel_stride == 1 && groups * group_in == pixel_stride && group_k == group_in &&
        row_bytes == groups * group_k * 2) {
      // NHWC int16 whose channels fill the staged rows: the codes as they are.
      std::memcpy(staged + begin * row_bytes, static_cast<const int16_t*>(s.input) + begin * pixel_stride,
                  static_cast<size_t>((end - begin) * row_bytes));
      return;
    }
  }
  for (int64_t p = begin; p < end; ++p) {
    uint8_t* row = staged + p * row_bytes;
    for (int64_t g = 0; g < groups; ++g) {
      uint8_t* group = row + g * group_k * kElem;
      const int64_t first = g * group_in;
      if (nhwc8) {
        StageCodes<F>(in8 + p * pixel_stride + first, group, group_in);
      } else {
        for (int64_t c = 0; c < group_in; ++c) StageValue<F>(InputCode(s, p, first + c), group, c);
      }
      std::memset(group + group_in * kElem, 0, static_cast<size_t>((group_k - group_in) * kElem));
    }
  }
}

// The padding pixel: real 0 in every channel, the zero point's code (the compensation takes it away).
template <IgemmFormat F>
void IgemmStagePadding(const IgemmStageArgs& s, uint8_t* pixel) {
  std::memset(pixel, 0, static_cast<size_t>(s.row_bytes));
  for (int64_t g = 0; g < s.groups; ++g) {
    for (int64_t c = 0; c < s.group_in; ++c) StageValue<F>(s.zero_point, pixel + g * s.group_k * kStagedElementBytes<F>, c);
  }
}

}  // namespace
}  // namespace npurt
