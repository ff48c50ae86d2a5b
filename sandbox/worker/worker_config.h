// Command-line configuration of a worker process (passforge-worker and the
// test workers share it): which descriptor carries the protocol and what
// isolation to apply.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/isolation/isolation_options.h"

namespace pf::sandbox {

inline constexpr int kDefaultIpcFd = 3;

//! Limits on what one request may cost the worker, set by the orchestrator
//! (the [evaluator] configuration) and passed on the command line. Hitting
//! one ends the request as `resource_limit`, naming the limit and its value;
//! 0 means no limit.
struct WorkerLimits {
  //! Anonymous memory of one worker. CPU workers also get it as RLIMIT_DATA;
  //! GPU workers do not (the CUDA driver's private mappings would count) and
  //! are watched by the pool instead (WorkerPool).
  uint64_t memory_mb = 0;
  //! One NVRTC compilation; a watchdog ends the worker when it runs longer
  //! (NVRTC cannot be interrupted safely).
  uint64_t compile_timeout_ms = 0;
  //! Growth of the worker's anonymous memory during one NVRTC compilation.
  //! Honest kernels grow it by tens of MiB; an initialised 128 MiB
  //! __device__ array by 1.8 GiB over 20 s, so this ends it in seconds,
  //! long before the compile deadline or the worker's memory limit would.
  uint64_t compile_memory_mb = 0;
  //! Largest cubin a compile may produce (an initialised __device__ array of
  //! 128 MiB compiles into a 128 MiB cubin).
  uint64_t max_cubin_mb = 0;
  //! Size bound of the NVRTC cache (least recently used entries go first).
  uint64_t cache_max_mb = 0;
};

//! The command-line flags that give a worker `limits`; `gpu_worker` leaves
//! out the memory limit's RLIMIT_DATA (the pool watches GPU workers).
std::vector<std::string> worker_limit_args(const WorkerLimits& limits, bool gpu_worker);

struct WorkerConfig {
  int ipc_fd = kDefaultIpcFd;
  IsolationOptions isolation;
  WorkerLimits limits;
};

//! Parses: --ipc-fd N, --scratch DIR, --cache DIR, --allow-read PATH,
//! --allow-write PATH (repeatable), --no-isolation, and for diagnosis
//! --no-user-namespace, --no-network-namespace, --no-landlock, --no-seccomp,
//! --no-rlimits, --allow-new-privs, and the limits --memory-limit-mb N
//! (also RLIMIT_DATA), --memory-watch-mb N (named in messages only),
//! --compile-timeout-ms N, --max-cubin-mb N, --cache-max-mb N. Errors name
//! the argument.
Result<WorkerConfig> parse_worker_args(int argc, const char* const* argv);

std::string worker_usage(const std::string& program);

}  // namespace pf::sandbox
