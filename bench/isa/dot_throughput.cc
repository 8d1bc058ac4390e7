// Multiply-adds per second of the x86 instruction sequences an int8 GEMM can
// be built on, in a register-only loop (12 independent accumulators, no
// memory traffic): the ceiling each approach has on this core.
//
//   float FMA            vfmadd231ps                      8 MACs, exact while sums < 2^24
//   int16 pairs          vpmaddwd + vpaddd               16 MACs, exact (sign-extended int8 codes)
//   uint8 x int8 pairs   vpmaddubsw + vpmaddwd + vpaddd  32 MACs, int16 pair sums saturate
// and where the CPU has them
//   AVX-512BW pairs      vpmaddwd + vpaddd on zmm        32 MACs, exact
//   AVX-VNNI quads       vpdpbusd on ymm                 32 MACs, exact (uint8 x int8)
//   AVX-512 VNNI quads   vpdpbusd on zmm                 64 MACs, exact
//
// npurt's int8 kernels (runtime/kernels/int8) use the exact ones; ONNX Runtime's AVX2 int8 kernels the
// third. The last line is the machine's exact int8 peak per core, the fastest exact sequence, in GOPS
// (2 ops per multiply-add): what `make bench` measures npurt's int8 against.
// Usage: dot_throughput [seconds per row, default 0.5]
#include <cpuid.h>
#include <immintrin.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

#define NPURT_AVX2 __attribute__((target("avx2,fma")))
#define NPURT_AVX512 __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define NPURT_AVXVNNI __attribute__((target("avx2,fma,avxvnni")))

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

// One GEMM-shaped round loop per target attribute (a function's ISA is its attribute: AVX2 rows must not
// meet EVEX encodings).
#define NPURT_DEFINE_ROUNDS(NAME, ATTRIBUTE)                                                                   \
  template <typename S>                                                                                       \
  ATTRIBUTE double NAME(long steps, const typename S::Row* rows) {                                            \
    using V = typename S::V;                                                                                  \
    V a0 = S::Zero(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, \
      a11 = a0;                                                                                               \
    const V w0 = S::Weight(0), w1 = S::Weight(1);                                                             \
    for (long s = 0; s < steps; ++s) {                                                                        \
      NPURT_ROWS(NPURT_STEP)                                                                                  \
      NPURT_KEEP(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);                                           \
    }                                                                                                         \
    const V sum = S::Add(S::Add(S::Add(a0, a1), S::Add(a2, a3)), S::Add(S::Add(a4, a5), S::Add(a6, a7)));     \
    return S::Lane0(S::Add(sum, S::Add(S::Add(a8, a9), S::Add(a10, a11))));                                   \
  }
#define NPURT_STEP(r, acc0, acc1)         \
  {                                       \
    const V x = S::Broadcast(rows + r);   \
    acc0 = S::Step(acc0, x, w0);          \
    acc1 = S::Step(acc1, x, w1);          \
  }
NPURT_DEFINE_ROUNDS(Rounds, NPURT_AVX2)
NPURT_DEFINE_ROUNDS(RoundsAvx512, NPURT_AVX512)
NPURT_DEFINE_ROUNDS(RoundsAvxVnni, NPURT_AVXVNNI)
#undef NPURT_STEP

// vpmaddwd on zmm int16 pairs (AVX-512BW), or (kQuads) vpdpbusd on zmm uint8 x int8 quads (AVX-512 VNNI).
template <bool kQuads>
struct Zmm {
  using V = __m512i;
  using Row = int32_t;
  static NPURT_AVX512 V Zero() { return _mm512_setzero_si512(); }
  static NPURT_AVX512 V Weight(int k) { return _mm512_set1_epi16(k == 0 ? 0x0305 : 0x0507); }
  static NPURT_AVX512 V Broadcast(const Row* row) { return _mm512_set1_epi32(*row); }
  static NPURT_AVX512 V Step(V acc, V x, V w) {
    if (kQuads) return _mm512_dpbusd_epi32(acc, x, w);
    return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
  }
  static NPURT_AVX512 V Add(V a, V b) { return _mm512_add_epi32(a, b); }
  static NPURT_AVX512 double Lane0(V v) {
    int32_t lanes[16];
    _mm512_storeu_si512(lanes, v);
    return lanes[0];
  }
};

// vpdpbusd on ymm, VEX-encoded (AVX-VNNI).
struct YmmVnni {
  using V = __m256i;
  using Row = int32_t;
  static NPURT_AVXVNNI V Zero() { return _mm256_setzero_si256(); }
  static NPURT_AVXVNNI V Weight(int k) { return _mm256_set1_epi16(k == 0 ? 0x0305 : 0x0507); }
  static NPURT_AVXVNNI V Broadcast(const Row* row) { return _mm256_set1_epi32(*row); }
  static NPURT_AVXVNNI V Step(V acc, V x, V w) { return _mm256_dpbusd_avx_epi32(acc, x, w); }
  static NPURT_AVXVNNI V Add(V a, V b) { return _mm256_add_epi32(a, b); }
  static NPURT_AVXVNNI double Lane0(V v) { return _mm256_extract_epi32(v, 0); }
};

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
  struct Row {
    const char* name;
    double rate;  // G multiply-adds per second; 0: not on this CPU
    const char* exact;
  };
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  const bool avx512_vnni = avx512 && __builtin_cpu_supports("avx512vnni");
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;  // CPUID 7.1 EAX bit 4: AVX-VNNI (not a clang 14 cpu-supports name)
  const bool avx_vnni = __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax >> 4 & 1u) != 0;
  const Row rows[] = {
      {"vfmadd231ps (float sums)", fma, "while sums < 2^24"},
      {"vpmaddwd + vpaddd (int16 pairs)", madd, "yes"},
      {"vpmaddubsw + vpmaddwd + vpaddd (uint8 x int8)", maddubs, "no: int16 pair sums saturate"},
      {"vpmaddwd + vpaddd on zmm (AVX-512BW int16 pairs)",
       avx512 ? Rate([&](long n) { return RoundsAvx512<Zmm<false>>(n, int_rows); }, kAccumulators * 32.0, seconds) : 0,
       "yes"},
      {"vpdpbusd on ymm (AVX-VNNI uint8 x int8)",
       avx_vnni ? Rate([&](long n) { return RoundsAvxVnni<YmmVnni>(n, int_rows); }, kAccumulators * 32.0, seconds) : 0,
       "yes"},
      {"vpdpbusd on zmm (AVX-512 VNNI uint8 x int8)",
       avx512_vnni ? Rate([&](long n) { return RoundsAvx512<Zmm<true>>(n, int_rows); }, kAccumulators * 64.0, seconds)
                   : 0,
       "yes"},
  };
  std::printf("| sequence (one core, registers only) | G multiply-adds/s | vs float FMA | exact |\n");
  std::printf("|---|---:|---:|---|\n");
  const Row* best = nullptr;
  for (const Row& r : rows) {
    if (r.rate <= 0) {
      std::printf("| %s | not on this CPU | | |\n", r.name);
      continue;
    }
    std::printf("| %s | %.1f | %.2f | %s |\n", r.name, r.rate, r.rate / fma, r.exact);
    if (std::strcmp(r.exact, "yes") == 0 && (best == nullptr || r.rate > best->rate)) best = &r;
  }
  std::printf("int8 exact peak per core: %.0f GOPS (%s)\n", 2 * best->rate, best->name);
  return 0;
}
