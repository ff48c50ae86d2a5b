// The counter-based generator of input synthesis (evaluator/core/synth_stream.h)
// on the CPU: it is SplitMix64 computed per counter, each element depends only
// on (stream key, index), its ln/cos/sin are accurate, its 16-bit rounding is
// the core's RNE, its normals have the right moments and the value rules hold.
// tests/unit/gpu/synthesis_gpu_test.cpp checks the GPU draws the same bits.
#include "evaluator/core/synth_stream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "evaluator/core/half.h"
#include "evaluator/tasks/synthesis.h"

namespace pf {
namespace {

TEST(SynthStream, CounterIsSplitMix64Sequence) {
  const uint64_t key = 0x0123456789abcdefULL;
  uint64_t state = key;
  for (uint64_t k = 0; k < 1000; ++k) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    ASSERT_EQ(pf_synth_u64(key, k), z) << k;
  }
}

TEST(SynthStream, LogIsAccurate) {
  std::mt19937_64 rng(1);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double want = std::log(u);
    if (want == 0) continue;
    worst = std::max(worst, std::fabs(pf_synth_log(u) - want) / std::fabs(want));
  }
  EXPECT_LT(worst, 1e-15);
  EXPECT_EQ(pf_synth_log(1.0), 0.0);
  EXPECT_NEAR(pf_synth_log(0x1.0p-54), -54 * std::log(2.0), 1e-13);
  EXPECT_NEAR(pf_synth_log(0.7071), std::log(0.7071), 1e-16);
}

TEST(SynthStream, CosSinOfTurnsAreAccurate) {
  std::mt19937_64 rng(2);
  double worst = 0;
  std::vector<uint64_t> ks = {0,          (1ULL << 50) - 1, 1ULL << 50, (1ULL << 51) - 1,
                              1ULL << 52, (1ULL << 53) - 1};
  for (int i = 0; i < 200000; ++i) ks.push_back(rng() >> 11);
  for (uint64_t k : ks) {
    const long double turn = (static_cast<long double>(k) + 0.5L) / 0x1.0p53L;
    const long double angle = 2 * 3.14159265358979323846264338327950288L * turn;
    double c, s;
    pf_synth_cos_sin_turn(k, &c, &s);
    worst = std::max(worst, static_cast<double>(std::fabs(c - std::cos(angle))));
    worst = std::max(worst, static_cast<double>(std::fabs(s - std::sin(angle))));
  }
  EXPECT_LT(worst, 4e-16);
}

uint64_t bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
double from_bits(uint64_t u) {
  double v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

TEST(SynthStream, SixteenBitRoundingIsTheCoresRoundToNearestEven) {
  std::vector<double> vs = {0.0,
                            -0.0,
                            1.0,
                            65504.0,
                            65520.0,
                            65519.99,
                            1e6,
                            -1e6,
                            0x1.0p-24,
                            0x1.0p-25,
                            0x1.0000000000001p-25,
                            0x1.8p-24,
                            0x1.0p-14,
                            0x1.ffcp-15,
                            1.0 + 0x1.0p-11,
                            1.0 + 0x1.0p-8,
                            1.0 + 0x1.8p-8,
                            3.3895313892515355e38,
                            3.4e38,
                            1e-40,
                            0x1.0p-133,
                            0x1.0p-134,
                            0x1.0p-1070,
                            INFINITY,
                            -INFINITY};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 300000; ++i) {
    // Exponents around both formats' ranges, random mantissas (ties included).
    const uint64_t e = 1023 - 140 + rng() % 290;
    uint64_t mant = rng() & 0xfffffffffffffULL;
    if (i % 3 == 0) mant &= ~((1ULL << 40) - 1);  // many ties and exact values
    vs.push_back(from_bits((rng() & (1ULL << 63)) | (e << 52) | mant));
  }
  for (double v : vs) {
    ASSERT_EQ(pf_synth_narrow_bits(v, 10, 5), double_to_half_bits(v)) << std::hexfloat << v;
    ASSERT_EQ(pf_synth_narrow_bits(v, 7, 8), double_to_bfloat16_bits(v)) << std::hexfloat << v;
  }
  EXPECT_EQ(pf_synth_narrow_bits(NAN, 10, 5) & 0x7e00, 0x7e00);
  EXPECT_EQ(pf_synth_narrow_bits(NAN, 7, 8) & 0x7fc0, 0x7fc0);
  EXPECT_EQ(bits(0.0) >> 63, 0u);
}

std::vector<double> normals(uint64_t key, int64_t n) {
  PfSynthStream s{};
  s.key = key;
  s.kind = PF_SYNTH_NORMAL;
  s.scale = 1;
  s.lo = -INFINITY;
  s.hi = INFINITY;
  std::vector<double> v(static_cast<size_t>(n));
  fill_synthesized(s, DType::float64, reinterpret_cast<std::byte*>(v.data()), n);
  return v;
}

TEST(SynthStream, NormalsHaveStandardMomentsAndIndependentPairs) {
  const int64_t n = 1 << 20;
  std::vector<double> v = normals(42, n);
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0, pair = 0, beyond3 = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double x = v[static_cast<size_t>(i)];
    m1 += x;
    m2 += x * x;
    m3 += x * x * x;
    m4 += x * x * x * x;
    beyond3 += std::fabs(x) > 3;
    if (i % 2 == 0) pair += x * v[static_cast<size_t>(i + 1)];
  }
  const auto dn = static_cast<double>(n);
  EXPECT_NEAR(m1 / dn, 0, 0.005);
  EXPECT_NEAR(m2 / dn, 1, 0.005);
  EXPECT_NEAR(m3 / dn, 0, 0.02);
  EXPECT_NEAR(m4 / dn, 3, 0.03);
  EXPECT_NEAR(pair / (dn / 2), 0, 0.005);     // cos and sin of one pair are uncorrelated
  EXPECT_NEAR(beyond3 / dn, 0.0027, 0.0003);  // P(|N(0,1)| > 3)
}

TEST(SynthStream, EachElementDependsOnlyOnKeyAndIndex) {
  std::vector<double> whole = normals(7, 1001);
  for (int64_t n : {1, 2, 3, 10, 999}) {
    std::vector<double> prefix = normals(7, n);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(bits(prefix[static_cast<size_t>(i)]), bits(whole[static_cast<size_t>(i)])) << i;
    }
  }
  EXPECT_NE(normals(8, 16), normals(7, 16));
}

}  // namespace
}  // namespace pf
