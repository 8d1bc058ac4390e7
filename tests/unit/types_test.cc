#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "runtime/core/types.h"

namespace npurt {
namespace {

TEST(Half, KnownEncodings) {
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);        // rounds to infinity
  EXPECT_EQ(FloatToHalf(5.960464477539063e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalf(6.103515625e-05f), 0x0400);       // smallest normal
  EXPECT_EQ(FloatToHalf(INFINITY), 0x7c00);
  EXPECT_EQ(FloatToHalf(NAN) & 0x7c00, 0x7c00);
  EXPECT_NE(FloatToHalf(NAN) & 0x03ff, 0);
}

TEST(Half, RoundTripsEveryHalf) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(FloatToHalf(f), h) << std::hex << h;
  }
}

TEST(Half, RoundsToNearestEven) {
  // Halfway between 1.0 (0x3c00) and the next half (0x3c01): ties go to even.
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 2048), 0x3c00);
  EXPECT_EQ(FloatToHalf(1.0f + 3.0f / 2048), 0x3c02);
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 2048 + 1.0f / 65536), 0x3c01);
}

TEST(NumElements, OverflowAndNegativeAreInvalid) {
  EXPECT_EQ(NumElements({}), 1);
  EXPECT_EQ(NumElements({2, 3, 4}), 24);
  EXPECT_EQ(NumElements({2, 0, 4}), 0);
  EXPECT_EQ(NumElements({-1, 3}), -1);
  EXPECT_EQ(NumElements({1LL << 40, 1LL << 40}), -1);
}

}  // namespace
}  // namespace npurt
