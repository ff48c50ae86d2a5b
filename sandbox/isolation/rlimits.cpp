#include "sandbox/isolation/rlimits.h"

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "common/strings.h"
#include "sandbox/ipc/fd.h"

namespace pf::sandbox {
namespace {

// Lowers soft and hard limit to `value` (never raises the hard limit).
Status lower_limit(int resource, const char* name, uint64_t value) {
  rlimit current{};
  if (::getrlimit(resource, &current) != 0)
    return sys_error(std::string("getrlimit(") + name + ")", errno);
  rlim_t v = static_cast<rlim_t>(value);
  if (current.rlim_max != RLIM_INFINITY) v = std::min(v, current.rlim_max);
  rlimit next{v, v};
  if (::setrlimit(resource, &next) != 0)
    return sys_error(std::string("setrlimit(") + name + ")", errno);
  return ok_status();
}

uint64_t cpu_seconds_used() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<uint64_t>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1;
}

}  // namespace

Status renew_cpu_budget(const ResourceLimits& limits, std::optional<int64_t> deadline_ms) {
  uint64_t budget = limits.min_request_cpu_seconds;
  if (deadline_ms)
    budget = std::max<uint64_t>(budget, 4 * static_cast<uint64_t>(*deadline_ms) / 1000 + 1);
  rlimit current{};
  if (::getrlimit(RLIMIT_CPU, &current) != 0) return sys_error("getrlimit(RLIMIT_CPU)", errno);
  rlim_t soft = static_cast<rlim_t>(cpu_seconds_used() + budget);
  if (current.rlim_max != RLIM_INFINITY) soft = std::min(soft, current.rlim_max);
  rlimit next{soft, current.rlim_max};
  if (::setrlimit(RLIMIT_CPU, &next) != 0) return sys_error("setrlimit(RLIMIT_CPU)", errno);
  return ok_status();
}

void apply_rlimits(const ResourceLimits& limits, bool private_user_namespace,
                   IsolationReport& report) {
  std::vector<std::string> applied;
  std::vector<std::string> failed;
  auto apply = [&](int resource, const char* name, uint64_t value, std::string what) {
    auto st = lower_limit(resource, name, value);
    if (st.ok()) {
      applied.push_back(std::move(what));
    } else {
      failed.push_back(st.error().message);
    }
  };
  apply(RLIMIT_NOFILE, "RLIMIT_NOFILE", limits.max_open_files,
        "open files " + std::to_string(limits.max_open_files));
  apply(RLIMIT_FSIZE, "RLIMIT_FSIZE", limits.max_file_size_bytes,
        "file size " + std::to_string(limits.max_file_size_bytes >> 20) + " MiB");
  ::signal(SIGXFSZ, SIG_IGN);  // an oversized write fails with EFBIG instead of killing
  if (limits.max_data_bytes != 0) {
    apply(RLIMIT_DATA, "RLIMIT_DATA", limits.max_data_bytes,
          "data " + std::to_string(limits.max_data_bytes >> 20) + " MiB");
  }
  if (limits.disable_core_dumps) apply(RLIMIT_CORE, "RLIMIT_CORE", 0, "no core dumps");
  std::string nproc_note;
  if (private_user_namespace) {
    apply(RLIMIT_NPROC, "RLIMIT_NPROC", limits.max_processes,
          "threads+processes " + std::to_string(limits.max_processes));
  } else {
    nproc_note =
        "; process count not limited (without a private user namespace RLIMIT_NPROC would "
        "count every process of this uid on the machine; fork is denied by seccomp)";
  }
  auto cpu = renew_cpu_budget(limits, std::nullopt);
  if (cpu.ok()) {
    applied.push_back("CPU time renewed per request (>= " +
                      std::to_string(limits.min_request_cpu_seconds) + " s)");
  } else {
    failed.push_back(cpu.error().message);
  }
  std::string detail = join(applied, ", ") + nproc_note +
                       "; address space not limited (CUDA reserves large virtual ranges)" +
                       (limits.max_data_bytes == 0
                            ? "; data not limited (a GPU worker's memory is watched by the pool)"
                            : "");
  if (failed.empty()) {
    report.add(kRlimits, MechanismState::applied, detail);
  } else {
    report.add(kRlimits, applied.empty() ? MechanismState::unavailable : MechanismState::applied,
               detail + "; failed: " + join(failed, "; "));
  }
}

}  // namespace pf::sandbox
