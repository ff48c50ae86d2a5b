// A token bucket with reservations: a caller takes what it needs at once (the
// level may go negative) and is told how long to wait until its share is
// covered, so waiters are served in arrival order without polling.
#pragma once

#include "agent/llm/clock.h"

namespace pf::llm {

//! Not thread-safe: EndpointLimiter guards it.
class TokenBucket {
 public:
  //! `per_minute` tokens per minute; the bucket holds at most one minute's worth
  //! and starts full.
  TokenBucket(double per_minute, Clock::TimePoint now);

  //! Takes `n` (clamped to the capacity, so no request waits forever) and
  //! returns the seconds until the level is back at zero (0: no wait).
  double reserve(double n, Clock::TimePoint now);

  //! Adjusts the level by `n` (a refund when positive, a charge when negative),
  //! never above the capacity.
  void adjust(double n, Clock::TimePoint now);

  double level(Clock::TimePoint now);
  double capacity() const { return capacity_; }

 private:
  void refill(Clock::TimePoint now);

  double capacity_;
  double rate_per_s_;
  double level_;
  Clock::TimePoint last_;
};

}  // namespace pf::llm
