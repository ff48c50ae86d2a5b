#include "evaluator/scoring/output_compare.h"

#include <cmath>

namespace pf {
namespace {

// `relative_to` is the operand rtol scales: e (ours, GraphNet) or c (PassNet).
bool close(double c, double e, const Tolerance& tol, double relative_to) {
  if (std::isnan(c) || std::isnan(e)) return false;
  if (c == e) return true;
  if (tol.exact) return false;
  return std::fabs(c - e) <= tol.atol + tol.rtol * std::fabs(relative_to);
}

bool close(double c, double e, const Tolerance& tol) {
  return close(c, e, tol, e);
}

// Raises `level` until the element is close there (kMaxToleranceLevel + 1: nowhere).
void raise_level(int& level, double c, double e, double relative_to,
                 const std::array<Tolerance, kNumToleranceLevels>& tols) {
  while (level <= kMaxToleranceLevel && !close(c, e, tols[level_index(level)], relative_to)) {
    ++level;
  }
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
  // common case: amortised linear in the number of elements.
  int level = kMinToleranceLevel;
  int level_rtol_candidate = kMinToleranceLevel;
  double sum_abs = 0;
  int64_t finite_count = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    double ci = c[i], ei = e[i];
    if (std::isnan(ci) || std::isnan(ei)) {
      ++r.nan_mismatches;
      level = kMaxToleranceLevel + 1;
      level_rtol_candidate = kMaxToleranceLevel + 1;
    } else {
      double diff = ci == ei ? 0.0 : std::fabs(ci - ei);
      if (std::isfinite(diff)) {
        r.max_abs_diff = std::max(r.max_abs_diff, diff);
        sum_abs += diff;
        ++finite_count;
        if (ei != 0) r.max_rel_diff = std::max(r.max_rel_diff, diff / std::fabs(ei));
      } else {
        r.max_abs_diff = INFINITY;
      }
      raise_level(level, ci, ei, ei, tols);
      raise_level(level_rtol_candidate, ci, ei, ci, tols);
    }
    if (r.first_mismatch < 0 && !close(ci, ei, baseline)) {
      r.first_mismatch = static_cast<int64_t>(i);
      r.first_mismatch_candidate = ci;
      r.first_mismatch_expected = ei;
    }
  }
  r.mean_abs_diff = finite_count ? sum_abs / static_cast<double>(finite_count) : 0;
  r.first_passing_level = level;
  r.first_passing_level_rtol_candidate = level_rtol_candidate;
  return r;
}

}  // namespace pf
