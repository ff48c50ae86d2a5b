// Whether this process may give each worker its own cgroup v2 memory limit,
// and the one-time set-up that makes it possible. Usable when:
// /proc/self/cgroup names our cgroup v2 path, a cgroup2 mount holds it, the
// directory is writable (the hierarchy is delegated to us), `memory` is in
// its cgroup.controllers, and memory can be enabled for children: already in
// cgroup.subtree_control, or we are the cgroup's only process, so we can move
// into a leaf of our own first (cgroup v2's "no internal processes" rule:
// a cgroup with processes cannot enable controllers for its children).
// Otherwise workers keep the RLIMIT_DATA / RssAnon-watch fallback and the
// reason says why.
//
// The inputs (the text of /proc/self/cgroup and /proc/self/mountinfo, our
// pid) are injectable so the decision can be tested on fake cgroupfs trees.
// Thread-safe: worker_cgroup_setup() runs the set-up once per process.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include "common/result.h"

namespace pf::sandbox {

struct CgroupSources {
  std::string proc_self_cgroup;  // text of /proc/self/cgroup
  std::string mountinfo;         // text of /proc/self/mountinfo
  pid_t pid = 0;                 // this process
  //! The real files of this process.
  static CgroupSources of_this_process();
};

struct CgroupDelegation {
  bool usable = false;
  std::filesystem::path dir;  // our cgroup's directory (when found)
  //! We share the cgroup with no one and must move into a leaf of our own
  //! before memory can be enabled for the workers' cgroups.
  bool needs_leaf = false;
  std::string reason;  // why not usable; or how it will be set up
};

//! The decision, reading only (nothing is created or moved).
CgroupDelegation probe_cgroup_delegation(const CgroupSources& sources);

//! Carries out a usable decision: removes the passforge-* cgroups left by
//! ended processes, moves this process into dir/passforge-main-<pid> when
//! needed, enables memory in dir's cgroup.subtree_control, creates
//! dir/passforge-workers-<pid> with memory enabled for its children and
//! returns that directory (each worker's cgroup is created under it).
Result<std::filesystem::path> set_up_worker_cgroups(const CgroupDelegation& delegation, pid_t pid);

//! What the pools of this process use.
struct WorkerCgroupSetup {
  std::filesystem::path parent;  // empty: no cgroup; the fallback applies
  std::string description;       // the mechanism and why, for logs and doctor
};

//! Probes and sets up once per process (the first pool with a memory limit
//! calls it); the workers' parent is removed at exit when empty.
const WorkerCgroupSetup& worker_cgroup_setup();

//! How each worker's memory is capped without a cgroup.
inline constexpr const char* kMemoryFallback =
    "RLIMIT_DATA on compile-only workers and the pool's RssAnon watch (every 20 ms) on every "
    "worker";

}  // namespace pf::sandbox
