// A fixed set of passforge-worker processes serving requests with deadlines.
// Routing: callers wait in one shared queue and each request goes to an idle
// worker the moment one is free (no request waits behind a busy GPU while
// another is idle); among several idle workers it goes to the one with the
// least recent busy time (decayed with a 30 s time constant), so GPUs share
// the load evenly. load() reports each worker's busy time and the queue.
// A worker that misses a deadline, crashes, breaks the protocol or declares
// itself poisoned is killed (SIGKILL to its process group) and replaced before
// the caller gets its classified reply; other callers never see the restart.
//
// Thread-safety: call(), stats(), isolation_report() and size() may be used
// from any number of threads at once. One mutex + condition variable guards
// the slot table (which worker is busy, which cannot start); a busy slot's
// process is used only by the thread that claimed it. The destructor kills the
// workers of calls in flight (those calls return `crashed`), waits for them to
// return and removes the pool's temporary directory.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/ipc/deadline.h"
#include "sandbox/isolation/isolation_report.h"
#include "sandbox/pool/worker_process.h"
#include "sandbox/pool/worker_reply.h"
#include "sandbox/worker/worker_config.h"

namespace pf::sandbox {

struct WorkerPoolOptions {
  //! One GPU worker per entry, started with CUDA_VISIBLE_DEVICES=<entry>.
  //! Empty: `cpu_workers` workers with CUDA_VISIBLE_DEVICES="" (compile-only).
  std::vector<std::string> gpu_devices;
  int cpu_workers = 1;
  //! Empty: $PASSFORGE_WORKER, else passforge-worker beside the running executable.
  std::filesystem::path worker_path;
  std::vector<std::string> worker_args;  // extra worker flags (e.g. --allow-read DIR)
  bool isolation = true;                 // false passes --no-isolation: debugging only
  //! Per-worker scratch directories and output logs. Empty: a fresh private
  //! directory under $TMPDIR, removed with the pool.
  std::filesystem::path work_dir;
  std::filesystem::path cache_dir;     // the NVRTC cache (--cache); empty: none
  std::vector<std::string> extra_env;  // "NAME=value" for the workers
  std::chrono::milliseconds start_timeout{10'000};
  int max_start_attempts = 3;               // consecutive failures before a slot rests
  std::chrono::seconds start_cooldown{30};  // how long a slot that cannot start rests
  int max_restarts_per_minute = 60;         // per slot; beyond it restarts are spaced out
  size_t stderr_tail_bytes = 4096;
  //! Passed to every worker (worker_limit_args). The pool itself enforces
  //! limits.memory_mb on every worker while it handles a request: its
  //! resident anonymous memory is sampled every `memory_poll` and a worker
  //! over the limit is killed (the only memory bound of a GPU worker, whose
  //! CUDA driver rules out RLIMIT_DATA).
  //! With limits.memory_mb set, each worker also runs in its own cgroup v2
  //! child with memory.max = limits.memory_mb where the hierarchy is
  //! delegated to this process (worker_cgroup_setup()); an OOM kill there
  //! is a resource_limit reply. Otherwise RLIMIT_DATA (compile-only
  //! workers) and the RssAnon watch are the only memory bounds.
  WorkerLimits limits;
  std::chrono::milliseconds memory_poll{20};
  //! Where the workers' cgroups are created instead of the detected place:
  //! a directory with memory in its cgroup.subtree_control (tests point it
  //! at a fake cgroupfs tree). Empty: worker_cgroup_setup() decides.
  std::filesystem::path cgroup_parent;
};

struct PoolStats {
  uint64_t requests = 0;
  uint64_t ok = 0;
  uint64_t errors = 0;
  uint64_t timeouts = 0;
  uint64_t crashes = 0;
  uint64_t protocol_errors = 0;
  uint64_t resource_limits = 0;
  uint64_t unavailable = 0;
  uint64_t restarts = 0;
  uint64_t start_failures = 0;
  nlohmann::json to_json() const;
};

//! One worker slot's load (one GPU of a GPU pool).
struct SlotLoad {
  std::string device;     // its CUDA_VISIBLE_DEVICES ("" for a CPU worker)
  bool busy = false;      // a request in flight
  uint64_t requests = 0;  // requests it took
  double busy_s = 0;      // time spent on requests since the pool started, the current one included
  nlohmann::json to_json() const;
};

struct PoolLoad {
  double wall_s = 0;     // since the pool started
  uint64_t waiting = 0;  // callers queued for an idle worker now
  uint64_t max_waiting = 0;
  //! Time callers spent queued, summed: over wall_s it is the mean queue depth.
  double queue_wait_s = 0;
  std::vector<SlotLoad> slots;
  nlohmann::json to_json() const;
};

class WorkerPool {
 public:
  //! Starts every worker and completes its hello handshake. Fails with a
  //! message naming the cause when a worker cannot start at all (binary
  //! missing or not executable, start-up crash, protocol mismatch).
  static Result<std::unique_ptr<WorkerPool>> start(WorkerPoolOptions options);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  //! Sends one request to an idle worker and waits for its reply until
  //! `deadline` (waiting for an idle worker counts against it).
  WorkerReply call(const std::string& type, const nlohmann::json& body, Deadline deadline);
  //! Judges a reply (ok or error) while its worker is still reserved for the
  //! caller: a non-empty reason replaces that worker before anyone else gets
  //! it (the caller found the reply to be a worker fault or an infrastructure
  //! failure, e.g. a broken NVRTC); "" keeps it. Called for every answered
  //! reply, also one whose worker the pool already replaced (poisoned).
  using RetireCheck = std::function<std::string(const WorkerReply&)>;
  WorkerReply call(const std::string& type, const nlohmann::json& body, Deadline deadline,
                   const RetireCheck& retire_if);
  WorkerReply call(const std::string& type, const nlohmann::json& body,
                   std::chrono::milliseconds timeout) {
    return call(type, body, deadline_in(timeout));
  }

  PoolStats stats() const;
  PoolLoad load() const;
  //! What the first worker reported applying at its last start.
  IsolationReport isolation_report() const;
  size_t size() const { return slots_.size(); }
  //! How each worker's memory is capped, and why (cgroup or fallback); ""
  //! without a memory limit.
  const std::string& memory_cap() const { return memory_cap_; }
  const std::filesystem::path& worker_path() const { return worker_path_; }

  //! The worker binary `options` designates, checked to be executable.
  static Result<std::filesystem::path> resolve_worker_path(const WorkerPoolOptions& options);

 private:
  struct Slot;
  WorkerPool() = default;
  //! The idle, usable slot with the least recent busy time, or null. Holds mu_.
  Slot* pick_idle_slot(Clock::time_point now) const;

  WorkerReply exchange(Slot& slot, const std::string& type, const nlohmann::json& body,
                       Deadline deadline);
  WorkerReply fail(Slot& slot, WorkerReply reply, ReplyStatus status, Error error);
  //! The reply frame, or: a timeout at `deadline`, an error when the worker
  //! ended, a resource_limit Error (code unavailable) when it outgrew
  //! limits.memory_mb (`over_memory` set).
  Result<nlohmann::json> await_reply(WorkerProcess& proc, Deadline deadline, bool& over_memory);
  Status start_slot(Slot& slot);
  Status spawn_and_hello(Slot& slot);
  Status replace(Slot& slot, const std::string& reason);
  std::vector<std::string> worker_environment(const Slot& slot) const;

  WorkerPoolOptions options_;
  std::filesystem::path worker_path_;
  bool owns_work_dir_ = false;
  std::filesystem::path cgroup_parent_;  // empty: workers get no cgroup
  std::string memory_cap_;
  std::vector<std::unique_ptr<Slot>> slots_;

  mutable std::mutex mu_;
  std::condition_variable idle_cv_;
  bool closing_ = false;          // guarded by mu_
  PoolStats stats_;               // guarded by mu_
  uint64_t waiting_ = 0;          // guarded by mu_
  uint64_t max_waiting_ = 0;      // guarded by mu_
  Clock::duration queue_wait_{};  // guarded by mu_
  const Clock::time_point started_ = Clock::now();
  IsolationReport report_;         // guarded by mu_
  bool isolation_logged_ = false;  // guarded by mu_
};

}  // namespace pf::sandbox
