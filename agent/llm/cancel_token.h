// A one-shot stop signal shared by many threads: SIGINT handling sets it, and
// every wait in the LLM client (backoff sleeps, rate-limit waits, transfers)
// ends early when it is set. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace pf::llm {

class CancelToken {
 public:
  //! Sets the token and wakes every waiter; idempotent.
  void cancel();
  bool cancelled() const;

  //! Sleeps up to `duration`; returns true when the token was (or got) set.
  bool wait_for(std::chrono::duration<double> duration) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  bool cancelled_ = false;
};

}  // namespace pf::llm
