// Limits shared by every episode talking to one endpoint: at most
// `max_concurrent` requests in flight, and optional requests-per-minute and
// tokens-per-minute budgets. Thread-safe: one instance per endpoint, used by
// all episode threads at once.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

#include "agent/llm/cancel_token.h"
#include "agent/llm/clock.h"
#include "agent/llm/token_bucket.h"

namespace pf::llm {

struct LimiterOptions {
  int max_concurrent = 64;
  double requests_per_minute = 0;  // 0: unlimited
  double tokens_per_minute = 0;    // 0: unlimited
};

class EndpointLimiter {
 public:
  EndpointLimiter(const LimiterOptions& options, Clock& clock);

  //! A held request slot; released on destruction.
  class Permit {
   public:
    Permit(Permit&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Permit& operator=(Permit&&) = delete;
    Permit(const Permit&) = delete;
    ~Permit();

   private:
    friend class EndpointLimiter;
    explicit Permit(EndpointLimiter* owner) : owner_(owner) {}
    EndpointLimiter* owner_;
  };

  //! Waits for the request and token budgets (tokens: the caller's estimate for
  //! the whole request), then for a free slot. nullopt when `cancel` was set
  //! while waiting (any reservation is given back).
  std::optional<Permit> acquire(int64_t estimated_tokens, const CancelToken* cancel);

  //! Corrects the token budget once the real usage is known (0 for a request
  //! that failed and used nothing).
  void settle_tokens(int64_t estimated, int64_t actual);

  int in_flight() const;

 private:
  void release();

  LimiterOptions options_;
  Clock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable slot_freed_;
  int in_flight_ = 0;
  std::optional<TokenBucket> requests_;
  std::optional<TokenBucket> tokens_;
};

}  // namespace pf::llm
