// Per-GPU utilisation for a run's progress lines: each GPU worker's busy
// share of wall time over a sliding window (about the last 30 s, so a line
// shows the present, not the run's average) and the queue of evaluation
// requests waiting for a GPU. The GPU workers share one queue (a request goes
// to whichever GPU frees first: sandbox/pool/worker_pool.h), so the queue
// depth is one number; per GPU, "busy" is its in-flight request.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "sandbox/pool/worker_pool.h"

namespace pf::agent {

//! "GPU 0 92% busy, GPU 1 88% busy, 3 queued" over [since, now]; `since`
//! may be null (since the pool started).
std::string gpu_load_text(const sandbox::PoolLoad& now, const sandbox::PoolLoad* since);

//! Thread-safe.
class GpuLoadWindow {
 public:
  explicit GpuLoadWindow(std::function<sandbox::PoolLoad()> source,
                         std::chrono::milliseconds window = std::chrono::seconds(30));
  //! Samples the source and describes the window ending now.
  std::string text();

 private:
  std::function<sandbox::PoolLoad()> source_;
  const std::chrono::milliseconds window_;
  std::mutex mu_;
  std::deque<std::pair<std::chrono::steady_clock::time_point, sandbox::PoolLoad>> samples_;
};

}  // namespace pf::agent
