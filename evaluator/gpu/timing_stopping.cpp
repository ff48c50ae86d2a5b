#include "evaluator/gpu/timing_stopping.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "evaluator/gpu/timing_stats.h"

namespace pf::gpu {

MedianInterval median_interval(const std::vector<double>& sorted, double confidence) {
  MedianInterval ci;
  const size_t n = sorted.size();
  if (n == 0 || !(confidence > 0 && confidence < 1)) return ci;
  const double tail = (1 - confidence) / 2;
  // P(B = i) for B ~ Bin(n, 1/2), stepped in logs: 2^-n underflows for
  // n > 1074, long before the terms that matter do.
  double log_pmf = -static_cast<double>(n) * std::log(2.0);
  double cdf = 0;  // P(B <= k - 1)
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    const double next = cdf + std::exp(log_pmf);
    if (next > tail) break;
    cdf = next;
    k = i + 1;
    log_pmf += std::log(static_cast<double>(n - i)) - std::log(static_cast<double>(i + 1));
  }
  if (k == 0) return ci;
  ci.defined = true;
  ci.lo_rank = k;
  ci.hi_rank = n + 1 - k;
  ci.lo = sorted[k - 1];
  ci.hi = sorted[n - k];
  ci.coverage = 1 - 2 * cdf;
  return ci;
}

bool MedianPrecision::within(double precision) const {
  return interval.defined && steady && relative_half_width <= precision;
}

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}

}  // namespace

MedianPrecision median_precision(const std::vector<double>& samples, double confidence) {
  MedianPrecision p;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  p.median = quantile_sorted(sorted, 0.5);
  p.interval = median_interval(sorted, confidence);
  p.relative_half_width = std::numeric_limits<double>::infinity();
  if (!p.interval.defined) return p;
  if (p.median > 0) {
    p.relative_half_width = std::max(p.median - p.interval.lo, p.interval.hi - p.median) / p.median;
  }
  const auto half = static_cast<std::ptrdiff_t>(samples.size() / 2);
  const double first = median_of({samples.begin(), samples.begin() + half});
  const double second = median_of({samples.begin() + half, samples.end()});
  auto inside = [&](double m) { return m >= p.interval.lo && m <= p.interval.hi; };
  p.steady = half > 0 && inside(first) && inside(second);
  return p;
}

bool agrees_with_prior(const std::vector<double>& prior, const std::vector<double>& fresh,
                       double confidence, double precision) {
  if (fresh.empty()) return false;
  std::vector<double> sorted = prior;
  std::sort(sorted.begin(), sorted.end());
  const MedianInterval ci = median_interval(sorted, confidence);
  if (!ci.defined) return false;
  const double m = median_of(fresh);
  return m >= ci.lo * (1 - precision) && m <= ci.hi * (1 + precision);
}

}  // namespace pf::gpu
