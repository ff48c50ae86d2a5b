#include "evaluator/gpu/timing_stats.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

namespace pf::gpu {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

SampleStats summarize(std::vector<double> samples) {
  SampleStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.n = samples.size();
  s.median = quantile_sorted(samples, 0.5);
  s.q1 = quantile_sorted(samples, 0.25);
  s.q3 = quantile_sorted(samples, 0.75);
  s.iqr = s.q3 - s.q1;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  s.min = samples.front();
  s.max = samples.back();
  return s;
}

bool is_unstable(const SampleStats& s, double max_ratio) {
  return s.iqr_ratio() > max_ratio;
}

nlohmann::json to_json(const SampleStats& s) {
  return {{"n", s.n},     {"median", s.median}, {"q1", s.q1},   {"q3", s.q3},
          {"iqr", s.iqr}, {"mean", s.mean},     {"min", s.min}, {"max", s.max}};
}

}  // namespace pf::gpu
