// Absolute deadlines on the monotonic clock, shared by the IPC framing, the
// worker pool and the worker's request handling.
#pragma once

#include <chrono>

namespace pf::sandbox {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

//! A deadline that never passes (e.g. the worker waiting for its next request).
inline Deadline no_deadline() {
  return Deadline::max();
}

inline Deadline deadline_in(std::chrono::milliseconds timeout) {
  auto now = Clock::now();
  if (timeout >= std::chrono::duration_cast<std::chrono::milliseconds>(Deadline::max() - now)) {
    return Deadline::max();
  }
  return now + timeout;
}

//! Milliseconds left until `deadline` (0 when passed, -1 for no deadline), as
//! poll(2) wants them.
inline int poll_timeout_ms(Deadline deadline) {
  if (deadline == Deadline::max()) return -1;
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(left);
}

}  // namespace pf::sandbox
