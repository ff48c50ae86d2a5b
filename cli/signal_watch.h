// SIGINT/SIGTERM for the commands that run episodes (run, ab, improve): a
// thread waits for them while every other thread blocks them. The first
// cancels (no new LLM calls; evaluations in flight finish, running episodes
// end interrupted and the command continues with --resume), the second exits
// at once with kExitInterrupted (the store is consistent after every turn).
#pragma once

#include <atomic>
#include <csignal>
#include <string>
#include <thread>

#include "agent/llm/cancel_token.h"

namespace pf::cli {

class SignalWatcher {
 public:
  //! Blocks SIGINT/SIGTERM in the calling thread (and the threads it starts
  //! later) until destruction; `command` names the command in the messages.
  SignalWatcher(llm::CancelToken& cancel, std::string command);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  void loop();
  llm::CancelToken& cancel_;
  std::string command_;
  sigset_t set_{}, previous_{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

//! For the commands that serve until stopped (serve, serve-replay): blocks
//! SIGINT/SIGTERM in the calling thread, and so in the server threads it
//! starts later, until destruction; wait() returns when one arrives.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  void wait() const;

 private:
  sigset_t set_{}, previous_{};
};

}  // namespace pf::cli
