// When the timing harness may stop before its maximum trial count
// (docs/evaluation.md "Adaptive trials"). Pure: the harness feeds it the
// samples of each side in trial order.
//
// The median's confidence interval is distribution-free: for n samples the
// interval between the order statistics x_(k) and x_(n+1-k) holds the true
// median with probability 1 - 2 P(Bin(n, 1/2) <= k - 1), whatever the shape of
// the distribution (timing samples are skewed and often bimodal, so an
// interval that assumes normality would be too narrow). k is the largest rank
// whose coverage still reaches the confidence asked for. A side is known well
// enough when that interval's larger half-width, relative to the median, is
// at most the precision asked for and the sample is steady: the medians of
// its first and second half (trial order) both lie inside the interval, so a
// side whose time drifts while it is measured (slow only after a while, fast
// only at first) runs on to the maximum instead of stopping on a snapshot.
//
// Per side rather than on the ratio of medians: when both intervals hold, the
// speedup median(B) / median(A) lies within [lo_B / hi_A, hi_B / lo_A], a
// relative half-width of about the sum of the two sides' (at a joint
// confidence of at least 1 - 2 (1 - confidence)).
#pragma once

#include <cstddef>
#include <vector>

namespace pf::gpu {

struct MedianInterval {
  bool defined = false;  // false: too few samples for the confidence (n <= 5 at 95 %)
  size_t lo_rank = 0;    // 1-based ranks of the order statistics
  size_t hi_rank = 0;
  double lo = 0;
  double hi = 0;
  double coverage = 0;  // exact: 1 - 2 P(Bin(n, 1/2) <= lo_rank - 1)
};

//! The distribution-free interval of the median of `sorted` (ascending) at
//! `confidence` (0 < confidence < 1).
MedianInterval median_interval(const std::vector<double>& sorted, double confidence);

struct MedianPrecision {
  MedianInterval interval;
  double median = 0;
  //! max(median - lo, hi - median) / median; +infinity when the interval is
  //! undefined or the median is not positive.
  double relative_half_width = 0;
  //! The medians of the first and of the second half of the samples (trial
  //! order) both lie in the interval.
  bool steady = false;
  //! Known to `precision` (> 0): the interval is defined, narrow enough and
  //! the sample steady.
  bool within(double precision) const;
};

//! The precision of the median of `samples`, given in trial order.
MedianPrecision median_precision(const std::vector<double>& samples, double confidence);

//! Whether samples measured now agree with samples of the same work measured
//! before (a worker's baseline pool): the median of `fresh` lies in the
//! distribution-free interval of the median of `prior` at `confidence`,
//! widened by `precision` on each side. False when either has too few
//! samples for that interval.
bool agrees_with_prior(const std::vector<double>& prior, const std::vector<double>& fresh,
                       double confidence, double precision);

}  // namespace pf::gpu
