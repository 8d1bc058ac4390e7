// The x86 dot-product policies of the igemm microkernel (igemm_microkernel.h), real and emulated. Each
// file that instantiates one is compiled for its ISA (runtime/CMakeLists.txt); the emulated ones use AVX2
// only, one instruction standing in for the one the real CPU runs, bit for bit.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/int8/requantize_vectors_x86.h"

namespace npurt {
namespace {

inline int32_t LoadGroup(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

#if defined(__AVX2__)
// vpdpbusd on eight lanes from AVX2: u8 x s8 products of each 4-byte group summed into the lane, exact
// (vpmaddwd of the even and of the odd bytes, widened to int16: no saturation anywhere).
inline __m256i DpbusdEmulated(__m256i acc, __m256i a, __m256i w) {
  const __m256i a_even = _mm256_and_si256(a, _mm256_set1_epi16(0x00FF));
  const __m256i a_odd = _mm256_srli_epi16(a, 8);
  const __m256i w_even = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8);
  const __m256i w_odd = _mm256_srai_epi16(w, 8);
  return _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(a_even, w_even), _mm256_madd_epi16(a_odd, w_odd)));
}

// Eight int32 lanes; int16 pairs, vpmaddwd + vpaddd.
struct Avx2Madd {
  using Vec = __m256i;
  static constexpr int kLanes = 8;
  static constexpr bool kSpillSums = true;
  static Vec Zero() { return _mm256_setzero_si256(); }
  static Vec Load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static Vec Broadcast(const uint8_t* p) { return _mm256_set1_epi32(LoadGroup(p)); }
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, w)); }
  static Vec Add(Vec a, Vec b) { return _mm256_add_epi32(a, b); }
  static Vec LoadInt(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void StoreFloat(float* out, Vec v) { _mm256_storeu_ps(out, _mm256_cvtepi32_ps(v)); }

  // The fused requantization (igemm_microkernel.h's IgemmTileRequant): the rows' steps (requantize_vectors_x86.h).
  // The emulated AVX-512 policies use it per half; the AVX2 kernels themselves do not (with 16 registers
  // the fused tile measured slower than the tile and the rows apart).
  struct Requant {
    explicit Requant(const IgemmRequant& r)
        : out_scale(_mm256_set1_ps(r.out_scale)),
          lo(_mm256_set1_ps(r.lo)),
          hi(_mm256_set1_ps(r.hi)),
          residual_scale(_mm256_set1_ps(r.residual_scale)),
          zp(_mm256_set1_epi32(r.out_zero_point)),
          residual_zp(_mm256_set1_epi32(r.residual_zero_point)) {}
    __m256 out_scale, lo, hi, residual_scale;
    __m256i zp, residual_zp;
  };
  // The scales of `lanes` (0..8) channels, zero past them (no read past them).
  using Scale = __m256;
  static Scale LoadScale(const float* acc_scale, int lanes) {
    if (lanes >= 8) return _mm256_loadu_ps(acc_scale);
    alignas(32) float scale[8] = {};
    std::memcpy(scale, acc_scale, static_cast<size_t>(lanes) * sizeof(float));
    return _mm256_load_ps(scale);
  }
  // `lanes` (1..8) channels of one row: acc (bias in) with its scales and residual codes to codes at out.
  template <int kResidual, bool kOut16>
  static void StoreRequantized(const Requant& c, Vec acc, Scale scale, const uint8_t* residual, uint8_t* out,
                               int lanes) {
    if (lanes < 8) {  // a partial vector: through local copies of its lanes (zero past them)
      alignas(32) int16_t codes[8] = {};
      alignas(16) int16_t result[8];
      for (int l = 0; l < lanes && kResidual != 0; ++l) {
        codes[l] = kResidual == 2 ? reinterpret_cast<const int16_t*>(residual)[l] : static_cast<int8_t>(residual[l]);
      }
      const __m128i words = Requantized<kResidual != 0 ? 2 : 0>(c, acc, scale, reinterpret_cast<const uint8_t*>(codes));
      _mm_store_si128(reinterpret_cast<__m128i*>(result), words);
      for (int l = 0; l < lanes; ++l) {
        if constexpr (kOut16) {
          reinterpret_cast<int16_t*>(out)[l] = result[l];
        } else {
          out[l] = static_cast<uint8_t>(static_cast<int8_t>(result[l]));
        }
      }
      return;
    }
    const __m128i words = Requantized<kResidual>(c, acc, scale, residual);
    if constexpr (kOut16) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), words);
    } else {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packs_epi16(words, words));
    }
  }
  // Eight codes as int16 (within the output type's range: the packs are exact).
  template <int kResidual>
  static __m128i Requantized(const Requant& c, Vec acc, Scale scale, const uint8_t* residual) {
    __m256 real = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), scale);
    if constexpr (kResidual != 0) {
      const __m256i codes =
          kResidual == 2 ? _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(residual)))
                         : _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(residual)));
      real = WithResidual(real, codes, c.residual_zp, c.residual_scale);
    }
    return QuantizeReal(real, c.out_scale, c.lo, c.hi, c.zp);
  }
};

// AVX-VNNI's vpdpbusd on ymm, emulated.
struct AvxVnniEmulated : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return DpbusdEmulated(acc, a, w); }
};

// ARM's sdot (int8 x int8 quads into int32 lanes) on eight lanes from AVX2, exact: both operands' even and
// odd bytes sign-extended to int16, two vpmaddwd.
inline __m256i SdotEmulated(__m256i acc, __m256i a, __m256i w) {
  const __m256i a_even = _mm256_srai_epi16(_mm256_slli_epi16(a, 8), 8), a_odd = _mm256_srai_epi16(a, 8);
  const __m256i w_even = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8), w_odd = _mm256_srai_epi16(w, 8);
  return _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(a_even, w_even), _mm256_madd_epi16(a_odd, w_odd)));
}
// The NEON dotprod kernel's blocking (4 x 16, four-lane vectors four wide) as two eight-lane halves.
struct NeonDotEmulated : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return SdotEmulated(acc, a, w); }
};

// Sixteen lanes as two ymm halves: the AVX-512 policies' blocking on an AVX2 machine.
struct Ymm2 {
  __m256i lo, hi;
};
struct Avx512MaddEmulated {
  using Vec = Ymm2;
  static constexpr int kLanes = 16;
  static constexpr bool kSpillSums = true;
  static Vec Zero() { return {_mm256_setzero_si256(), _mm256_setzero_si256()}; }
  static Vec Load(const uint8_t* p) { return {Avx2Madd::Load(p), Avx2Madd::Load(p + 32)}; }
  static Vec Broadcast(const uint8_t* p) {
    const __m256i b = Avx2Madd::Broadcast(p);
    return {b, b};
  }
  static Vec Dot(Vec acc, Vec a, Vec w) { return {Avx2Madd::Dot(acc.lo, a.lo, w.lo), Avx2Madd::Dot(acc.hi, a.hi, w.hi)}; }
  static Vec Add(Vec a, Vec b) { return {_mm256_add_epi32(a.lo, b.lo), _mm256_add_epi32(a.hi, b.hi)}; }
  static Vec LoadInt(const int32_t* p) { return {Avx2Madd::LoadInt(p), Avx2Madd::LoadInt(p + 8)}; }
  static void StoreFloat(float* out, Vec v) {
    Avx2Madd::StoreFloat(out, v.lo);
    Avx2Madd::StoreFloat(out + 8, v.hi);
  }
  using Requant = Avx2Madd::Requant;
  struct Scale {
    __m256 lo, hi;
  };
  static Scale LoadScale(const float* acc_scale, int lanes) {
    return {Avx2Madd::LoadScale(acc_scale, lanes < 8 ? lanes : 8),
            lanes > 8 ? Avx2Madd::LoadScale(acc_scale + 8, lanes - 8) : _mm256_setzero_ps()};
  }
  template <int kResidual, bool kOut16>
  static void StoreRequantized(const Requant& c, Vec acc, Scale scale, const uint8_t* residual, uint8_t* out,
                               int lanes) {
    constexpr int kOutBytes = kOut16 ? 2 : 1, kResidualBytes = kResidual == 2 ? 2 : 1;
    Avx2Madd::StoreRequantized<kResidual, kOut16>(c, acc.lo, scale.lo, residual, out, lanes < 8 ? lanes : 8);
    if (lanes > 8) {
      Avx2Madd::StoreRequantized<kResidual, kOut16>(c, acc.hi, scale.hi,
                                                    kResidual != 0 ? residual + 8 * kResidualBytes : nullptr,
                                                    out + 8 * kOutBytes, lanes - 8);
    }
  }
};
struct Avx512VnniEmulated : Avx512MaddEmulated {
  static Vec Dot(Vec acc, Vec a, Vec w) { return {DpbusdEmulated(acc.lo, a.lo, w.lo), DpbusdEmulated(acc.hi, a.hi, w.hi)}; }
};
#endif

#if defined(__AVXVNNI__)
struct AvxVnni : Avx2Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm256_dpbusd_avx_epi32(acc, a, w); }
};
#endif

#if defined(__AVX512BW__)
struct Avx512Madd {
  using Vec = __m512i;
  static constexpr int kLanes = 16;
  static constexpr bool kSpillSums = false;
  static Vec Zero() { return _mm512_setzero_si512(); }
  static Vec Load(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static Vec Broadcast(const uint8_t* p) { return _mm512_set1_epi32(LoadGroup(p)); }
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_add_epi32(acc, _mm512_madd_epi16(a, w)); }
  static Vec Add(Vec a, Vec b) { return _mm512_add_epi32(a, b); }
  static Vec LoadInt(const int32_t* p) { return _mm512_loadu_si512(p); }
  static void StoreFloat(float* out, Vec v) { _mm512_storeu_ps(out, _mm512_cvtepi32_ps(v)); }

  // The fused requantization (igemm_microkernel.h's IgemmTileRequant): the rows' steps (requantize_vectors_x86.h).
  struct Requant {
    explicit Requant(const IgemmRequant& r)
        : out_scale(_mm512_set1_ps(r.out_scale)),
          lo(_mm512_set1_ps(r.lo)),
          hi(_mm512_set1_ps(r.hi)),
          residual_scale(_mm512_set1_ps(r.residual_scale)),
          zp(_mm512_set1_epi32(r.out_zero_point)),
          residual_zp(_mm512_set1_epi32(r.residual_zero_point)) {}
    __m512 out_scale, lo, hi, residual_scale;
    __m512i zp, residual_zp;
  };
  // The scales of `lanes` (0..16) channels, zero past them (masked: no read past them).
  using Scale = __m512;
  static __mmask16 LaneMask(int lanes) { return static_cast<__mmask16>(lanes >= 16 ? 0xffff : (1u << lanes) - 1); }
  static Scale LoadScale(const float* acc_scale, int lanes) { return _mm512_maskz_loadu_ps(LaneMask(lanes), acc_scale); }
  // `lanes` (1..16) channels of one row: acc (bias in) with its scales and residual codes to codes at out.
  template <int kResidual, bool kOut16>
  static void StoreRequantized(const Requant& c, Vec acc, Scale scale, const uint8_t* residual, uint8_t* out,
                               int lanes) {
    const __mmask16 k = LaneMask(lanes);
    __m512 real = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), scale);
    if constexpr (kResidual != 0) {
      const __m512i codes = kResidual == 2 ? _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(k, residual))
                                           : _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, residual));
      real = WithResidual(real, codes, c.residual_zp, c.residual_scale);
    }
    const __m512i v = QuantizeReal(real, c.out_scale, c.lo, c.hi, c.zp);
    if constexpr (kOut16) {
      StoreCodes(reinterpret_cast<int16_t*>(out), k, v);
    } else {
      StoreCodes(reinterpret_cast<int8_t*>(out), k, v);
    }
  }
};
#endif

#if defined(__AVX512VNNI__)
struct Avx512Vnni : Avx512Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_dpbusd_epi32(acc, a, w); }
};
// vpdpwssd: vpmaddwd and vpaddd in one instruction, the same sums (a pair saturates only at
// (-32768)^2 * 2, which int8 weights never reach), so Avx512MaddEmulated is its emulation.
struct Avx512VnniPairs : Avx512Madd {
  static Vec Dot(Vec acc, Vec a, Vec w) { return _mm512_dpwssd_epi32(acc, a, w); }
};
#endif

}  // namespace
}  // namespace npurt
