// What the worker applies to itself before reading untrusted input; defaults
// live here and nowhere else. Every switch exists for diagnosis
// on unusual machines: a mechanism turned off is reported as "disabled", never
// silently skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace pf::sandbox {

struct ResourceLimits {
  //! RLIMIT_NOFILE (soft and hard). CUDA needs a few dozen descriptors.
  uint64_t max_open_files = 1024;
  //! RLIMIT_FSIZE: largest file the worker may write (cache entries, logs);
  //! SIGXFSZ is ignored so an oversized write fails with EFBIG instead.
  uint64_t max_file_size_bytes = 256ull << 20;
  //! RLIMIT_NPROC. Counts threads (CUDA and NVRTC create some); fork is also
  //! denied by seccomp. Lowered only, never raised.
  uint64_t max_processes = 512;
  //! RLIMIT_CPU budget per request, beyond the CPU time already used: ends a
  //! runaway worker whose orchestrator died (the pool kills it at the
  //! request's deadline long before). Effective budget:
  //! max(min_request_cpu_seconds, 4 x the request's deadline).
  uint64_t min_request_cpu_seconds = 60;
  //! RLIMIT_DATA (private writable memory: heap, anonymous mappings); 0: not
  //! limited. Set for compile-only workers only: the CUDA driver of a GPU
  //! worker maps large private ranges, so those are watched by the pool.
  uint64_t max_data_bytes = 0;
  //! RLIMIT_CORE 0: a crashing worker leaves no core file (it may hold
  //! untrusted data and fills disks quickly under a crash loop).
  bool disable_core_dumps = true;
};

struct IsolationOptions {
  bool enabled = true;  // false: nothing is applied (--no-isolation, debugging only)
  bool no_new_privs = true;
  bool user_namespace = true;     // fresh user namespace (drops host capabilities)
  bool network_namespace = true;  // fresh network namespace: no interfaces but a down loopback
  bool landlock = true;           // file-system allowlist (+ TCP and scope rules by ABI)
  bool seccomp = true;            // system-call deny list
  //! Deny-list entries left out, by system-call name (--seccomp-allow: for
  //! finding which call a driver needs; reported in the seccomp entry).
  std::vector<std::string> seccomp_allow;
  //! Runs after the namespaces, rlimits and no_new_privs and before Landlock
  //! and seccomp: a GPU worker initialises CUDA here, because the driver's
  //! start-up needs a socket and file writes that the confined worker may not
  //! make (seen on the H200 machines: cuInit fails with
  //! CUDA_ERROR_OPERATING_SYSTEM under either). The threads it starts stay
  //! outside the Landlock domain (restrict_self confines the calling thread
  //! and its later threads); seccomp covers every thread.
  std::function<void()> before_confinement;
  bool rlimits = true;
  ResourceLimits limits;

  //! Read-write for the worker; created if missing. Empty: no scratch access.
  std::filesystem::path scratch_dir;
  //! The NVRTC cache, read-write. Empty: none.
  std::filesystem::path cache_dir;
  //! Added to the built-in read-only allowlist (e.g. an unusual driver location).
  std::vector<std::filesystem::path> extra_read_paths;
  //! Added read-write (use sparingly).
  std::vector<std::filesystem::path> extra_write_paths;
};

}  // namespace pf::sandbox
