// fp16 rounding of float32 values: hand cases against the float16 format's definition, and the F16C / NEON
// kernels against the reference on a sweep of bit patterns (every exponent, mantissas near ties, NaN, inf)
// and on activation-like runs below the overflow threshold with a few overflows among them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/kernels/ref/half_round.h"
#if NPURT_HAVE_X86_KERNELS
#include "runtime/kernels/x86/half_round_f16c.h"
#endif
#if NPURT_HAVE_ARM_KERNELS
#include "runtime/kernels/arm/half_round_neon.h"
#endif

namespace npurt {
namespace {

float Round(float v, int64_t* overflowed = nullptr) {
  const int64_t o = round_to_half__ref(&v, 1);
  if (overflowed != nullptr) *overflowed = o;
  return v;
}

TEST(HalfRound, NearestEvenOverflowAndSubnormals) {
  EXPECT_EQ(Round(1.0f), 1.0f);
  EXPECT_EQ(Round(1.0f + std::ldexp(1.0f, -11)), 1.0f);                               // tie: to even
  EXPECT_EQ(Round(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -9));    // tie: to even (up)
  EXPECT_EQ(Round(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(Round(65504.0f), 65504.0f);    // the largest float16
  EXPECT_EQ(Round(65519.99f), 65504.0f);
  int64_t overflowed = 0;
  EXPECT_EQ(Round(65520.0f, &overflowed), std::numeric_limits<float>::infinity());  // the tie above overflows
  EXPECT_EQ(overflowed, 1);
  EXPECT_EQ(Round(-1e6f), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(Round(std::numeric_limits<float>::infinity(), &overflowed), std::numeric_limits<float>::infinity());
  EXPECT_EQ(overflowed, 0);  // already infinite: not an fp16 overflow
  EXPECT_TRUE(std::isnan(Round(std::nanf(""))));
  EXPECT_EQ(Round(std::ldexp(1.0f, -24)), std::ldexp(1.0f, -24));                     // smallest subnormal
  EXPECT_EQ(Round(std::ldexp(1.0f, -25)), 0.0f);                                      // tie: to even (zero)
  EXPECT_EQ(Round(3 * std::ldexp(1.0f, -26)), std::ldexp(1.0f, -24));
  EXPECT_EQ(Round(std::ldexp(1.0f, -14) * 1.5f), std::ldexp(1.0f, -14) * 1.5f);       // smallest normals
  EXPECT_TRUE(std::signbit(Round(-1e-10f)));                                          // -0 keeps its sign
}

// Every 4099th bit pattern (all exponents, both signs) plus, around each float16 rounding boundary of a
// few exponents, the patterns just below, at and above the tie. Lengths not a multiple of 8: the tail too.
std::vector<float> SweepInputs() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 4099) {
    float v;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&v, &b, 4);
    x.push_back(v);
  }
  for (uint32_t e : {103u, 112u, 113u, 127u, 142u, 143u}) {
    for (uint32_t m = 0; m < (1u << 23); m += 0x1000u) {
      for (int d = -1; d <= 1; ++d) {
        const uint32_t b = (e << 23) | ((m + static_cast<uint32_t>(d)) & 0x7fffffu);
        float v;
        std::memcpy(&v, &b, 4);
        x.push_back(v);
        x.push_back(-v);
      }
    }
  }
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(std::nanf(""));
  x.push_back(65520.0f);
  return x;
}

// Activations as a model has them: long runs of values below fp16's overflow threshold (65520), which
// kernels may round without counting, every 37th a pattern close to a tie; then a few overflowing values,
// an inf and a NaN put into some of those runs, and the tail.
std::vector<float> ActivationInputs() {
  std::vector<float> x;
  uint32_t state = 12345;
  while (x.size() < 512 * 40 + 37) {
    state = state * 1664525u + 1013904223u;
    uint32_t b = (state >> 1) % 0x477ff000u;  // below the bits of 65520
    if (x.size() % 37 == 0) b = (b & ~0x1fffu) | 0x1000u;  // the tie between two fp16 neighbours
    if (state & 0x80000000u) b |= 0x80000000u;
    float v;
    std::memcpy(&v, &b, 4);
    x.push_back(v);
  }
  x[512 * 3 + 5] = 65520.0f;
  x[512 * 3 + 6] = -1e6f;
  x[512 * 7 + 511] = std::numeric_limits<float>::infinity();
  x[512 * 20] = std::nanf("");
  x[512 * 31 + 100] = 70000.0f;
  x[x.size() - 2] = -65520.0f;
  return x;
}

// `kernel` gives round_to_half__ref's bits (NaN: a NaN) and overflow count on `x`.
void ExpectReferenceBits(int64_t (*kernel)(float*, int64_t), const char* name, const std::vector<float>& x) {
  std::vector<float> ref = x, opt = x;
  const int64_t ref_over = round_to_half__ref(ref.data(), static_cast<int64_t>(ref.size()));
  const int64_t opt_over = kernel(opt.data(), static_cast<int64_t>(opt.size()));
  EXPECT_EQ(ref_over, opt_over);
  EXPECT_GT(ref_over, 0);
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(ref[i]) && std::isnan(opt[i])) continue;
    if (std::memcmp(&ref[i], &opt[i], 4) != 0 && bad++ < 5) {
      ADD_FAILURE() << "input " << x[i] << ": ref " << ref[i] << ", " << name << " " << opt[i];
    }
  }
  EXPECT_EQ(bad, 0);
}

void ExpectReferenceBits(int64_t (*kernel)(float*, int64_t), const char* name) {
  ExpectReferenceBits(kernel, name, SweepInputs());
  ExpectReferenceBits(kernel, name, ActivationInputs());
}

#if NPURT_HAVE_X86_KERNELS
TEST(HalfRound, F16cMatchesTheReferenceBitForBit) {
  if (!__builtin_cpu_supports("f16c")) GTEST_SKIP() << "no F16C";
  ExpectReferenceBits(round_to_half__f16c, "f16c");
}
#endif

#if NPURT_HAVE_ARM_KERNELS
TEST(HalfRound, NeonMatchesTheReferenceBitForBit) { ExpectReferenceBits(round_to_half__neon, "neon"); }
#endif

}  // namespace
}  // namespace npurt
