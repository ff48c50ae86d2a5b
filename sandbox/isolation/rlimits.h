// Resource limits that do not break CUDA: open files, file size, processes
// (threads included), core dumps off, and a CPU-time budget renewed per
// request. Deliberately no RLIMIT_AS: the CUDA driver reserves address ranges
// far larger than physical memory. RLIMIT_DATA only when asked for
// (compile-only workers, ResourceLimits::max_data_bytes).
#pragma once

#include <cstdint>
#include <optional>

#include "common/result.h"
#include "sandbox/isolation/isolation_options.h"
#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

//! Applies `limits`; RLIMIT_NPROC only inside a private user namespace, where
//! it counts the worker's own threads rather than every process of its uid on
//! the machine. Adds the rlimits entry.
void apply_rlimits(const ResourceLimits& limits, bool private_user_namespace,
                   IsolationReport& report);

//! Renews the CPU budget before a request: soft RLIMIT_CPU = CPU used so far
//! + max(min_request_cpu_seconds, 4 x deadline). Exceeding it raises SIGXCPU.
Status renew_cpu_budget(const ResourceLimits& limits, std::optional<int64_t> deadline_ms);

}  // namespace pf::sandbox
