#include "sandbox/isolation/isolation.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "common/fs.h"
#include "common/strings.h"
#include "sandbox/ipc/fd.h"
#include "sandbox/isolation/landlock.h"
#include "sandbox/isolation/namespaces.h"
#include "sandbox/isolation/rlimits.h"
#include "sandbox/isolation/seccomp_filter.h"

namespace pf::sandbox {
namespace {

constexpr const char* kAllMechanisms[] = {kUserNamespace, kNetworkNamespace, kRlimits,
                                          kNoNewPrivs,    kLandlockFs,       kLandlockNet,
                                          kLandlockScope, kSeccomp};

void add_disabled(IsolationReport& report, const char* name, bool enabled) {
  if (!enabled) report.add(name, MechanismState::disabled, "disabled by option");
}

std::string create_dirs(const IsolationOptions& options) {
  std::vector<std::string> problems;
  for (const auto& dir : {options.scratch_dir, options.cache_dir}) {
    if (dir.empty()) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) problems.push_back("cannot create " + dir.string() + ": " + ec.message());
  }
  return join(problems, "; ");
}

}  // namespace

int thread_count() {
  auto status = read_file("/proc/self/status");
  if (!status.ok()) return 0;
  for (const auto& line : split(*status, '\n')) {
    if (starts_with(line, "Threads:")) return std::atoi(std::string(trim(line.substr(8))).c_str());
  }
  return 0;
}

IsolationReport apply_isolation(const IsolationOptions& options) {
  IsolationReport report;
  if (!options.enabled) {
    for (const char* name : kAllMechanisms) {
      report.add(name, MechanismState::disabled, "isolation disabled (--no-isolation)");
    }
    return report;
  }
  std::string dir_problems = create_dirs(options);
  const int threads = thread_count();
  const std::string threaded =
      "the process already runs " + std::to_string(threads) +
      " threads; this mechanism must be applied while it is single-threaded";

  if (threads > 1) {
    for (auto [name, enabled] : {std::pair{kUserNamespace, options.user_namespace},
                                 std::pair{kNetworkNamespace, options.network_namespace}}) {
      if (enabled) {
        report.add(name, MechanismState::unavailable, threaded);
      } else {
        add_disabled(report, name, false);
      }
    }
  } else {
    apply_namespaces({options.user_namespace, options.network_namespace}, report);
  }

  if (options.rlimits) {
    apply_rlimits(options.limits, report.applied(kUserNamespace), report);
  } else {
    add_disabled(report, kRlimits, false);
  }

  if (options.no_new_privs) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
      report.add(kNoNewPrivs, MechanismState::applied,
                 "set-uid/set-gid/file capabilities cannot raise privileges");
    } else {
      report.add(kNoNewPrivs, MechanismState::unavailable,
                 sys_error("prctl(PR_SET_NO_NEW_PRIVS)", errno).message);
    }
  } else {
    add_disabled(report, kNoNewPrivs, false);
  }

  if (options.before_confinement) options.before_confinement();
  const int started = thread_count() - std::max(threads, 1);

  if (options.landlock && threads > 1) {
    for (const char* name : {kLandlockFs, kLandlockNet, kLandlockScope}) {
      report.add(name, MechanismState::unavailable, threaded);
    }
  } else if (options.landlock) {
    IsolationReport landlock;
    apply_landlock(default_landlock_paths(options.scratch_dir, options.cache_dir,
                                          options.extra_read_paths, options.extra_write_paths),
                   landlock);
    for (auto& m : landlock.mechanisms) {
      if (m.name == kLandlockFs && !dir_problems.empty()) m.detail += "; " + dir_problems;
      if (started > 0 && m.state == MechanismState::applied) {
        m.detail += "; confines the worker's thread and the threads it starts, not the " +
                    std::to_string(started) + " started before it (CUDA driver start-up)";
      }
      report.mechanisms.push_back(std::move(m));
    }
  } else {
    for (const char* name : {kLandlockFs, kLandlockNet, kLandlockScope}) {
      add_disabled(report, name, false);
    }
  }

  if (options.seccomp) {
    apply_seccomp({/*set_no_new_privs=*/false, options.seccomp_allow}, report);
  } else {
    add_disabled(report, kSeccomp, false);
  }
  return report;
}

IsolationReport probe_isolation(const IsolationOptions& options) {
  IsolationReport report;
  if (!options.enabled) {
    for (const char* name : kAllMechanisms) {
      report.add(name, MechanismState::disabled, "isolation disabled (--no-isolation)");
    }
    return report;
  }
  probe_namespaces({options.user_namespace, options.network_namespace}, report);
  if (options.rlimits) {
    report.add(kRlimits, MechanismState::available, "setrlimit (no address-space limit)");
  } else {
    add_disabled(report, kRlimits, false);
  }
  if (!options.no_new_privs) {
    add_disabled(report, kNoNewPrivs, false);
  } else if (::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0) {
    report.add(kNoNewPrivs, MechanismState::available, "prctl(PR_SET_NO_NEW_PRIVS)");
  } else {
    report.add(kNoNewPrivs, MechanismState::unavailable,
               sys_error("prctl(PR_GET_NO_NEW_PRIVS)", errno).message);
  }
  if (!options.landlock) {
    for (const char* name : {kLandlockFs, kLandlockNet, kLandlockScope}) {
      add_disabled(report, name, false);
    }
  } else if (auto abi = landlock_abi(); !abi.ok()) {
    for (const char* name : {kLandlockFs, kLandlockNet, kLandlockScope}) {
      report.add(name, MechanismState::unavailable, abi.error().message);
    }
  } else {
    const std::string version = "Landlock ABI " + std::to_string(*abi);
    report.add(kLandlockFs, MechanismState::available, version);
    report.add(kLandlockNet, *abi >= 4 ? MechanismState::available : MechanismState::unavailable,
               *abi >= 4 ? version : version + " < 4: TCP not restricted by Landlock");
    report.add(kLandlockScope, *abi >= 6 ? MechanismState::available : MechanismState::unavailable,
               *abi >= 6 ? version : version + " < 6: signals and abstract sockets not scoped");
  }
  if (!options.seccomp) {
    add_disabled(report, kSeccomp, false);
  } else if (auto seccomp = probe_seccomp(); seccomp.ok()) {
    report.add(kSeccomp, MechanismState::available, *seccomp);
  } else {
    report.add(kSeccomp, MechanismState::unavailable, seccomp.error().message);
  }
  return report;
}

}  // namespace pf::sandbox
