// Run progress: counters the episode threads update, and a printer thread
// that shows them: on a terminal one live line rewritten in place (episodes
// done/total, running, mean best score, correct share, tokens/s, ETA),
// otherwise a log line every `interval`. Each finished or interrupted
// episode also gets one line of its own (printed above the live line, or
// logged) as soon as the printer sees it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "agent/loop/episode.h"

namespace pf::agent {

//! Thread-safe.
class ProgressTracker {
 public:
  //! `already_done`: episodes finished by an earlier session (resume).
  ProgressTracker(size_t total, size_t already_done, traj::EvalMode mode);

  void episode_started();
  void episode_finished(const EpisodeResult& result);
  //! "12/40 done, 4 running, mean best AS 0.82, correct 58%, 1.2k tok/s, ETA 3m10s",
  //! then the load text (per-GPU utilisation, gpu_load.h) when one is set.
  std::string line() const;
  //! Set before the printer starts; called by line().
  void set_load_text(std::function<std::string()> load_text) { load_text_ = std::move(load_text); }
  size_t done() const;
  //! The episode lines since the last call, oldest first:
  //! "[3/10] relu-add-1a2b3c s0: submitted after 7 turns, compile share 1.000 (passed)".
  std::vector<std::string> take_events();

 private:
  mutable std::mutex mu_;
  const size_t total_;
  const traj::EvalMode mode_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  size_t done_ = 0, done_here_ = 0, running_ = 0, scored_ = 0, correct_ = 0;
  double score_sum_ = 0;
  int64_t tokens_ = 0;
  std::vector<std::string> events_;
  std::function<std::string()> load_text_;
};

//! Prints `tracker.line()` every `interval` and the tracker's episode lines
//! within about 200 ms, until destroyed (which prints the last episode lines).
class ProgressPrinter {
 public:
  ProgressPrinter(ProgressTracker& tracker, bool terminal, std::chrono::milliseconds interval);
  ~ProgressPrinter();
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;

 private:
  void loop();
  void print_events();
  ProgressTracker& tracker_;
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
