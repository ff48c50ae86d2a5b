// SIGINT/SIGTERM for the experiment commands (ab, improve), as `passforge
// run` handles them: the first cancels (no new LLM calls; running episodes
// end interrupted and the experiment resumes with --resume), the second
// exits at once (the store is consistent after every turn).
#pragma once

#include <atomic>
#include <csignal>
#include <string>
#include <thread>

#include "agent/llm/cancel_token.h"

namespace pf::cli {

class ExperimentSignals {
 public:
  ExperimentSignals(llm::CancelToken& cancel, std::string command);
  ~ExperimentSignals();
  ExperimentSignals(const ExperimentSignals&) = delete;
  ExperimentSignals& operator=(const ExperimentSignals&) = delete;

 private:
  void loop();
  llm::CancelToken& cancel_;
  std::string command_;
  sigset_t set_{}, previous_{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace pf::cli
