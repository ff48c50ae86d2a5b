#include "agent/scheduler/progress.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace pf::agent {

std::string format_duration(double seconds) {
  if (seconds < 0) seconds = 0;
  auto s = static_cast<int64_t>(seconds + 0.5);
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(s));
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(s / 3600),
                  static_cast<long long>((s % 3600) / 60));
  }
  return buf;
}

ProgressTracker::ProgressTracker(size_t total, size_t already_done, traj::EvalMode mode)
    : total_(total), mode_(mode), done_(already_done) {}

void ProgressTracker::episode_started() {
  std::lock_guard lock(mu_);
  ++running_;
}

void ProgressTracker::episode_finished(const EpisodeResult& r) {
  std::lock_guard lock(mu_);
  if (running_ > 0) --running_;
  const std::string who = r.task_id + " s" + std::to_string(r.sample);
  const std::string turns = std::to_string(r.turns) + (r.turns == 1 ? " turn" : " turns");
  if (r.exit_reason == ExitReason::interrupted) {  // not done: it resumes later
    events_.push_back(who + ": interrupted after " + turns + " (resumable)");
    return;
  }
  ++done_;
  ++done_here_;
  tokens_ += r.prompt_tokens + r.completion_tokens;
  const bool full = mode_ == traj::EvalMode::full;
  auto score = full ? r.best_as : r.best_compile_share;
  if (score) {
    ++scored_;
    score_sum_ += *score;
  }
  if (r.correct) ++correct_;
  char buf[96] = "no evaluation";
  if (score) {
    std::snprintf(buf, sizeof buf, "%s %.3f%s", full ? "best AS" : "compile share", *score,
                  r.correct ? (full ? " (correct)" : " (passed)") : "");
  }
  std::string event = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + who +
                      ": " + std::string(to_string(r.exit_reason)) + " after " + turns + ", " + buf;
  if (!r.detail.empty()) event += " (" + r.detail.substr(0, 200) + ")";
  events_.push_back(std::move(event));
}

std::vector<std::string> ProgressTracker::take_events() {
  std::lock_guard lock(mu_);
  return std::exchange(events_, {});
}

size_t ProgressTracker::done() const {
  std::lock_guard lock(mu_);
  return done_;
}

std::string ProgressTracker::line() const {
  std::lock_guard lock(mu_);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[256];
  std::string out = std::to_string(done_) + "/" + std::to_string(total_) + " done, " +
                    std::to_string(running_) + " running";
  if (scored_ > 0) {
    std::snprintf(buf, sizeof buf, ", mean best %s %.3f",
                  mode_ == traj::EvalMode::full ? "AS" : "compile share",
                  score_sum_ / static_cast<double>(scored_));
    out += buf;
  }
  if (done_here_ > 0) {
    std::snprintf(buf, sizeof buf, ", %s %.0f%%",
                  mode_ == traj::EvalMode::full ? "correct" : "passed",
                  100.0 * static_cast<double>(correct_) / static_cast<double>(done_here_));
    out += buf;
  }
  if (elapsed > 0) {
    double rate = static_cast<double>(tokens_) / elapsed;
    if (rate >= 1000) {
      std::snprintf(buf, sizeof buf, ", %.1fk tok/s", rate / 1000);
    } else {
      std::snprintf(buf, sizeof buf, ", %.0f tok/s", rate);
    }
    out += buf;
  }
  if (done_here_ > 0 && done_ < total_) {
    double per_episode = elapsed / static_cast<double>(done_here_);
    out += ", ETA " + format_duration(per_episode * static_cast<double>(total_ - done_));
  }
  if (load_text_) out += "; " + load_text_();
  return out;
}

ProgressPrinter::ProgressPrinter(ProgressTracker& tracker, bool terminal,
                                 std::chrono::milliseconds interval)
    : tracker_(tracker), terminal_(terminal), interval_(interval) {
  thread_ = std::thread([this] { loop(); });
}

ProgressPrinter::~ProgressPrinter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  print_events();
}

void ProgressPrinter::print_events() {
  for (const auto& event : tracker_.take_events()) {
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K%s\n", event.c_str());
    } else {
      spdlog::info("episode {}", event);
    }
  }
}

void ProgressPrinter::loop() {
  constexpr std::chrono::milliseconds kEventPoll{200};
  auto next_line = std::chrono::steady_clock::now() + interval_;
  std::unique_lock lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, std::min(kEventPoll, interval_), [this] { return stop_; });
    if (stop_) break;
    print_events();
    const bool due = std::chrono::steady_clock::now() >= next_line;
    if (due) next_line = std::chrono::steady_clock::now() + interval_;
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K%s", tracker_.line().c_str());
      std::fflush(stderr);
    } else if (due) {
      spdlog::info("progress: {}", tracker_.line());
    }
  }
}

}  // namespace pf::agent
