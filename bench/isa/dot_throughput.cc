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

// The three sequences: lane type, a row value broadcast, the weights and one multiply-add step.
struct Fma {
  using V = __m256;
  using Row = float;
  static NPURT_AVX2 V Zero() { return _mm256_setzero_ps(); }
  static NPURT_AVX2 V Weight(int k) { return _mm256_set1_ps(k == 0 ? 1.0001f : 0.9999f); }
  static NPURT_AVX2 V Broadcast(const Row* row) { return _mm256_broadcast_ss(row); }
  static NPURT_AVX2 V Step(V acc, V x, V w) { return _mm256_fmadd_ps(x, w, acc); }
  static NPURT_AVX2 V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static NPURT_AVX2 double Lane0(V v) { return _mm256_cvtss_f32(v); }
};

// int32 pair sums: vpmaddwd on int16 pairs, or (kBytes) vpmaddubsw then vpmaddwd on uint8 x int8 quads.
// A row holds two int16 codes or four uint8 codes.
template <bool kBytes>
struct Pairs {
  using V = __m256i;
  using Row = int32_t;
  static NPURT_AVX2 V Zero() { return _mm256_setzero_si256(); }
  static NPURT_AVX2 V Weight(int k) { return _mm256_set1_epi16(k == 0 ? 0x0305 : 0x0507); }
  static NPURT_AVX2 V Broadcast(const Row* row) { return _mm256_set1_epi32(*row); }
  static NPURT_AVX2 V Step(V acc, V x, V w) {
    if (kBytes) return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
  }
  static NPURT_AVX2 V Add(V a, V b) { return _mm256_add_epi32(a, b); }
  static NPURT_AVX2 double Lane0(V v) { return _mm256_extract_epi32(v, 0); }
};

template <typename S>
NPURT_AVX2 double Rounds(long steps, const typename S::Row* rows) {
  using V = typename S::V;
  V a0 = S::Zero(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const V w0 = S::Weight(0), w1 = S::Weight(1);
#define NPURT_STEP(r, acc0, acc1)          \
  {                                       \
    const V x = S::Broadcast(rows + r);   \
    acc0 = S::Step(acc0, x, w0);          \
    acc1 = S::Step(acc1, x, w1);          \
  }
  for (long s = 0; s < steps; ++s) {
    NPURT_ROWS(NPURT_STEP)
    NPURT_KEEP(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
  }
#undef NPURT_STEP
  const V sum = S::Add(S::Add(S::Add(a0, a1), S::Add(a2, a3)), S::Add(S::Add(a4, a5), S::Add(a6, a7)));
  return S::Lane0(S::Add(sum, S::Add(S::Add(a8, a9), S::Add(a10, a11))));
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
  const double fma = Rate([&](long n) { return Rounds<Fma>(n, float_rows); }, kAccumulators * 8.0, seconds);
  const double madd = Rate([&](long n) { return Rounds<Pairs<false>>(n, int_rows); }, kAccumulators * 16.0, seconds);
  const double maddubs = Rate([&](long n) { return Rounds<Pairs<true>>(n, int_rows); }, kAccumulators * 32.0, seconds);
  std::printf("| sequence (one core, registers only) | G multiply-adds/s | vs float FMA | exact |\n");
  std::printf("|---|---:|---:|---|\n");
  std::printf("| vfmadd231ps (float sums) | %.1f | 1.00 | while sums < 2^24 |\n", fma);
  std::printf("| vpmaddwd + vpaddd (int16 pairs) | %.1f | %.2f | yes |\n", madd, madd / fma);
  std::printf("| vpmaddubsw + vpmaddwd + vpaddd (uint8 x int8) | %.1f | %.2f | no: int16 pair sums saturate |\n",
              maddubs, maddubs / fma);
  return 0;
}
