// Summary statistics of timing samples (docs/design.md "Evaluation protocol" 5):
// medians and interquartile ranges, and the stability rule. Pure.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace pf::gpu {

struct SampleStats {
  size_t n = 0;
  double median = 0;
  double q1 = 0;  // 25th percentile (linear interpolation, numpy's default)
  double q3 = 0;  // 75th percentile
  double iqr = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  //! iqr / median; 0 when the median is 0.
  double iqr_ratio() const { return median > 0 ? iqr / median : 0; }
};

//! Statistics of `samples` (any order; empty gives all zeros).
SampleStats summarize(std::vector<double> samples);

//! The q-quantile (0..1) of sorted samples, linearly interpolated.
double quantile_sorted(const std::vector<double>& sorted, double q);

//! True when the spread is too large to trust the median: iqr / median > max_ratio.
bool is_unstable(const SampleStats& s, double max_ratio);

nlohmann::json to_json(const SampleStats& s);

}  // namespace pf::gpu
