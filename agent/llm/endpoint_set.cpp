#include "agent/llm/endpoint_set.h"

#include <chrono>

#include "common/check.h"

namespace pf::llm {

EndpointSet::EndpointSet(std::vector<std::string> urls, std::shared_ptr<Clock> clock,
                         double cooldown_s)
    : clock_(std::move(clock)), cooldown_s_(cooldown_s) {
  PF_CHECK(!urls.empty());
  for (auto& u : urls) servers_.push_back(Server{std::move(u), 0, {}});
}

bool EndpointSet::healthy_locked(const Server& s, Clock::TimePoint now) const {
  return s.cooling_until <= now;
}

EndpointSet::Pick EndpointSet::acquire(size_t avoid) {
  std::lock_guard lock(mu_);
  const auto now = clock_->now();
  const size_t n = servers_.size();
  size_t best = kNone;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (next_ + k) % n;
    if (i == avoid || !healthy_locked(servers_[i], now)) continue;
    if (best == kNone || servers_[i].in_flight < servers_[best].in_flight) best = i;
  }
  bool healthy = best != kNone;
  if (best == kNone && avoid < n && healthy_locked(servers_[avoid], now)) best = avoid;
  if (best == kNone) {
    // All cooling down: the one that recovers first.
    best = 0;
    for (size_t i = 1; i < n; ++i) {
      if (servers_[i].cooling_until < servers_[best].cooling_until) best = i;
    }
  } else {
    healthy = true;
  }
  next_ = (best + 1) % n;
  ++servers_[best].in_flight;
  return Pick{best, servers_[best].url, healthy};
}

void EndpointSet::release(size_t index, bool server_failed) {
  std::lock_guard lock(mu_);
  PF_CHECK(index < servers_.size());
  Server& s = servers_[index];
  --s.in_flight;
  if (server_failed) {
    s.cooling_until = clock_->now() + std::chrono::duration_cast<Clock::TimePoint::duration>(
                                          Clock::Seconds(cooldown_s_));
  } else {
    s.cooling_until = {};
  }
}

bool EndpointSet::other_healthy(size_t index) {
  std::lock_guard lock(mu_);
  const auto now = clock_->now();
  for (size_t i = 0; i < servers_.size(); ++i) {
    if (i != index && healthy_locked(servers_[i], now)) return true;
  }
  return false;
}

}  // namespace pf::llm
