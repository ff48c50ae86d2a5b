// The adaptive stopping rule's pure parts: the distribution-free interval of
// the median against order-statistic intervals computed by hand from the
// binomial distribution, and the precision / steadiness verdicts the harness
// stops on.
#include "evaluator/gpu/timing_stopping.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "evaluator/gpu/timing.h"

namespace pf::gpu {
namespace {

std::vector<double> one_to(size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

TEST(MedianInterval, MatchesHandComputedOrderStatistics) {
  // n = 20: P(B <= 5) = (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20
  // = 21700 / 1048576 = 0.0207 <= 0.025 < P(B <= 6) = 0.0577, so the 95 %
  // interval is [x_(6), x_(15)].
  MedianInterval ci = median_interval(one_to(20), 0.95);
  ASSERT_TRUE(ci.defined);
  EXPECT_EQ(ci.lo_rank, 6u);
  EXPECT_EQ(ci.hi_rank, 15u);
  EXPECT_DOUBLE_EQ(ci.lo, 6.0);
  EXPECT_DOUBLE_EQ(ci.hi, 15.0);
  EXPECT_NEAR(ci.coverage, 1 - 2 * 21700.0 / 1048576.0, 1e-12);
  // n = 10: P(B <= 1) = 11 / 1024 <= 0.025 < P(B <= 2) = 56 / 1024.
  ci = median_interval(one_to(10), 0.95);
  ASSERT_TRUE(ci.defined);
  EXPECT_EQ(ci.lo_rank, 2u);
  EXPECT_EQ(ci.hi_rank, 9u);
  EXPECT_NEAR(ci.coverage, 1 - 22.0 / 1024.0, 1e-12);
  // n = 6: the extremes, P(B <= 0) = 1 / 64.
  ci = median_interval(one_to(6), 0.95);
  ASSERT_TRUE(ci.defined);
  EXPECT_EQ(ci.lo_rank, 1u);
  EXPECT_EQ(ci.hi_rank, 6u);
  EXPECT_NEAR(ci.coverage, 1 - 2.0 / 64.0, 1e-12);
  // n = 5: even the extremes cover only 1 - 2 / 32 = 0.9375 < 0.95.
  EXPECT_FALSE(median_interval(one_to(5), 0.95).defined);
  EXPECT_FALSE(median_interval({}, 0.95).defined);
  // n = 100, the textbook table: [x_(40), x_(61)], coverage 0.9648.
  ci = median_interval(one_to(100), 0.95);
  EXPECT_EQ(ci.lo_rank, 40u);
  EXPECT_EQ(ci.hi_rank, 61u);
  EXPECT_NEAR(ci.coverage, 0.9648, 5e-5);
  // A lower confidence narrows it: n = 20 at 80 %, P(B <= 6) = 0.0577 <= 0.1
  // < P(B <= 7) = 0.1316.
  ci = median_interval(one_to(20), 0.80);
  EXPECT_EQ(ci.lo_rank, 7u);
  EXPECT_EQ(ci.hi_rank, 14u);
}

TEST(MedianInterval, LargeSamplesDoNotUnderflow) {
  // 2^-5000 is 0 in a double; the interval must still be the normal
  // approximation's n/2 -+ 1.96 sqrt(n)/2 (about 2431 and 2570).
  MedianInterval ci = median_interval(one_to(5000), 0.95);
  ASSERT_TRUE(ci.defined);
  EXPECT_NEAR(static_cast<double>(ci.lo_rank), 2500.5 - 1.96 * std::sqrt(5000.0) / 2, 2);
  EXPECT_EQ(ci.lo_rank + ci.hi_rank, 5001u);
  EXPECT_GE(ci.coverage, 0.95);
  EXPECT_LT(ci.coverage, 0.96);
}

TEST(MedianPrecision, RelativeHalfWidthIsTheWiderSide) {
  // Sorted 1..20 scaled to 100..119 (median 109.5, interval [105, 114]): the
  // wider side is 109.5 - 105 = 4.5.
  std::vector<double> v(20);
  for (int i = 0; i < 20; ++i) v[i] = 100 + (i * 7) % 20;  // a permutation
  MedianPrecision p = median_precision(v, 0.95);
  EXPECT_DOUBLE_EQ(p.median, 109.5);
  EXPECT_DOUBLE_EQ(p.interval.lo, 105.0);
  EXPECT_DOUBLE_EQ(p.interval.hi, 114.0);
  EXPECT_NEAR(p.relative_half_width, 4.5 / 109.5, 1e-12);
  EXPECT_TRUE(p.steady);
  EXPECT_TRUE(p.within(0.05));
  EXPECT_FALSE(p.within(0.04));
  // Too few samples: never precise, whatever the spread.
  MedianPrecision few = median_precision({1, 1, 1, 1, 1}, 0.95);
  EXPECT_TRUE(std::isinf(few.relative_half_width));
  EXPECT_FALSE(few.within(1.0));
  // A zero median cannot give a relative precision.
  EXPECT_FALSE(median_precision(std::vector<double>(20, 0.0), 0.95).within(1.0));
}

// A side that is fast for its first trials and slower after: the interval of
// all 40 samples is narrow (0.3 % of the median), but the halves' medians
// lie outside it, so the rule does not stop on it.
TEST(MedianPrecision, DriftIsNotSteady) {
  std::vector<double> v(40);
  for (int i = 0; i < 20; ++i) {
    v[i] = 1.0 + 0.0005 * i;
    v[20 + i] = 1.010 + 0.0005 * i;
  }
  MedianPrecision p = median_precision(v, 0.95);
  EXPECT_LT(p.relative_half_width, 0.01);
  EXPECT_FALSE(p.steady);
  EXPECT_FALSE(p.within(0.01));
  // The same values interleaved (no drift) are steady and precise enough.
  std::vector<double> mixed;
  mixed.reserve(v.size());
  for (int i = 0; i < 20; ++i) {
    mixed.push_back(v[i]);
    mixed.push_back(v[20 + i]);
  }
  MedianPrecision m = median_precision(mixed, 0.95);
  EXPECT_TRUE(m.steady);
  EXPECT_TRUE(m.within(0.01));
}

TEST(StoppingRule, MinimumIsWholeRoundsCoveringChecksAndPlans) {
  TimingOptions o;
  o.precision = 0.01;
  o.trials = 100;
  o.check_every = 0;  // only the last trial checked: rounds of 10
  o.min_trials = 20;
  EXPECT_EQ(round_trials(o), 10);
  EXPECT_EQ(minimum_trials(o, 2), 40);  // each of 2 plans checked twice
  EXPECT_EQ(minimum_trials(o, 1), 20);
  o.check_every = 5;  // the protocol's default (2 * recheck_cycle + 1)
  EXPECT_EQ(round_trials(o), 5);
  EXPECT_EQ(minimum_trials(o, 2), 20);  // four checks
  o.min_trials = 23;
  EXPECT_EQ(minimum_trials(o, 2), 25);  // whole rounds
  o.min_trials = 1;
  EXPECT_EQ(minimum_trials(o, 3), 30);  // each of 3 plans checked twice
  o.trials = 15;
  EXPECT_EQ(minimum_trials(o, 2), 15);  // never past the maximum
}

TEST(StoppingRule, BHasItsOwnMinimumInWholeRounds) {
  TimingOptions o;
  o.precision = 0.02;
  o.trials = 100;
  o.check_every = 5;
  o.min_trials = 20;
  const int a = minimum_trials(o, 2);
  EXPECT_EQ(minimum_trials_b(o, a), 20);  // 0: A's
  o.min_trials_b = 10;
  EXPECT_EQ(minimum_trials_b(o, a), 10);
  o.min_trials_b = 7;
  EXPECT_EQ(minimum_trials_b(o, a), 10);  // whole rounds
  o.min_trials_b = 1;
  EXPECT_EQ(minimum_trials_b(o, a), 5);  // one round: its last trial ends it
  o.min_trials_b = 40;
  EXPECT_EQ(minimum_trials_b(o, a), 40);  // above A's, if asked
  o.trials = 12;
  EXPECT_EQ(minimum_trials_b(o, minimum_trials(o, 2)), 12);  // never past the maximum
}

// n = 20 at 95 %: the interval is [x_(6), x_(15)], here [1.05, 1.14]; with a
// precision of 2 % a fresh median agrees from 1.05 * 0.98 to 1.14 * 1.02.
TEST(StoppingRule, FreshSamplesAgreeWithAPriorInsideItsWidenedInterval) {
  std::vector<double> prior(20);
  for (size_t i = 0; i < prior.size(); ++i) prior[i] = 1.0 + 0.01 * static_cast<double>(i);
  EXPECT_TRUE(agrees_with_prior(prior, {1.03, 1.03, 1.2}, 0.95, 0.02));  // median 1.03 >= 1.029
  EXPECT_FALSE(agrees_with_prior(prior, {1.02, 1.02, 1.2}, 0.95, 0.02));
  EXPECT_TRUE(agrees_with_prior(prior, {1.16}, 0.95, 0.02));  // <= 1.1628
  EXPECT_FALSE(agrees_with_prior(prior, {1.17}, 0.95, 0.02));
  EXPECT_FALSE(agrees_with_prior(prior, {1.17}, 0.95, 0.0));
  EXPECT_FALSE(agrees_with_prior(prior, {}, 0.95, 0.02));
  // Five samples have no 95 % interval: nothing to agree with.
  EXPECT_FALSE(agrees_with_prior({1, 1, 1, 1, 1}, {1}, 0.95, 0.02));
}

TEST(StoppingRule, SidePreciseFollowsTheStabilityMetric) {
  SideTiming side;
  for (int i = 0; i < 40; ++i) {
    side.e2e_ms.push_back(10.0 + 0.001 * (i % 7));  // within 0.1 %
    side.device_ms.push_back(i % 2 ? 1.0 : 2.0);    // bimodal: no precision
  }
  TimingOptions o;
  o.precision = 0.01;
  side.e2e_precision = median_precision(side.e2e_ms, o.confidence);
  side.device_precision = median_precision(side.device_ms, o.confidence);
  o.stability = StabilityMetric::end_to_end;
  EXPECT_TRUE(side_precise(side, o));
  o.stability = StabilityMetric::device;
  EXPECT_FALSE(side_precise(side, o));
  o.stability = StabilityMetric::both;
  EXPECT_FALSE(side_precise(side, o));
}

}  // namespace
}  // namespace pf::gpu
