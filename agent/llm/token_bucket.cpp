#include "agent/llm/token_bucket.h"

#include <algorithm>

namespace pf::llm {

TokenBucket::TokenBucket(double per_minute, Clock::TimePoint now)
    : capacity_(std::max(per_minute, 1.0)),
      rate_per_s_(capacity_ / 60.0),
      level_(capacity_),
      last_(now) {}

void TokenBucket::refill(Clock::TimePoint now) {
  double elapsed = seconds_between(last_, now);
  if (elapsed > 0) {
    level_ = std::min(capacity_, level_ + elapsed * rate_per_s_);
    last_ = now;
  }
}

double TokenBucket::reserve(double n, Clock::TimePoint now) {
  refill(now);
  level_ -= std::clamp(n, 0.0, capacity_);
  return level_ >= 0 ? 0.0 : -level_ / rate_per_s_;
}

void TokenBucket::adjust(double n, Clock::TimePoint now) {
  refill(now);
  level_ = std::min(capacity_, level_ + n);
}

double TokenBucket::level(Clock::TimePoint now) {
  refill(now);
  return level_;
}

}  // namespace pf::llm
