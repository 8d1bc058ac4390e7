// The depthwise microkernel and its column-group staging (dwconv.h), templated on the igemm's ISA policies
// (igemm_microkernel.h lists what a policy provides). Included only by the files that instantiate it, each
// compiled for its ISA; internal linkage throughout, as the igemm's.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/kernels/int8/dwconv.h"

namespace npurt {
namespace {

// R output pixels at a time: R independent sums per weight vector (one sum's chain of dot instructions
// would wait on each one's latency), the weights loaded once for the R.
template <class P, int R>
void DwconvRun(const DwconvArgs& a, WorkRange pixels) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int kVectors = static_cast<int>(kDwconvChannelBlock) / kLanes;  // a block's vectors
  static_assert(kVectors * kLanes == kDwconvChannelBlock, "a channel block is whole vectors");
  const DwconvGeometry& g = *a.geometry;
  const int64_t channels = g.channels, blocks = g.padded_channels / kDwconvChannelBlock;
  const int64_t pixel_bytes = g.padded_channels * 4, block_bytes = kDwconvChannelBlock * 4;
  const int64_t taps = g.kernel_h * g.row_groups, out_w = g.out_w;
  const int64_t row_step = g.stride_h * g.staged_w * pixel_bytes, column_step = g.stride_w * pixel_bytes;
  const int64_t* const offsets = a.tap_offsets;
  const uint8_t* const staged = a.staged;
  const uint8_t* const weights = a.weights;
  const int32_t* const bias = a.bias;
  float* const out = a.out;
  int32_t* const out_int32 = a.out_int32;
  for (int64_t p0 = pixels.begin; p0 < pixels.end; p0 += R) {
    const int rows = static_cast<int>(pixels.end - p0 < R ? pixels.end - p0 : R);
    const uint8_t* pixel[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const int64_t p = p0 + (r < rows ? r : rows - 1);  // a short group repeats its last pixel
      pixel[r] = staged + p / out_w * row_step + p % out_w * column_step;
    }
    for (int64_t b = 0; b < blocks; ++b) {
      Vec acc[R][kVectors];
#pragma GCC unroll 4
      for (int v = 0; v < kVectors; ++v) {
        const Vec start = P::LoadInt(bias + b * kDwconvChannelBlock + v * kLanes);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) acc[r][v] = start;
      }
      const int64_t at = b * block_bytes;
      const uint8_t* w = weights + b * taps * block_bytes;
      for (int64_t t = 0; t < taps; ++t, w += block_bytes) {
        const int64_t from = offsets[t] + at;
#pragma GCC unroll 4
        for (int v = 0; v < kVectors; ++v) {
          const Vec wv = P::Load(w + v * kLanes * 4);
#pragma GCC unroll 8
          for (int r = 0; r < R; ++r) acc[r][v] = P::Dot(acc[r][v], P::Load(pixel[r] + from + v * kLanes * 4), wv);
        }
      }
      // The sums indexed by constants only (a row loop that can stop early would keep them in memory).
      const int64_t c0 = b * kDwconvChannelBlock;
      const int64_t first_row = (p0 - pixels.begin) * channels + c0;
      if (rows == R && c0 + kDwconvChannelBlock <= channels) {
        if (out_int32 != nullptr) {
#pragma GCC unroll 8
          for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
            for (int v = 0; v < kVectors; ++v) std::memcpy(out_int32 + first_row + r * channels + v * kLanes, &acc[r][v], sizeof(Vec));
          }
        } else {
#pragma GCC unroll 8
          for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
            for (int v = 0; v < kVectors; ++v) P::StoreFloat(out + first_row + r * channels + v * kLanes, acc[r][v]);
          }
        }
        continue;
      }
      // Fewer pixels or channels: through a local block (float(acc) as StoreFloat rounds it).
      alignas(64) int32_t block[R][kDwconvChannelBlock];
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int v = 0; v < kVectors; ++v) std::memcpy(&block[r][v * kLanes], &acc[r][v], sizeof(Vec));
      }
      const int64_t cols = channels - c0 < kDwconvChannelBlock ? channels - c0 : kDwconvChannelBlock;
      for (int r = 0; r < rows; ++r) {
        if (out_int32 != nullptr) {
          std::memcpy(out_int32 + first_row + r * channels, block[r], static_cast<size_t>(cols) * sizeof(int32_t));
        } else {
          for (int64_t c = 0; c < cols; ++c) out[first_row + r * channels + c] = static_cast<float>(block[r][c]);
        }
      }
    }
  }
}

// One staged pixel of NHWC codes: per channel, the group of the G columns (each a pixel's channels or the
// zero row). Restrict pointers of their own, so the loop vectorizes (int8 loads may alias any store).
template <IgemmFormat F, typename T>
inline void StagePixel(const T* const* columns, int64_t channels, uint32_t* __restrict out) {
  if constexpr (F == IgemmFormat::kPairsS16) {
    const T* __restrict c0 = columns[0];
    const T* __restrict c1 = columns[1];
    for (int64_t c = 0; c < channels; ++c) {
      out[c] = static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(c0[c]))) |
               static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(c1[c]))) << 16;
    }
  } else {
    // Quads of int8 codes: as they are (kQuadsS8) or x + 128 (kQuadsU8: flipping the sign bits).
    constexpr uint32_t kFlip = F == IgemmFormat::kQuadsU8 ? 0x80808080u : 0u;
    const T* __restrict c0 = columns[0];
    const T* __restrict c1 = columns[1];
    const T* __restrict c2 = columns[2];
    const T* __restrict c3 = columns[3];
    for (int64_t c = 0; c < channels; ++c) {
      out[c] = (static_cast<uint32_t>(static_cast<uint8_t>(c0[c])) | static_cast<uint32_t>(static_cast<uint8_t>(c1[c])) << 8 |
                static_cast<uint32_t>(static_cast<uint8_t>(c2[c])) << 16 |
                static_cast<uint32_t>(static_cast<uint8_t>(c3[c])) << 24) ^
               kFlip;
    }
  }
}

template <IgemmFormat F, typename T>
void DwconvStageTyped(const DwconvStageArgs& s, WorkRange rows) {
  constexpr int kPack = static_cast<int>(IgemmPack(F));
  const DwconvGeometry& g = *s.geometry;
  const T* const input = static_cast<const T*>(s.input);
  const T* const zero_row = static_cast<const T*>(s.zero_row);
  const int64_t channels = g.channels, padded = g.padded_channels;
  const bool nhwc = s.channel_stride == 1;
  for (int64_t r = rows.begin; r < rows.end; ++r) {
    const int64_t ih = r - g.pad_top;
    const bool row_inside = ih >= 0 && ih < g.in_h;
    uint32_t* const staged_row = reinterpret_cast<uint32_t*>(s.staged) + r * g.staged_w * padded;
    for (int64_t j = 0; j < g.staged_w; ++j) {
      const T* columns[kPack];
      bool inside[kPack];
      for (int e = 0; e < kPack; ++e) {
        const int64_t iw = j - g.pad_left + e * g.dilation_w;
        inside[e] = row_inside && iw >= 0 && iw < g.in_w;
        columns[e] = inside[e] ? input + (ih * g.in_w + iw) * s.pixel_stride : zero_row;
      }
      uint32_t* const out = staged_row + j * padded;
      if (nhwc) {
        StagePixel<F, T>(columns, channels, out);
      } else {  // NCHW codes: channel c of a pixel channel_stride apart
        for (int64_t c = 0; c < channels; ++c) {
          T values[kPack];
          const T* one[kPack];
          for (int e = 0; e < kPack; ++e) {
            values[e] = inside[e] ? columns[e][c * s.channel_stride] : zero_row[c];
            one[e] = &values[e];
          }
          StagePixel<F, T>(one, 1, out + c);
        }
      }
      std::memset(out + channels, 0, static_cast<size_t>(padded - channels) * 4);
    }
  }
}

template <IgemmFormat F>
void DwconvStage(const DwconvStageArgs& s, WorkRange rows) {
  if constexpr (F == IgemmFormat::kPairsS16) {
    if (s.input_int16) return DwconvStageTyped<F, int16_t>(s, rows);
  }
  DwconvStageTyped<F, int8_t>(s, rows);
}

}  // namespace
}  // namespace npurt
