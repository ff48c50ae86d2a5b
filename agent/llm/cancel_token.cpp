#include "agent/llm/cancel_token.h"

namespace pf::llm {

void CancelToken::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  cv_.notify_all();
}

bool CancelToken::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

bool CancelToken::wait_for(std::chrono::duration<double> duration) const {
  std::unique_lock lock(mutex_);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(duration);
  return cv_.wait_until(lock, deadline, [this] { return cancelled_; });
}

}  // namespace pf::llm
