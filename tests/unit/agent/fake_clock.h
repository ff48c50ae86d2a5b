// A Clock for tests: sleeps return at once and advance virtual time, and are
// recorded, so backoff and Retry-After decisions can be checked exactly.
#pragma once

#include <mutex>
#include <vector>

#include "agent/llm/clock.h"

namespace pf::llm::testing {

class FakeClock final : public Clock {
 public:
  TimePoint now() override {
    std::lock_guard lock(mutex_);
    return steady_base_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(offset_);
  }
  std::chrono::system_clock::time_point wall_now() override {
    std::lock_guard lock(mutex_);
    return wall_base_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(offset_);
  }
  bool sleep_for(Seconds duration, const CancelToken* cancel) override {
    if (cancel != nullptr && cancel->cancelled()) return false;
    std::lock_guard lock(mutex_);
    sleeps_.push_back(duration.count());
    if (duration.count() > 0) offset_ += duration;
    return true;
  }
  void advance(double seconds) {
    std::lock_guard lock(mutex_);
    offset_ += Seconds(seconds);
  }
  std::vector<double> sleeps() const {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }

 private:
  mutable std::mutex mutex_;
  TimePoint steady_base_ = std::chrono::steady_clock::now();
  std::chrono::system_clock::time_point wall_base_ = std::chrono::system_clock::now();
  Seconds offset_{0};
  std::vector<double> sleeps_;
};

}  // namespace pf::llm::testing
