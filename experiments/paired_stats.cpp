#include "experiments/paired_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace pf::experiments {
namespace {

constexpr double kZAlpha = 1.959963984540054;  // z_0.975: two-sided alpha 0.05
constexpr double kZPower = 0.841621233572914;  // z_0.8: power 0.8

// Mid-ranks of |d| over the non-zero differences, doubled so they are integers.
std::vector<int64_t> doubled_midranks(const std::vector<double>& abs_sorted) {
  std::vector<int64_t> ranks(abs_sorted.size());
  size_t i = 0;
  while (i < abs_sorted.size()) {
    size_t j = i;
    while (j + 1 < abs_sorted.size() && abs_sorted[j + 1] - abs_sorted[i] < kZeroDifference) ++j;
    // Ranks i+1 .. j+1 share their mean (i + j + 2) / 2; doubled: i + j + 2.
    for (size_t k = i; k <= j; ++k) ranks[k] = static_cast<int64_t>(i + j + 2);
    i = j + 1;
  }
  return ranks;
}

// P(W <= w) where W is the sum of a uniformly random subset of `ranks`.
double exact_lower_tail(const std::vector<int64_t>& ranks, int64_t w) {
  int64_t total = std::accumulate(ranks.begin(), ranks.end(), int64_t{0});
  // Counts as doubles divided by 2 per element: stays in range for any n.
  std::vector<double> dist(static_cast<size_t>(total) + 1, 0.0);
  dist[0] = 1.0;
  int64_t reach = 0;
  for (int64_t r : ranks) {
    reach += r;
    for (int64_t s = reach; s >= 0; --s) {
      double without = dist[static_cast<size_t>(s)] * 0.5;
      double with = s >= r ? dist[static_cast<size_t>(s - r)] * 0.5 : 0.0;
      dist[static_cast<size_t>(s)] = without + with;
    }
  }
  double p = 0;
  for (int64_t s = 0; s <= std::min(w, total); ++s) p += dist[static_cast<size_t>(s)];
  return p;
}

}  // namespace

double mean_of(const std::vector<double>& v) {
  if (v.empty()) return 0;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double m = mean_of(v), ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double normal_two_sided_p(double z) {
  return std::min(1.0, std::erfc(std::abs(z) / std::sqrt(2.0)));
}

std::optional<Interval> bootstrap_mean_ci(const std::vector<double>& d, double level, int resamples,
                                          uint64_t seed) {
  if (d.empty() || resamples < 1) return std::nullopt;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, d.size() - 1);
  std::vector<double> means(static_cast<size_t>(resamples));
  for (auto& m : means) {
    double sum = 0;
    for (size_t i = 0; i < d.size(); ++i) sum += d[pick(rng)];
    m = sum / static_cast<double>(d.size());
  }
  std::sort(means.begin(), means.end());
  auto at = [&](double q) {
    // The q quantile with linear interpolation between order statistics.
    double pos = q * static_cast<double>(means.size() - 1);
    auto lo = static_cast<size_t>(std::floor(pos));
    size_t hi = std::min(lo + 1, means.size() - 1);
    return means[lo] + (pos - static_cast<double>(lo)) * (means[hi] - means[lo]);
  };
  double tail = (1 - level) / 2;
  return Interval{at(tail), at(1 - tail)};
}

double binomial_two_sided_p(int k, int n) {
  if (n <= 0) return 1;
  k = std::min(k, n - k);
  // P(X <= k) with X ~ Bin(n, 1/2), summed in log space (any n).
  double tail = 0;
  for (int i = 0; i <= k; ++i) {
    double log_c = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0);
    tail += std::exp(log_c - n * std::log(2.0));
  }
  return std::min(1.0, 2 * tail);
}

SignTestResult sign_test(const std::vector<double>& d) {
  SignTestResult r;
  for (double x : d) {
    if (std::abs(x) < kZeroDifference) {
      ++r.zeros;
    } else if (x > 0) {
      ++r.positive;
    } else {
      ++r.negative;
    }
  }
  r.p = binomial_two_sided_p(std::min(r.positive, r.negative), r.positive + r.negative);
  return r;
}

WilcoxonResult wilcoxon_signed_rank(const std::vector<double>& d, int exact_max_n) {
  WilcoxonResult r;
  std::vector<double> nonzero;
  for (double x : d) {
    if (std::abs(x) < kZeroDifference) {
      ++r.zeros;
    } else {
      nonzero.push_back(x);
    }
  }
  r.n = static_cast<int>(nonzero.size());
  if (r.n == 0) return r;
  std::sort(nonzero.begin(), nonzero.end(),
            [](double a, double b) { return std::abs(a) < std::abs(b); });
  std::vector<double> abs_sorted(nonzero.size());
  std::transform(nonzero.begin(), nonzero.end(), abs_sorted.begin(),
                 [](double x) { return std::abs(x); });
  std::vector<int64_t> ranks = doubled_midranks(abs_sorted);
  int64_t plus2 = 0, minus2 = 0;
  for (size_t i = 0; i < nonzero.size(); ++i) (nonzero[i] > 0 ? plus2 : minus2) += ranks[i];
  r.w_plus = static_cast<double>(plus2) / 2;
  r.w_minus = static_cast<double>(minus2) / 2;
  if (r.n <= exact_max_n) {
    r.exact = true;
    r.p = std::min(1.0, 2 * exact_lower_tail(ranks, std::min(plus2, minus2)));
    return r;
  }
  double n = r.n;
  double mean = n * (n + 1) / 4;
  double var = n * (n + 1) * (2 * n + 1) / 24;
  // Tie correction: minus sum(t^3 - t) / 48 over groups of tied |d|.
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j < ranks.size() && ranks[j] == ranks[i]) ++j;
    double t = static_cast<double>(j - i);
    var -= (t * t * t - t) / 48;
    i = j;
  }
  double w = std::min(r.w_plus, r.w_minus);
  double diff = w - mean;
  double corrected = std::min(0.0, diff + 0.5);  // continuity correction towards the mean
  r.z = var > 0 ? corrected / std::sqrt(var) : 0;
  r.p = var > 0 ? normal_two_sided_p(r.z) : 1;
  return r;
}

std::optional<int64_t> tasks_needed(double effect, double sd) {
  if (!(effect > 0) || !(sd > 0)) return std::nullopt;
  double standardized = effect / sd;
  double n = std::pow((kZAlpha + kZPower) / standardized, 2) + kZAlpha * kZAlpha / 2;
  if (!std::isfinite(n) || n > 1e12) return std::nullopt;
  return std::max<int64_t>(2, static_cast<int64_t>(std::ceil(n - 1e-9)));
}

}  // namespace pf::experiments
