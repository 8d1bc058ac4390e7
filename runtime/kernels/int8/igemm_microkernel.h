// The igemm microkernel and the activation staging, templated on the ISA policy (igemm.h). Included only
// by the files that instantiate it, each compiled for its ISA; everything here has internal linkage
// (no std:: templates either), so an AVX-512 instantiation can never stand in for another file's.
//
// A policy provides, on a vector of kLanes int32 lanes:
//   Vec Zero(); Vec Load(const uint8_t*) (kLanes groups of 4 bytes); Vec Broadcast(const uint8_t*)
//   (one 4-byte group to every lane); Vec Dot(Vec acc, Vec a, Vec w) (acc + the lane-wise dot of a's
//   and w's pack elements: vpmaddwd + vpaddd, vpdpbusd, ...); Vec Add(Vec, Vec); Vec LoadInt(const int32_t*);
//   void StoreFloat(float*, Vec) (float of each lane, correctly rounded).
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/kernels/int8/igemm.h"

namespace npurt {
namespace {

template <class P, int MR, int NV>
void IgemmTile(const IgemmTileArgs& t) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int NR = NV * kLanes;
  Vec acc[MR][NV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = P::Zero();
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
  for (int i = 0; i < MR; ++i) {
    if (i >= t.rows) break;
    float* out = t.out + i * t.out_stride;
    for (int j = 0; j < NV; ++j) {
      const Vec v = P::Add(acc[i][j], P::LoadInt(t.bias + j * kLanes));
      const int first = j * kLanes;
      if (first + kLanes <= t.cols) {
        P::StoreFloat(out + first, v);
      } else if (first < t.cols) {
        float tail[kLanes];
        P::StoreFloat(tail, v);
        for (int c = first; c < t.cols; ++c) out[c] = tail[c - first];
      }
    }
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

// Pixels [begin, end) staged; a group's padding elements zero.
template <IgemmFormat F>
void IgemmStage(const IgemmStageArgs& s, WorkRange pixels) {
  // The caller passes exact bounds (no std:: helpers here: see the file comment).
  const int64_t begin = pixels.begin, end = pixels.end;
  for (int64_t p = begin; p < end; ++p) {
    uint8_t* row = s.staged + p * s.row_bytes;
    for (int64_t g = 0; g < s.groups; ++g) {
      uint8_t* group = row + g * s.group_k * kStagedElementBytes<F>;
      const int64_t first = g * s.group_in;
      if (s.channel_stride == 1 && !s.input_int16) {
        // The common case, NHWC int8: a loop the compiler vectorizes.
        const int8_t* in = static_cast<const int8_t*>(s.input) + p * s.pixel_stride + first;
        if constexpr (F == IgemmFormat::kQuadsU8) {
          for (int64_t c = 0; c < s.group_in; ++c) group[c] = static_cast<uint8_t>(in[c] + 128);
        } else if constexpr (F == IgemmFormat::kQuadsS8) {
          std::memcpy(group, in, static_cast<size_t>(s.group_in));
        } else {
          int16_t* out = reinterpret_cast<int16_t*>(group);
          for (int64_t c = 0; c < s.group_in; ++c) out[c] = in[c];
        }
      } else {
        for (int64_t c = 0; c < s.group_in; ++c) StageValue<F>(InputCode(s, p, first + c), group, c);
      }
      std::memset(group + s.group_in * kStagedElementBytes<F>, 0,
                  static_cast<size_t>((s.group_k - s.group_in) * kStagedElementBytes<F>));
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
