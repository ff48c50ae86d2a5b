#include "agent/llm/endpoint_limiter.h"

#include <algorithm>

namespace pf::llm {
namespace {

// Slot waits wake this often to notice a cancellation.
constexpr auto kCancelPoll = std::chrono::milliseconds(100);

}  // namespace

EndpointLimiter::EndpointLimiter(const LimiterOptions& options, Clock& clock)
    : options_(options), clock_(clock) {
  options_.max_concurrent = std::max(options_.max_concurrent, 1);
  if (options_.requests_per_minute > 0)
    requests_.emplace(options_.requests_per_minute, clock.now());
  if (options_.tokens_per_minute > 0) tokens_.emplace(options_.tokens_per_minute, clock.now());
}

EndpointLimiter::Permit::~Permit() {
  if (owner_ != nullptr) owner_->release();
}

std::optional<EndpointLimiter::Permit> EndpointLimiter::acquire(int64_t estimated_tokens,
                                                                const CancelToken* cancel) {
  double wait = 0;
  {
    std::lock_guard lock(mutex_);
    auto now = clock_.now();
    if (requests_) wait = std::max(wait, requests_->reserve(1, now));
    if (tokens_)
      wait = std::max(wait, tokens_->reserve(static_cast<double>(estimated_tokens), now));
  }
  if (wait > 0 && !clock_.sleep_for(Clock::Seconds(wait), cancel)) {
    std::lock_guard lock(mutex_);
    auto now = clock_.now();
    if (requests_) requests_->adjust(1, now);
    if (tokens_) tokens_->adjust(static_cast<double>(estimated_tokens), now);
    return std::nullopt;
  }
  std::unique_lock lock(mutex_);
  while (in_flight_ >= options_.max_concurrent) {
    if (cancel != nullptr && cancel->cancelled()) return std::nullopt;
    slot_freed_.wait_for(lock, kCancelPoll);
  }
  if (cancel != nullptr && cancel->cancelled()) return std::nullopt;
  ++in_flight_;
  return Permit(this);
}

void EndpointLimiter::settle_tokens(int64_t estimated, int64_t actual) {
  if (!tokens_) return;
  std::lock_guard lock(mutex_);
  tokens_->adjust(static_cast<double>(estimated - actual), clock_.now());
}

int EndpointLimiter::in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_;
}

void EndpointLimiter::release() {
  {
    std::lock_guard lock(mutex_);
    --in_flight_;
  }
  slot_freed_.notify_one();
}

}  // namespace pf::llm
