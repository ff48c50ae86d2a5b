// Landlock (raw system calls; ABI 1..7 handled): the worker may read only an
// allowlist (its libraries, CUDA, the few /proc and /sys entries the driver
// reads), use /dev/nvidia* read-write, and write only to its scratch and cache
// directories. On ABI >= 4 TCP bind/connect are denied; on ABI >= 6 abstract
// UNIX sockets and signals outside the worker are denied.
//
// Restricts the calling thread and its future threads/children only, so it is
// applied while the worker is still single-threaded.
#pragma once

#include <filesystem>
#include <vector>

#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

struct LandlockPaths {
  std::vector<std::filesystem::path> read_only;
  std::vector<std::filesystem::path> read_write;
  std::vector<std::filesystem::path> devices;  // read-write + ioctl, no directory creation
};

//! The highest ABI the kernel supports, or an Error saying why Landlock is
//! unusable (not built in, disabled at boot, ...).
Result<int> landlock_abi();

//! The built-in allowlist for this process (worker binary, libraries, CUDA,
//! /dev/nvidia*, LD_LIBRARY_PATH entries) plus the scratch/cache/extra paths.
LandlockPaths default_landlock_paths(const std::filesystem::path& scratch_dir,
                                     const std::filesystem::path& cache_dir,
                                     const std::vector<std::filesystem::path>& extra_read,
                                     const std::vector<std::filesystem::path>& extra_write);

//! Applies the ruleset to the calling thread and adds the landlock_fs,
//! landlock_net and landlock_scope entries to `report`. Requires
//! no_new_privs (or CAP_SYS_ADMIN).
void apply_landlock(const LandlockPaths& paths, IsolationReport& report);

}  // namespace pf::sandbox
