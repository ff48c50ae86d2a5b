// Statistics of paired samples for A/B experiments: one difference per task
// (arm B's mean minus arm A's mean over the task's samples). Definitions and
// the choices made (zeros, ties, exactness) are in docs/ab.md.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace pf::experiments {

//! Differences with |d| below this count as zero (scores are stored as
//! doubles; a difference of two equal means is not always exactly 0).
inline constexpr double kZeroDifference = 1e-12;

struct Interval {
  double lo = 0;
  double hi = 0;
};

//! Percentile bootstrap CI of the mean of `d`: `resamples` resamples with
//! replacement drawn from a fixed-seed mt19937_64, so the same data always
//! give the same interval. nullopt for an empty sample.
std::optional<Interval> bootstrap_mean_ci(const std::vector<double>& d, double level = 0.95,
                                          int resamples = 10'000, uint64_t seed = 0x5eed'ab);

struct SignTestResult {
  int positive = 0;
  int negative = 0;
  int zeros = 0;  // dropped
  double p = 1;   // two-sided exact binomial (p = 1/2) on positive vs negative
};

//! Exact two-sided sign test; zero differences are dropped.
SignTestResult sign_test(const std::vector<double>& d);

//! P(X <= k) + P(X >= n - k) for X ~ Binomial(n, 1/2) with k <= n/2, capped
//! at 1: the two-sided p of observing k of the rarer sign.
double binomial_two_sided_p(int k, int n);

struct WilcoxonResult {
  int n = 0;          // non-zero differences ranked
  int zeros = 0;      // dropped (Wilcoxon's original treatment)
  double w_plus = 0;  // rank sum of the positive differences
  double w_minus = 0;
  bool exact = false;  // exact permutation distribution (else normal approximation)
  double z = 0;        // normal approximation only
  double p = 1;        // two-sided
};

//! Wilcoxon signed-rank test. Zero differences are dropped; tied |d| get
//! mid-ranks. Up to `exact_max_n` non-zero differences the p value is exact:
//! the permutation distribution of W+ over all 2^n sign assignments of the
//! observed (mid-)ranks, so it stays exact with ties. Above that, the normal
//! approximation with tie correction of the variance and continuity
//! correction 0.5.
WilcoxonResult wilcoxon_signed_rank(const std::vector<double>& d, int exact_max_n = 50);

//! Tasks a paired test needs to detect a mean difference `effect` when the
//! differences have standard deviation `sd`, at two-sided alpha 0.05 and
//! power 0.8: the normal approximation n = ((z_0.975 + z_0.8) sd / effect)^2
//! plus Guenther's t correction z_0.975^2 / 2, rounded up (34 tasks for an
//! effect of 0.5 sd, as the paired t test's power tables give). nullopt when
//! effect or sd is not positive.
std::optional<int64_t> tasks_needed(double effect, double sd);

//! Two-sided p of a standard normal statistic.
double normal_two_sided_p(double z);

//! Mean and sample standard deviation (n - 1; 0 for fewer than two values).
double mean_of(const std::vector<double>& v);
double sd_of(const std::vector<double>& v);

}  // namespace pf::experiments
