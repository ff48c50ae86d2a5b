// One passforge-worker child process: spawned with posix_spawn into its own
// process group, the protocol on descriptor 3 (one end of a socketpair),
// stdin from /dev/null, stdout and stderr appended to a log file the pool owns
// (a file, not a pipe, so a flooding worker can never block on a slow reader;
// RLIMIT_FSIZE bounds it), every other descriptor closed.
// Not thread-safe: the pool lets one thread at a time use a WorkerProcess.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/ipc/fd.h"
#include "sandbox/pool/worker_cgroup.h"

namespace pf::sandbox {

struct ExitInfo {
  bool signaled = false;
  int signal = 0;      // when signaled
  int exit_code = -1;  // when exited
  //! "SIGSEGV" for signal 11; empty when the worker exited normally.
  std::string signal_name() const;
  //! "killed by SIGSEGV (Segmentation fault)" / "exited with status 3".
  std::string describe() const;
};

//! A cgroup v2 child of its own for the worker (cgroup_delegation.h).
struct CgroupSpec {
  std::filesystem::path parent;  // memory enabled in its cgroup.subtree_control
  std::string name;
  uint64_t memory_max_bytes = 0;
};

struct SpawnSpec {
  std::filesystem::path executable;
  std::vector<std::string> args;  // after --ipc-fd 3
  std::vector<std::string> env;   // complete environment, "NAME=value"
  std::filesystem::path log_path;
  //! The worker is moved into it right after it starts, before it is sent
  //! anything (so before any untrusted input); removed when it is reaped.
  std::optional<CgroupSpec> cgroup;
};

class WorkerProcess {
 public:
  static Result<std::unique_ptr<WorkerProcess>> spawn(const SpawnSpec& spec);
  //! Kills the process group and reaps the worker, then removes its cgroup.
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }
  //! Its own cgroup, or null (SpawnSpec::cgroup unset).
  const WorkerCgroup* cgroup() const { return cgroup_.get(); }
  int ipc_fd() const { return ipc_.get(); }

  //! The exit status if the worker has ended (never blocks).
  std::optional<ExitInfo> poll_exit();
  //! Waits up to `timeout` for the worker to end by itself.
  std::optional<ExitInfo> wait_exit(std::chrono::milliseconds timeout);
  //! SIGKILL to the whole process group, then reaps; a worker stuck in the
  //! kernel (e.g. a GPU driver call) is left to a background reaper after a
  //! few seconds rather than blocking the caller.
  std::optional<ExitInfo> kill();

  //! The worker's resident anonymous memory (RssAnon), or nullopt once it is
  //! gone. File-backed pages (the CUDA, NVRTC and cuDNN libraries) do not count.
  std::optional<uint64_t> anon_memory_bytes() const;

  //! The last `max_bytes` of the worker's stdout+stderr since truncate_log().
  std::string log_tail(size_t max_bytes) const;
  void truncate_log();

 private:
  WorkerProcess(pid_t pid, Fd ipc, Fd log)
      : pid_(pid), ipc_(std::move(ipc)), log_(std::move(log)) {}

  pid_t pid_;
  Fd ipc_;
  Fd log_;
  std::optional<ExitInfo> exit_;
  std::unique_ptr<WorkerCgroup> cgroup_;  // destroyed after the destructor's kill()
};

}  // namespace pf::sandbox
