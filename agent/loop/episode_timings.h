// Where an episode's time goes, for the orchestrator-overhead benchmark
// (docs/design.md "Performance targets": <= 2 ms per turn outside LLM waits and
// evaluations).
#pragma once

#include <chrono>
#include <cstdint>

namespace pf::agent {

struct EpisodeTimings {
  int64_t turns = 0;
  double total_s = 0;  // the whole episode on this process
  double llm_s = 0;    // inside LlmClient::chat (network, generation, retries)
  double eval_s = 0;   // waiting for the worker pool
  double store_s = 0;  // trajectory store writes (SQLite commits)

  //! The agent loop's own time: building requests, parsing answers, tools,
  //! feedback rendering. Store commits are reported separately.
  double loop_s() const { return total_s - llm_s - eval_s - store_s; }

  EpisodeTimings& operator+=(const EpisodeTimings& o) {
    turns += o.turns;
    total_s += o.total_s;
    llm_s += o.llm_s;
    eval_s += o.eval_s;
    store_s += o.store_s;
    return *this;
  }
};

//! Adds the time between construction and destruction to `*sink`.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* sink) : sink_(sink), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    *sink_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* sink_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pf::agent
