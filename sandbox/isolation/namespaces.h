// A fresh user namespace (the worker keeps its uid but loses every capability
// on the host, even when started as root) and a fresh network namespace (no
// interfaces but a loopback that is down). Where the kernel or an LSM forbids
// one (Ubuntu 24.04 restricts unprivileged user namespaces through AppArmor),
// the other is still tried and the refusal is reported with its errno.
//
// unshare(CLONE_NEWUSER) needs a single-threaded process: apply before CUDA,
// NVRTC or anything else starts threads.
#pragma once

#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

struct NamespaceOptions {
  bool user = true;
  bool network = true;
};

//! Unshares what `options` asks for; adds user_namespace and network_namespace.
void apply_namespaces(const NamespaceOptions& options, IsolationReport& report);

//! Tries the same in a short-lived child process (safe in multi-threaded
//! callers) and reports what would be applied.
void probe_namespaces(const NamespaceOptions& options, IsolationReport& report);

}  // namespace pf::sandbox
