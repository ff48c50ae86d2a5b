// The worker side of the protocol (sandbox/ipc/protocol.h): isolate, then
// answer requests one at a time until the orchestrator says shutdown or closes
// the connection. Built-in request types: hello, ping, probe_isolation,
// shutdown; everything else goes to the HandlerTable.
#pragma once

#include <string>

#include "sandbox/ipc/deadline.h"
#include "sandbox/worker/handler_table.h"
#include "sandbox/worker/worker_config.h"

namespace pf::sandbox {

// Exit statuses of a worker process (the pool reports them).
inline constexpr int kWorkerExitOk = 0;
inline constexpr int kWorkerExitProtocol = 2;  // the connection broke or carried garbage
inline constexpr int kWorkerExitPoisoned = 3;  // declared poisoned; exited after replying
// 4: kWorkerExitResourceLimit (resource_limit.h): a request hit a worker limit.
inline constexpr int kWorkerExitUsage = 64;

//! Applies config.isolation to this process BEFORE reading anything from the
//! IPC descriptor, then serves requests. Returns the process exit status.
//! Call from main() while the process is still single-threaded.
int run_worker(const WorkerConfig& config, const HandlerTable& handlers);

//! Called by a handler whose process state can no longer be trusted (sticky
//! CUDA error, corrupted heap suspicion): the current reply is still sent,
//! marked poisoned, then the worker exits so the pool replaces it. Thread-safe.
void declare_poisoned(const std::string& reason);

//! The deadline the orchestrator gave the request being handled (no_deadline()
//! when none), for handlers that bound their own work (e.g. NVRTC compiles).
Deadline current_request_deadline();

}  // namespace pf::sandbox
