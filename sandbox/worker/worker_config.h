// Command-line configuration of a worker process (passforge-worker and the
// test workers share it): which descriptor carries the protocol and what
// isolation to apply.
#pragma once

#include <string>

#include "common/result.h"
#include "sandbox/isolation/isolation_options.h"

namespace pf::sandbox {

inline constexpr int kDefaultIpcFd = 3;

struct WorkerConfig {
  int ipc_fd = kDefaultIpcFd;
  IsolationOptions isolation;
};

//! Parses: --ipc-fd N, --scratch DIR, --cache DIR, --allow-read PATH,
//! --allow-write PATH (repeatable), --no-isolation, and for diagnosis
//! --no-user-namespace, --no-network-namespace, --no-landlock, --no-seccomp,
//! --no-rlimits, --allow-new-privs. Errors name the argument.
Result<WorkerConfig> parse_worker_args(int argc, const char* const* argv);

std::string worker_usage(const std::string& program);

}  // namespace pf::sandbox
