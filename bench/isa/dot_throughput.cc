// Multiply-adds per second of the AVX2 instruction sequences an int8 GEMM can
// be built on, in a register-only loop (12 independent accumulators, no
// memory traffic): the ceiling each approach has on this core.
//
//   float FMA            vfmadd231ps                      8 MACs, exact while sums < 2^24
//   int16 pairs          vpmaddwd + vpaddd               16 MACs, exact (sign-extended int8 codes)
//   uint8 x int8 pairs   vpmaddubsw + vpmaddwd + vpaddd  32 MACs, int16 pair sums saturate
//
// npurt's float sums use the first; ONNX Runtime's AVX2 int8 kernels the
// third. Usage: dot_throughput [seconds per row, default 0.5]
#include <immintrin.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

#define NPURT_AVX2 __attribute__((target("avx2,fma")))

constexpr int kAccumulators = 12;

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The shape of a 6 x 16 GEMM micro-kernel step: two weight vectors (16 columns) and six row values, each
// broadcast from memory (reloaded every round, as from a packed panel) and multiplied with both weight
// vectors into twelve named accumulators (an array would let the compiler keep them in memory).
#define NPURT_ROWS(ROW) ROW(0, a0, a1) ROW(1, a2, a3) ROW(2, a4, a5) ROW(3, a6, a7) ROW(4, a8, a9) ROW(5, a10, a11)
#define NPURT_KEEP(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)                                           \
  __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), \
                   "+x"(a9), "+x"(a10), "+x"(a11)::"memory")

NPURT_AVX2 float FmaRounds(long steps, const float* rows) {
  __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0,
         a9 = a0, a10 = a0, a11 = a0;
  const __m256 w0 = _mm256_set1_ps(1.0001f), w1 = _mm256_set1_ps(0.9999f);
#define NPURT_FMA(r, acc0, acc1)                  \
  {                                              \
    const __m256 x = _mm256_broadcast_ss(rows + r); \
    acc0 = _mm256_fmadd_ps(x, w0, acc0);          \
    acc1 = _mm256_fmadd_ps(x, w1, acc1);          \
  }
  for (long s = 0; s < steps; ++s) {
    NPURT_ROWS(NPURT_FMA)
    NPURT_KEEP(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
  }
#undef NPURT_FMA
  const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                                   _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  return _mm256_cvtss_f32(_mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11))));
}

// int32 pair sums of x and w: vpmaddwd (int16 pairs), or vpmaddubsw then vpmaddwd (uint8 x int8 pairs).
template <bool kBytes>
NPURT_AVX2 inline __m256i Pairs(__m256i x, __m256i w) {
  if (kBytes) return _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1));
  return _mm256_madd_epi16(x, w);
}

// `rows` holds six 32-bit groups: two int16 codes (vpmaddwd) or four uint8 codes (vpmaddubsw) each.
template <bool kBytes>
NPURT_AVX2 int IntegerRounds(long steps, const int32_t* rows) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0,
          a9 = a0, a10 = a0, a11 = a0;
  const __m256i w0 = _mm256_set1_epi16(0x0305), w1 = _mm256_set1_epi16(0x0507);
#define NPURT_INT(r, acc0, acc1)                       \
  {                                                   \
    const __m256i x = _mm256_set1_epi32(rows[r]);      \
    acc0 = _mm256_add_epi32(acc0, Pairs<kBytes>(x, w0)); \
    acc1 = _mm256_add_epi32(acc1, Pairs<kBytes>(x, w1)); \
  }
  for (long s = 0; s < steps; ++s) {
    NPURT_ROWS(NPURT_INT)
    NPURT_KEEP(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
  }
#undef NPURT_INT
  const __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(a0, a1), _mm256_add_epi32(a2, a3)),
                                       _mm256_add_epi32(_mm256_add_epi32(a4, a5), _mm256_add_epi32(a6, a7)));
  return _mm256_extract_epi32(
      _mm256_add_epi32(sum, _mm256_add_epi32(_mm256_add_epi32(a8, a9), _mm256_add_epi32(a10, a11))), 0);
}

// G multiply-adds per second of `run`, doing `macs_per_round` per round, over about `seconds`.
template <typename Run>
double Rate(Run run, double macs_per_round, double seconds) {
  long steps = 1 << 16;
  for (;;) {
    const double t0 = Seconds();
    volatile auto sink = run(steps);
    (void)sink;
    const double elapsed = Seconds() - t0;
    if (elapsed >= seconds) return static_cast<double>(steps) * macs_per_round / elapsed / 1e9;
    steps *= 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::printf("dot_throughput: this CPU has no AVX2 + FMA\n");
    return 0;
  }
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
  const int seed = argc > 2 ? std::atoi(argv[2]) : 7;
  const float float_rows[6] = {1.0f * seed, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  const int32_t int_rows[6] = {seed, 0x01020304, 0x05060708, 0x0a0b0c0d, 0x11121314, 0x21222324};
  // Multiply-adds per round: 12 vectors of 8 lanes, times 1 (float), 2 (int16 pairs) or 4 (uint8 quads).
  const double fma = Rate([&](long n) { return FmaRounds(n, float_rows); }, kAccumulators * 8.0, seconds);
  const double madd = Rate([&](long n) { return IntegerRounds<false>(n, int_rows); }, kAccumulators * 16.0, seconds);
  const double maddubs = Rate([&](long n) { return IntegerRounds<true>(n, int_rows); }, kAccumulators * 32.0, seconds);
  std::printf("| sequence (one core, registers only) | G multiply-adds/s | vs float FMA | exact |\n");
  std::printf("|---|---:|---:|---|\n");
  std::printf("| vfmadd231ps (float sums) | %.1f | 1.00 | while sums < 2^24 |\n", fma);
  std::printf("| vpmaddwd + vpaddd (int16 pairs) | %.1f | %.2f | yes |\n", madd, madd / fma);
  std::printf("| vpmaddubsw + vpmaddwd + vpaddd (uint8 x int8) | %.1f | %.2f | no: int16 pair sums saturate |\n",
              maddubs, maddubs / fma);
  return 0;
}
