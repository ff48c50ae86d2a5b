// Run progress: counters the episode threads update, and a printer thread
// that shows them: on a terminal one live line rewritten in place (episodes
// done/total, running, mean best score, correct share, tokens/s, ETA),
// otherwise a log line every `interval`.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "agent/loop/episode.h"

namespace pf::agent {

//! Thread-safe.
class ProgressTracker {
 public:
  //! `already_done`: episodes finished by an earlier session (resume).
  ProgressTracker(size_t total, size_t already_done, traj::EvalMode mode);

  void episode_started();
  void episode_finished(const EpisodeResult& result);
  //! "12/40 done, 4 running, mean best AS 0.82, correct 58%, 1.2k tok/s, ETA 3m10s"
  std::string line() const;
  size_t done() const;

 private:
  mutable std::mutex mu_;
  const size_t total_;
  const traj::EvalMode mode_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  size_t done_ = 0, done_here_ = 0, running_ = 0, scored_ = 0, correct_ = 0;
  double score_sum_ = 0;
  int64_t tokens_ = 0;
};

//! Prints `tracker.line()` until destroyed.
class ProgressPrinter {
 public:
  ProgressPrinter(const ProgressTracker& tracker, bool terminal,
                  std::chrono::milliseconds interval);
  ~ProgressPrinter();
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;

 private:
  void loop();
  const ProgressTracker& tracker_;
  const bool terminal_;
  const std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

//! "3m10s", "45s", "2h05m".
std::string format_duration(double seconds);

}  // namespace pf::agent
