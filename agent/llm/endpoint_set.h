// The servers behind one endpoint (`endpoint.base_urls`: several vLLM or
// SGLang replicas serving the same model): each attempt of a call goes to the
// server with the fewest requests in flight (round robin among equals), and
// a server whose attempt failed the way a dead or overloaded server fails
// (connection refused or lost, timeout, 5xx, 429) is left out for a cool-down
// while another is healthy, so a retry fails over at once instead of waiting
// out a backoff against the same server.
//
// Thread-safe: all episodes share one set.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/llm/clock.h"

namespace pf::llm {

class EndpointSet {
 public:
  //! `urls` non-empty, without trailing slashes.
  EndpointSet(std::vector<std::string> urls, std::shared_ptr<Clock> clock, double cooldown_s = 30);

  struct Pick {
    size_t index = 0;
    std::string url;
    bool healthy = true;  // false: every server is cooling down, this one recovers first
  };
  //! The server for the next attempt; `avoid` (the one that just failed) is
  //! taken only when no other server is healthy.
  Pick acquire(size_t avoid = kNone);
  //! Ends an attempt begun by acquire(); `server_failed` starts the cool-down.
  void release(size_t index, bool server_failed);

  size_t size() const { return servers_.size(); }
  const std::string& url(size_t index) const { return servers_[index].url; }
  //! Whether a server other than `index` is healthy now.
  bool other_healthy(size_t index);

  static constexpr size_t kNone = static_cast<size_t>(-1);

 private:
  struct Server {
    std::string url;
    int in_flight = 0;
    Clock::TimePoint cooling_until{};
  };
  bool healthy_locked(const Server& s, Clock::TimePoint now) const;

  std::shared_ptr<Clock> clock_;
  double cooldown_s_;
  std::mutex mu_;
  std::vector<Server> servers_;
  size_t next_ = 0;  // round-robin start among equally loaded servers
};

}  // namespace pf::llm
