// Time source of the LLM client. Production uses SystemClock; tests inject a
// clock whose sleeps return at once, so backoff and Retry-After handling can be
// checked without waiting (a seam, not a stand-in for a required part).
#pragma once

#include <chrono>

#include "agent/llm/cancel_token.h"

namespace pf::llm {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Seconds = std::chrono::duration<double>;

  virtual ~Clock() = default;
  virtual TimePoint now() = 0;
  //! Wall-clock time, for HTTP-date Retry-After values.
  virtual std::chrono::system_clock::time_point wall_now() = 0;
  //! Sleeps `duration`; returns false when `cancel` was set (before or during).
  virtual bool sleep_for(Seconds duration, const CancelToken* cancel) = 0;
};

//! The real clocks; thread-safe (stateless).
class SystemClock final : public Clock {
 public:
  TimePoint now() override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point wall_now() override {
    return std::chrono::system_clock::now();
  }
  bool sleep_for(Seconds duration, const CancelToken* cancel) override;
};

//! Seconds between two time points of the same clock.
inline double seconds_between(Clock::TimePoint from, Clock::TimePoint to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace pf::llm
