#include "sandbox/isolation/namespaces.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "sandbox/ipc/fd.h"

namespace pf::sandbox {
namespace {

constexpr const char* kNetDetail = "fresh network namespace (no interfaces but a down loopback)";

// Writes a /proc/self map file in one write(2), as the kernel requires.
bool write_proc_file(const char* path, const std::string& text, std::string* why) {
  Fd fd(::open(path, O_WRONLY | O_CLOEXEC));
  if (!fd.valid()) {
    *why = std::string("open ") + path + ": " + errno_name(errno);
    return false;
  }
  ssize_t n;
  do {
    n = ::write(fd.get(), text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(text.size())) {
    *why = std::string("write ") + path + ": " + errno_name(n < 0 ? errno : EIO);
    return false;
  }
  return true;
}

// Keeps the worker's own uid/gid visible inside the new user namespace (it
// would otherwise appear as the overflow id 65534).
std::string map_ids(uid_t uid, gid_t gid) {
  std::string why;
  if (!write_proc_file("/proc/self/setgroups", "deny", &why) ||
      !write_proc_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1",
                       &why) ||
      !write_proc_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1",
                       &why)) {
    return "; uid/gid not mapped (" + why + "), the worker appears as the overflow id";
  }
  return "; uid " + std::to_string(uid) + " and gid " + std::to_string(gid) + " mapped";
}

std::string unshare_failure(const char* what, int err) {
  std::string why = sys_error(std::string("unshare(") + what + ")", err).message;
  if (err == EINVAL) why += " (a user namespace needs a single-threaded process)";
  if (err == EPERM || err == EACCES) {
    why +=
        " (forbidden here: e.g. kernel.apparmor_restrict_unprivileged_userns=1, "
        "user.max_user_namespaces=0, or a container's seccomp profile)";
  }
  if (err == ENOSPC) why += " (user.max_user_namespaces or max_net_namespaces reached)";
  return why;
}

// 0 when unshare(flags) succeeds in a throw-away child, else its errno.
int try_unshare_in_child(int flags) {
  pid_t pid = ::fork();
  if (pid < 0) return errno;
  if (pid == 0) _exit(::unshare(flags) == 0 ? 0 : (errno & 0xff));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return errno;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : ECHILD;
}

}  // namespace

void apply_namespaces(const NamespaceOptions& options, IsolationReport& report) {
  const uid_t uid = ::getuid();
  const gid_t gid = ::getgid();
  std::string user_detail = "disabled by option";
  MechanismState user_state = MechanismState::disabled;
  std::string net_detail = "disabled by option";
  MechanismState net_state = MechanismState::disabled;

  if (options.user) {
    int flags = CLONE_NEWUSER | (options.network ? CLONE_NEWNET : 0);
    if (::unshare(flags) == 0) {
      user_state = MechanismState::applied;
      user_detail = "fresh user namespace: no capabilities on the host" + map_ids(uid, gid);
      if (options.network) {
        net_state = MechanismState::applied;
        net_detail = kNetDetail;
      }
    } else {
      int err = errno;
      user_state = MechanismState::unavailable;
      user_detail =
          unshare_failure(options.network ? "CLONE_NEWUSER|CLONE_NEWNET" : "CLONE_NEWUSER", err);
      // A user namespace alone may still be allowed, and root can create a
      // network namespace without one.
      if (options.network && ::unshare(CLONE_NEWUSER) == 0) {
        user_state = MechanismState::applied;
        user_detail = "fresh user namespace: no capabilities on the host" + map_ids(uid, gid) +
                      " (combined with a network namespace: " + errno_name(err) + ")";
      }
    }
  }
  if (options.network && net_state != MechanismState::applied) {
    if (::unshare(CLONE_NEWNET) == 0) {
      net_state = MechanismState::applied;
      net_detail = kNetDetail;
    } else {
      net_state = MechanismState::unavailable;
      net_detail = unshare_failure("CLONE_NEWNET", errno);
    }
  }
  report.add(kUserNamespace, user_state, user_detail);
  report.add(kNetworkNamespace, net_state, net_detail);
}

void probe_namespaces(const NamespaceOptions& options, IsolationReport& report) {
  auto probe = [&](const char* name, bool enabled, int flags, const char* flag_name,
                   const char* what) {
    if (!enabled) {
      report.add(name, MechanismState::disabled, "disabled by option");
      return;
    }
    int err = try_unshare_in_child(flags);
    if (err == 0) {
      report.add(name, MechanismState::available, what);
    } else {
      report.add(name, MechanismState::unavailable, unshare_failure(flag_name, err));
    }
  };
  probe(kUserNamespace, options.user, CLONE_NEWUSER, "CLONE_NEWUSER", "fresh user namespace");
  int net_flags = CLONE_NEWNET | (options.user ? CLONE_NEWUSER : 0);
  if (options.user && try_unshare_in_child(net_flags) != 0) net_flags = CLONE_NEWNET;
  probe(kNetworkNamespace, options.network, net_flags, "CLONE_NEWNET", kNetDetail);
}

}  // namespace pf::sandbox
