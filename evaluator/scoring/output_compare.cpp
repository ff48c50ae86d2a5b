#include "evaluator/scoring/output_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pf {
namespace {

// Elements converted per chunk: outputs of millions of elements are compared
// through a bounded buffer that stays in cache.
constexpr size_t kChunk = 4096;

// compare_output's running state over the chunks, in element order.
struct Running {
  OutputComparison& r;
  std::array<Tolerance, kNumToleranceLevels> tols;
  int level = kMinToleranceLevel;
  int level_rtol_candidate = kMinToleranceLevel;
  double sum_abs = 0;
  int64_t finite_count = 0;
};

// The first element not close at the dtype's baseline level (t = -5).
void record_first_mismatch(OutputComparison& r, int64_t i, double c, double e) {
  r.first_mismatch = i;
  r.first_mismatch_candidate = c;
  r.first_mismatch_expected = e;
}

// The definition, element by element, for elements [first, first + n). The
// verdict level only ever rises, so each element costs one check in the
// common case: amortised linear in the number of elements. rtol scales by the
// expected value (ours, GraphNet) and, for the PassNet-style level, by the
// candidate's.
void compare_each(Running& s, int64_t first, const double* c, const double* e, size_t n) {
  OutputComparison& r = s.r;
  const Tolerance& baseline = s.tols[level_index(kBaselineToleranceLevel)];
  for (size_t i = 0; i < n; ++i) {
    const double ci = c[i], ei = e[i];
    if (ci == ei) {
      // Equal: close at every level, nothing to add.
      ++s.finite_count;
      continue;
    }
    const int64_t index = first + static_cast<int64_t>(i);
    if (std::isnan(ci) || std::isnan(ei)) {
      ++r.nan_mismatches;
      s.level = kMaxToleranceLevel + 1;
      s.level_rtol_candidate = kMaxToleranceLevel + 1;
      if (r.first_mismatch < 0) record_first_mismatch(r, index, ci, ei);
      continue;
    }
    const double diff = std::fabs(ci - ei);
    const double ae = std::fabs(ei);
    if (std::isfinite(diff)) {
      r.max_abs_diff = std::max(r.max_abs_diff, diff);
      s.sum_abs += diff;
      ++s.finite_count;
      if (ei != 0) r.max_rel_diff = std::max(r.max_rel_diff, diff / ae);
    } else {
      r.max_abs_diff = INFINITY;
    }
    // close() for an element known to be neither NaN nor equal.
    const auto within = [diff](const Tolerance& t, double relative_to) {
      return !t.exact && diff <= t.atol + t.rtol * relative_to;
    };
    while (s.level <= kMaxToleranceLevel && !within(s.tols[level_index(s.level)], ae)) ++s.level;
    const double ac = std::fabs(ci);
    while (s.level_rtol_candidate <= kMaxToleranceLevel &&
           !within(s.tols[level_index(s.level_rtol_candidate)], ac)) {
      ++s.level_rtol_candidate;
    }
    if (r.first_mismatch < 0 && !within(baseline, ae)) record_first_mismatch(r, index, ci, ei);
  }
}

// The bound |c - e| <= atol + rtol * |x| of a level as one comparison: none
// past the last level (nothing left to fail), nothing but equality for exact
// levels.
struct Bound {
  double atol = INFINITY;
  double rtol = 0;
};

Bound bound_at(const Running& s, int level) {
  if (level > kMaxToleranceLevel) return {};
  const Tolerance& t = s.tols[level_index(level)];
  return t.exact ? Bound{-1, 0} : Bound{t.atol, t.rtol};
}

// The common chunk: every element finite and close at the current levels
// (and at the baseline level while no mismatch is recorded). It moves no
// level and records nothing, so only the totals change, and they are
// computed without a branch per element, in the same order as compare_each
// (the same bits). Returns false, changing nothing, for any other chunk:
// compare_each then takes it.
bool compare_close_chunk(Running& s, const double* c, const double* e, size_t n) {
  const Bound by_expected = bound_at(s, s.level);
  const Bound by_candidate = bound_at(s, s.level_rtol_candidate);
  const Bound baseline = s.r.first_mismatch < 0 ? bound_at(s, kBaselineToleranceLevel) : Bound{};
  constexpr double kLargest = std::numeric_limits<double>::max();
  double max_abs = s.r.max_abs_diff, max_rel = s.r.max_rel_diff, sum = s.sum_abs;
  bool close = true;
  for (size_t i = 0; i < n; ++i) {
    const double d = std::fabs(c[i] - e[i]);
    const double ae = std::fabs(e[i]), ac = std::fabs(c[i]);
    // NaN fails every comparison, so it is not finite here either.
    const bool finite = ae <= kLargest && ac <= kLargest && d <= kLargest;
    const bool same = d == 0;
    close &= finite & (same | (d <= by_expected.atol + by_expected.rtol * ae)) &
             (same | (d <= by_candidate.atol + by_candidate.rtol * ac)) &
             (same | (d <= baseline.atol + baseline.rtol * ae));
    max_abs = std::max(max_abs, d);
    sum += d;
    max_rel = std::max(max_rel, ae > 0 ? d / ae : 0.0);
  }
  if (!close) return false;
  s.r.max_abs_diff = max_abs;
  s.r.max_rel_diff = max_rel;
  s.sum_abs = sum;
  s.finite_count += static_cast<int64_t>(n);
  return true;
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
  Running s{r, {}};
  for (int t = kMinToleranceLevel; t <= kMaxToleranceLevel; ++t) {
    s.tols[level_index(t)] = tolerance_for(expected.dtype(), t);
  }
  std::vector<double> c(kChunk), e(kChunk);
  const int64_t n = expected.numel();
  for (int64_t first = 0; first < n; first += static_cast<int64_t>(kChunk)) {
    const size_t len =
        static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(kChunk), n - first));
    candidate.to_doubles(first, len, c.data());
    expected.to_doubles(first, len, e.data());
    if (!compare_close_chunk(s, c.data(), e.data(), len)) {
      compare_each(s, first, c.data(), e.data(), len);
    }
  }
  r.mean_abs_diff = s.finite_count ? s.sum_abs / static_cast<double>(s.finite_count) : 0;
  r.first_passing_level = s.level;
  r.first_passing_level_rtol_candidate = s.level_rtol_candidate;
  return r;
}

}  // namespace pf
