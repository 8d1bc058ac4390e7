// The depthwise microkernel and its column-group staging (dwconv.h), templated on the igemm's ISA policies
// (igemm_microkernel.h lists what a policy provides). Included only by the files that instantiate it, each
// compiled for its ISA; internal linkage throughout, as the igemm's.
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "runtime/kernels/int8/dwconv.h"
#include "runtime/kernels/int8/fused_epilogue.h"

namespace npurt {
namespace {

// Stores R rows of sums (a row: kVectors vectors of one block of channels, row r at out + r * stride):
// indexed by constants only (a loop that can stop early would keep the sums in memory); fewer rows or a
// block past the channels through a local block (float(acc) as StoreFloat rounds it).
template <class P, int R, int kVectors>
inline void DwconvStoreRows(const typename P::Vec (&acc)[R][kVectors], int rows, int64_t cols, float* out,
                            int32_t* out_int32, int64_t at, int64_t stride) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  if (rows == R && cols == kDwconvChannelBlock) {
    if (out_int32 != nullptr) {
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int v = 0; v < kVectors; ++v) std::memcpy(out_int32 + at + r * stride + v * kLanes, &acc[r][v], sizeof(Vec));
      }
    } else {
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int v = 0; v < kVectors; ++v) P::StoreFloat(out + at + r * stride + v * kLanes, acc[r][v]);
      }
    }
    return;
  }
  alignas(64) int32_t block[R][kDwconvChannelBlock];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < kVectors; ++v) std::memcpy(&block[r][v * kLanes], &acc[r][v], sizeof(Vec));
  }
  for (int r = 0; r < rows; ++r) {
    if (out_int32 != nullptr) {
      std::memcpy(out_int32 + at + r * stride, block[r], static_cast<size_t>(cols) * sizeof(int32_t));
    } else {
      for (int64_t c = 0; c < cols; ++c) out[at + r * stride + c] = static_cast<float>(block[r][c]);
    }
  }
}

// The fused requantization's constants and output (DwconvArgs::requant), read before any store, which could
// alias them; nothing for the kernels that write sums.
template <class P, bool kFused>
struct DwconvCodes {
  explicit DwconvCodes(const IgemmRequant*) {}
};
template <class P>
struct DwconvCodes<P, true> {
  explicit DwconvCodes(const IgemmRequant* r)
      : c(*r), acc_scale(r->acc_scale), out(static_cast<uint8_t*>(r->out)), stride(r->out_stride) {}
  const typename P::Requant c;
  const float* const acc_scale;
  uint8_t* const out;
  const int64_t stride;
};

// Every row's sums of one block of channels start at the block's bias (with its compensation).
template <class P, int R, int kVectors>
inline void DwconvStartSums(const int32_t* bias, typename P::Vec (&acc)[R][kVectors]) {
#pragma GCC unroll 4
  for (int v = 0; v < kVectors; ++v) {
    const typename P::Vec start = P::LoadInt(bias + v * P::kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r][v] = start;
  }
}

// Any geometry: R pixels of the item at a time (R independent sums per weight vector, the weights loaded
// once for the R), their taps through the tap offsets.
template <class P, int R>
void DwconvRun(const DwconvArgs& a, const DwconvItem& item) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int kVectors = static_cast<int>(kDwconvChannelBlock) / kLanes;  // a block's vectors
  static_assert(kVectors * kLanes == kDwconvChannelBlock, "a channel block is whole vectors");
  const DwconvGeometry& g = *a.geometry;
  const int64_t channels = g.channels, blocks = g.padded_channels / kDwconvChannelBlock;
  const int64_t pixel_bytes = g.padded_channels * 4, block_bytes = kDwconvChannelBlock * 4;
  const int64_t taps = g.kernel_h * g.row_groups, cols = item.cols, pixels = item.rows * cols;
  const int64_t row_step = g.stride_h * g.region_w * pixel_bytes, column_step = g.stride_w / g.column_step * pixel_bytes;
  const int64_t* const offsets = a.tap_offsets;
  const uint8_t* const region = a.region;
  const uint8_t* const weights = a.weights;
  const int32_t* const bias = a.bias;
  for (int64_t q0 = 0; q0 < pixels; q0 += R) {
    const int rows = static_cast<int>(pixels - q0 < R ? pixels - q0 : R);
    const uint8_t* pixel[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const int64_t q = q0 + (r < rows ? r : rows - 1);  // a short group repeats its last pixel
      pixel[r] = region + q / cols * row_step + q % cols * column_step;
    }
    for (int64_t b = 0; b < blocks; ++b) {
      Vec acc[R][kVectors];
      DwconvStartSums<P, R, kVectors>(bias + b * kDwconvChannelBlock, acc);
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
      const int64_t c0 = b * kDwconvChannelBlock;
      DwconvStoreRows<P, R, kVectors>(acc, rows, channels - c0 < kDwconvChannelBlock ? channels - c0 : kDwconvChannelBlock,
                                      a.out, a.out_int32, q0 * channels + c0, channels);
    }
  }
}

// Kernel height KH, vertical stride SH, no vertical dilation: the R output rows of a column together.
// Staged row s of the band is loaded once and summed into every output row r that reads it (kh = s - r SH).
// kCodes: 0 the sums (a.out / a.out_int32), 1 int8 codes, 2 int16 codes (a.requant).
template <class P, int R, int KH, int SH, int kCodes = 0>
void DwconvRunRows(const DwconvArgs& a, const DwconvItem& item) {
  using Vec = typename P::Vec;
  constexpr int kLanes = P::kLanes;
  constexpr int kVectors = static_cast<int>(kDwconvChannelBlock) / kLanes;
  constexpr int kRows = (R - 1) * SH + KH;  // staged rows of a band
  const DwconvGeometry& g = *a.geometry;
  const int64_t channels = g.channels, blocks = g.padded_channels / kDwconvChannelBlock;
  const int64_t pixel_bytes = g.padded_channels * 4, block_bytes = kDwconvChannelBlock * 4;
  const int64_t row_groups = g.row_groups, taps = KH * row_groups, cols = item.cols;
  const int64_t row_bytes = g.region_w * pixel_bytes, column_step = g.stride_w / g.column_step * pixel_bytes;
  const int64_t group_step = g.pack * g.dilation_w / g.column_step * pixel_bytes;
  const int rows = static_cast<int>(item.rows);
  const uint8_t* const weights = a.weights;
  const int32_t* const bias = a.bias;
  const DwconvCodes<P, kCodes != 0> codes(a.requant);
  for (int64_t j = 0; j < cols; ++j) {
    const uint8_t* const column = a.region + j * column_step;
    for (int64_t b = 0; b < blocks; ++b) {
      Vec acc[R][kVectors];
      DwconvStartSums<P, R, kVectors>(bias + b * kDwconvChannelBlock, acc);
      for (int64_t group = 0; group < row_groups; ++group) {
        const uint8_t* const base = column + group * group_step + b * block_bytes;
        Vec wk[KH][kVectors];
#pragma GCC unroll 8
        for (int kh = 0; kh < KH; ++kh) {
#pragma GCC unroll 4
          for (int v = 0; v < kVectors; ++v) {
            wk[kh][v] = P::Load(weights + ((b * taps + kh * row_groups + group) * kDwconvChannelBlock + v * kLanes) * 4);
          }
        }
#pragma GCC unroll 32
        for (int s = 0; s < kRows; ++s) {
#pragma GCC unroll 4
          for (int v = 0; v < kVectors; ++v) {
            const Vec x = P::Load(base + s * row_bytes + v * kLanes * 4);
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
              const int kh = s - r * SH;
              if (kh >= 0 && kh < KH) acc[r][v] = P::Dot(acc[r][v], x, wk[kh][v]);
            }
          }
        }
      }
      const int64_t c0 = b * kDwconvChannelBlock;
      const int64_t block_cols = channels - c0 < kDwconvChannelBlock ? channels - c0 : kDwconvChannelBlock;
      if constexpr (kCodes != 0) {
        StoreRequantizedBlock<P, R, kVectors, 0, kCodes == 2>(codes.c, acc, rows, static_cast<int>(block_cols),
                                                              codes.acc_scale + c0, nullptr,
                                                              codes.out + (j * channels + c0) * (kCodes == 2 ? 2 : 1),
                                                              codes.stride);
      } else {
        DwconvStoreRows<P, R, kVectors>(acc, rows, block_cols, a.out, a.out_int32, j * channels + c0, cols * channels);
      }
    }
  }
}

#if defined(__AVX2__)
// AVX2 (the files compiled for it): the groups of 32 int8 channels (quads) or 16 channels (int16 pairs)
// by byte and word interleaves, in-lane, then the lanes put in channel order; returns the channels done.
template <IgemmFormat F, typename T>
inline int64_t StagePixelVectors(const T* const* columns, int64_t channels, uint32_t* __restrict out) {
  auto store_in_order = [](uint32_t* to, __m256i lo, __m256i hi) {  // lo, hi: lanes (a, b), (c, d) -> a c, b d
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
  };
  int64_t c = 0;
  if constexpr (F == IgemmFormat::kPairsS16) {
    for (; c + 16 <= channels; c += 16) {
      __m256i a, b;
      if constexpr (sizeof(T) == 2) {
        a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(columns[0] + c));
        b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(columns[1] + c));
      } else {
        a = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(columns[0] + c)));
        b = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(columns[1] + c)));
      }
      store_in_order(out + c, _mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b));
    }
  } else {
    const __m256i flip = _mm256_set1_epi8(static_cast<char>(F == IgemmFormat::kQuadsU8 ? 0x80 : 0));
    for (; c + 32 <= channels; c += 32) {
      __m256i v[4];
      for (int e = 0; e < 4; ++e) {
        v[e] = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(columns[e] + c)), flip);
      }
      const __m256i ab_lo = _mm256_unpacklo_epi8(v[0], v[1]), ab_hi = _mm256_unpackhi_epi8(v[0], v[1]);
      const __m256i cd_lo = _mm256_unpacklo_epi8(v[2], v[3]), cd_hi = _mm256_unpackhi_epi8(v[2], v[3]);
      // Lane 0 of these: channels 0-3, 4-7, 8-11, 12-15; lane 1: 16-19, 20-23, 24-27, 28-31.
      const __m256i q0 = _mm256_unpacklo_epi16(ab_lo, cd_lo), q1 = _mm256_unpackhi_epi16(ab_lo, cd_lo);
      const __m256i q2 = _mm256_unpacklo_epi16(ab_hi, cd_hi), q3 = _mm256_unpackhi_epi16(ab_hi, cd_hi);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c), _mm256_permute2x128_si256(q0, q1, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c + 8), _mm256_permute2x128_si256(q2, q3, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c + 16), _mm256_permute2x128_si256(q0, q1, 0x31));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c + 24), _mm256_permute2x128_si256(q2, q3, 0x31));
    }
    if (c + 16 <= channels) {  // 16 more: the same interleaves on 16-byte vectors, already in order
      __m128i v[4];
      for (int e = 0; e < 4; ++e) {
        v[e] = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(columns[e] + c)), _mm256_castsi256_si128(flip));
      }
      const __m128i ab_lo = _mm_unpacklo_epi8(v[0], v[1]), ab_hi = _mm_unpackhi_epi8(v[0], v[1]);
      const __m128i cd_lo = _mm_unpacklo_epi8(v[2], v[3]), cd_hi = _mm_unpackhi_epi8(v[2], v[3]);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c), _mm_unpacklo_epi16(ab_lo, cd_lo));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c + 4), _mm_unpackhi_epi16(ab_lo, cd_lo));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c + 8), _mm_unpacklo_epi16(ab_hi, cd_hi));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c + 12), _mm_unpackhi_epi16(ab_hi, cd_hi));
      c += 16;
    }
  }
  return c;
}
#endif

// One staged pixel of NHWC codes: per channel, the group of the G columns (each a pixel's channels or the
// zero row). Restrict pointers of their own, so the loop vectorizes (int8 loads may alias any store);
// AVX2 files interleave whole vectors first.
template <IgemmFormat F, typename T>
inline void StagePixel(const T* const* columns, int64_t channels, uint32_t* __restrict out) {
#if defined(__AVX2__)
  const int64_t done = StagePixelVectors<F, T>(columns, channels, out);
  if (done == channels) return;
  const T* rest[4];
  for (int e = 0; e < static_cast<int>(IgemmPack(F)); ++e) rest[e] = columns[e] + done;
  columns = rest;
  channels -= done;
  out += done;
#endif
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
void DwconvStageTyped(const DwconvStageArgs& s, const DwconvItem& item, uint8_t* region) {
  constexpr int kPack = static_cast<int>(IgemmPack(F));
  const DwconvGeometry& g = *s.geometry;
  const T* const input = static_cast<const T*>(s.input);
  const T* const zero_row = static_cast<const T*>(s.zero_row);
  const int64_t channels = g.channels, padded = g.padded_channels;
  const bool nhwc = s.channel_stride == 1;
  // Pixels whose G columns are all inside the input read contiguous codes: where the channels fill the
  // staged pixels, such a run of pixels is one loop over its codes.
  const int64_t step = g.column_step;
  const bool flat = nhwc && s.pixel_stride == channels && padded == channels && step == 1;
  const int64_t first_col = item.col * g.stride_w - g.pad_left, span = (kPack - 1) * g.dilation_w;
  for (int64_t r = 0; r < g.region_h; ++r) {
    const int64_t ih = item.row * g.stride_h + r - g.pad_top;
    const bool row_inside = ih >= 0 && ih < g.in_h;
    uint32_t* const staged_row = reinterpret_cast<uint32_t*>(region) + r * g.region_w * padded;
    // [inside_begin, inside_end): the region's pixels whose G columns are all inside the input row,
    // first_col + j step >= 0 and first_col + j step + span < in_w.
    int64_t inside_begin = first_col >= 0 ? 0 : (-first_col + step - 1) / step;
    const int64_t last = g.in_w - 1 - span - first_col;  // the largest j step inside
    int64_t inside_end = last < 0 ? 0 : last / step + 1;
    inside_end = inside_end > g.region_w ? g.region_w : inside_end;
    if (!nhwc || !row_inside || inside_begin >= inside_end) inside_begin = inside_end = g.region_w;
    if (flat && inside_begin < inside_end) {
      const T* columns[kPack];
      for (int e = 0; e < kPack; ++e) columns[e] = input + (ih * g.in_w + first_col + inside_begin + e * g.dilation_w) * channels;
      StagePixel<F, T>(columns, (inside_end - inside_begin) * channels, staged_row + inside_begin * padded);
    } else if (inside_begin < inside_end) {
      // Pixel by pixel, no bounds to check (a stride of 2, channels short of the staged pixels).
      const T* const row_codes = input + ih * g.in_w * s.pixel_stride;
      for (int64_t j = inside_begin; j < inside_end; ++j) {
        const T* columns[kPack];
        for (int e = 0; e < kPack; ++e) columns[e] = row_codes + (first_col + j * step + e * g.dilation_w) * s.pixel_stride;
        uint32_t* const out = staged_row + j * padded;
        StagePixel<F, T>(columns, channels, out);
        std::memset(out + channels, 0, static_cast<size_t>(padded - channels) * 4);
      }
    }
    for (int64_t j = 0; j < g.region_w; ++j) {
      if (j == inside_begin) j = inside_end;
      if (j >= g.region_w) break;
      const T* columns[kPack];
      bool inside[kPack];
      for (int e = 0; e < kPack; ++e) {
        const int64_t iw = first_col + j * step + e * g.dilation_w;
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
void DwconvStage(const DwconvStageArgs& s, const DwconvItem& item, uint8_t* region) {
  if constexpr (F == IgemmFormat::kPairsS16) {
    if (s.input_int16) return DwconvStageTyped<F, int16_t>(s, item, region);
  }
  DwconvStageTyped<F, int8_t>(s, item, region);
}

// The bands' kernels writing codes of kCodes (1 int8, 2 int16), [height == 5][stride == 2].
#define NPURT_DWCONV_RUN_ROWS(P, R, kCodes)                                                          \
  {                                                                                                  \
    {DwconvRunRows<P, R, 3, 1, kCodes>, DwconvRunRows<P, R, 3, 2, kCodes>}, {                        \
      DwconvRunRows<P, R, 5, 1, kCodes>, DwconvRunRows<P, R, 5, 2, kCodes>                           \
    }                                                                                                \
  }

// A kernel of policy P: bands of R rows, the format F's staging; kFused: the policy has the fused
// requantization (P::Requant, P::StoreRequantized), and the kernel its bands with it.
template <class P, int R, IgemmFormat F, bool kFused = false>
constexpr DwconvKernel MakeDwconvKernel(const char* name, CpuTarget needs, bool (*cpu_has)(), bool emulated,
                                        bool int16_inputs) {
  if constexpr (kFused) {
    return {name,
            needs,
            cpu_has,
            emulated,
            F,
            int16_inputs,
            R,
            DwconvRun<P, R>,
            NPURT_DWCONV_RUN_ROWS(P, R, 0),
            {NPURT_DWCONV_RUN_ROWS(P, R, 1), NPURT_DWCONV_RUN_ROWS(P, R, 2)},
            DwconvStage<F>};
  } else {
    return {name, needs, cpu_has, emulated, F, int16_inputs, R, DwconvRun<P, R>, NPURT_DWCONV_RUN_ROWS(P, R, 0), {},
            DwconvStage<F>};
  }
}

}  // namespace
}  // namespace npurt
