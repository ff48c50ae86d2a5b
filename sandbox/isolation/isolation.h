// The worker's self-isolation, applied in one call before it reads any
// untrusted input: namespaces, resource limits, no_new_privs, Landlock, then
// seccomp (last, because it denies the calls the others need). Each mechanism
// is reported separately; a missing one degrades with a reason, never
// silently. probe_isolation() answers "what would a worker get here" without
// restricting the caller (for `passforge doctor`).
#pragma once

#include "sandbox/isolation/isolation_options.h"
#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

//! Restricts the calling process for the rest of its life. Must run while the
//! process is single-threaded (user namespaces and Landlock require it).
IsolationReport apply_isolation(const IsolationOptions& options);

//! Reports availability (state `available`) without applying anything.
IsolationReport probe_isolation(const IsolationOptions& options);

//! Threads in this process (from /proc/self/status), 0 if unknown.
int thread_count();

}  // namespace pf::sandbox
