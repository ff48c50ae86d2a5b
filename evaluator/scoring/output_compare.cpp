#include "evaluator/scoring/output_compare.h"

#include <cmath>

namespace pf {
namespace {

// The first element not close at the dtype's baseline level (t = -5).
void record_first_mismatch(OutputComparison& r, size_t i, double c, double e) {
  r.first_mismatch = static_cast<int64_t>(i);
  r.first_mismatch_candidate = c;
  r.first_mismatch_expected = e;
}

}  // namespace

std::string format_index(int64_t flat, const Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t d = shape[i] > 0 ? shape[i] : 1;
    idx[i] = flat % d;
    flat /= d;
  }
  return shape_str(idx);
}

OutputComparison compare_output(const Tensor& candidate, const Tensor& expected) {
  OutputComparison r;
  r.shape_ok = candidate.shape() == expected.shape();
  r.dtype_ok = candidate.dtype() == expected.dtype();
  if (!r.shape_ok || !r.dtype_ok) {
    r.first_passing_level = kMaxToleranceLevel + 1;
    r.first_passing_level_rtol_candidate = kMaxToleranceLevel + 1;
    return r;
  }
  const DType dtype = expected.dtype();
  std::array<Tolerance, kNumToleranceLevels> tols;
  for (int t = kMinToleranceLevel; t <= kMaxToleranceLevel; ++t) {
    tols[level_index(t)] = tolerance_for(dtype, t);
  }
  const Tolerance& baseline = tols[level_index(kBaselineToleranceLevel)];
  std::vector<double> c = candidate.to_doubles();
  std::vector<double> e = expected.to_doubles();
  // The verdict level only ever rises, so each element costs one check in the
  // common case: amortised linear in the number of elements. rtol scales by
  // the expected value (ours, GraphNet) and, for the PassNet-style level, by
  // the candidate's.
  int level = kMinToleranceLevel;
  int level_rtol_candidate = kMinToleranceLevel;
  double sum_abs = 0;
  int64_t finite_count = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    double ci = c[i], ei = e[i];
    if (ci == ei) {
      // Equal (the common case): close at every level, nothing to add.
      ++finite_count;
      continue;
    }
    if (std::isnan(ci) || std::isnan(ei)) {
      ++r.nan_mismatches;
      level = kMaxToleranceLevel + 1;
      level_rtol_candidate = kMaxToleranceLevel + 1;
      if (r.first_mismatch < 0) record_first_mismatch(r, i, ci, ei);
      continue;
    }
    const double diff = std::fabs(ci - ei);
    const double ae = std::fabs(ei);
    if (std::isfinite(diff)) {
      r.max_abs_diff = std::max(r.max_abs_diff, diff);
      sum_abs += diff;
      ++finite_count;
      if (ei != 0) r.max_rel_diff = std::max(r.max_rel_diff, diff / ae);
    } else {
      r.max_abs_diff = INFINITY;
    }
    // close() for an element known to be neither NaN nor equal.
    const auto within = [diff](const Tolerance& t, double relative_to) {
      return !t.exact && diff <= t.atol + t.rtol * relative_to;
    };
    while (level <= kMaxToleranceLevel && !within(tols[level_index(level)], ae)) ++level;
    const double ac = std::fabs(ci);
    while (level_rtol_candidate <= kMaxToleranceLevel &&
           !within(tols[level_index(level_rtol_candidate)], ac)) {
      ++level_rtol_candidate;
    }
    if (r.first_mismatch < 0 && !within(baseline, ae)) record_first_mismatch(r, i, ci, ei);
  }
  r.mean_abs_diff = finite_count ? sum_abs / static_cast<double>(finite_count) : 0;
  r.first_passing_level = level;
  r.first_passing_level_rtol_candidate = level_rtol_candidate;
  return r;
}

}  // namespace pf
