#include "cli/signal_watch.h"

#include <pthread.h>
#include <unistd.h>

#include "cli/exit_codes.h"
#include "sandbox/pool/work_dir.h"

namespace pf::cli {

SignalWatcher::SignalWatcher(llm::CancelToken& cancel, std::string command)
    : cancel_(cancel), command_(std::move(command)) {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGUSR2);  // internal: wake up and leave
  pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  thread_ = std::thread([this] { loop(); });
}

SignalWatcher::~SignalWatcher() {
  done_ = true;
  pthread_kill(thread_.native_handle(), SIGUSR2);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void SignalWatcher::loop() {
  int signals = 0;
  // Built before any signal arrives: the handler thread only writes.
  const std::string first = "\npassforge " + command_ +
                            ": stopping: no new LLM calls; evaluations in flight finish, "
                            "running episodes are marked interrupted (continue with --resume). "
                            "Press Ctrl-C again to quit at once.\n";
  const std::string second = "\npassforge " + command_ +
                             ": quitting now; the store is consistent up to the last committed "
                             "turn (continue with --resume)\n";
  while (true) {
    int sig = 0;
    if (sigwait(&set_, &sig) != 0) continue;
    if (done_) return;
    if (sig == SIGUSR2) continue;
    if (++signals == 1) {
      (void)!write(2, first.data(), first.size());
      cancel_.cancel();
    } else {
      (void)!write(2, second.data(), second.size());
      // _exit skips the pools' destructors: their worker folders go here.
      sandbox::remove_owned_work_dirs();
      _exit(kExitInterrupted);
    }
  }
}

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set_, &previous_);
}

StopSignals::~StopSignals() {
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void StopSignals::wait() const {
  int signal = 0;
  sigwait(&set_, &signal);
}

}  // namespace pf::cli
