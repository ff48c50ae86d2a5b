#include "evaluator/core/half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace pf {
namespace {

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is exactly halfway between 1 and the next half (1 + 2^-10): even wins.
  EXPECT_EQ(round_to_half(1.0 + std::ldexp(1.0, -11)), 1.0);
  // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even).
  EXPECT_EQ(round_to_half(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
  // Slightly above halfway rounds up; the double must not be rounded twice.
  EXPECT_EQ(round_to_half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            1.0 + std::ldexp(1.0, -10));
}

TEST(Half, OverflowSubnormalAndSpecials) {
  EXPECT_EQ(round_to_half(65504.0), 65504.0);
  EXPECT_TRUE(std::isinf(round_to_half(65520.0)));
  EXPECT_EQ(round_to_half(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));
  EXPECT_EQ(round_to_half(std::ldexp(1.0, -26)), 0.0);
  EXPECT_TRUE(std::isnan(round_to_half(NAN)));
  EXPECT_EQ(half_bits_to_float(float_to_half_bits(-2.5f)), -2.5f);
}

// Every one of the 65536 encodings decodes to the value IEEE 754 binary16
// defines: (-1)^s 2^(e-15) (1 + m/1024), subnormals 2^-14 (m/1024), inf, and
// NaN with its payload kept in the float's top mantissa bits.
TEST(Half, EveryEncodingDecodesExactly) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    const double sign = (h & 0x8000u) != 0 ? -1.0 : 1.0;
    const float got = half_bits_to_float(static_cast<uint16_t>(h));
    if (e == 0x1f) {
      uint32_t bits = 0;
      std::memcpy(&bits, &got, sizeof bits);
      EXPECT_EQ(bits, ((h & 0x8000u) << 16) | 0x7f800000u | (m << 13)) << h;
      continue;
    }
    const double want = e == 0 ? sign * std::ldexp(static_cast<double>(m), -24)
                               : sign * std::ldexp(1.0 + m / 1024.0, static_cast<int>(e) - 15);
    EXPECT_EQ(static_cast<double>(got), want) << h;
    EXPECT_EQ(std::signbit(got), (h & 0x8000u) != 0) << h;
  }
}

TEST(BFloat16, RoundsToNearestEven) {
  // bfloat16 keeps 8 significant bits: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(round_to_bfloat16(1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(round_to_bfloat16(1.0 + 3 * std::ldexp(1.0, -8)), 1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(round_to_bfloat16(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_TRUE(std::isnan(round_to_bfloat16(NAN)));
}

}  // namespace
}  // namespace pf
