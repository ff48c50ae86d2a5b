#include "sandbox/isolation/seccomp_filter.h"

#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "common/strings.h"
#include "sandbox/ipc/fd.h"

namespace pf::sandbox {
namespace {

// clang-format off
constexpr const char* kDenied[] = {
    // new sockets (the IPC descriptor is inherited)
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    // new processes and programs
    "fork", "vfork", "execve", "execveat",
    // other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
    "pidfd_send_signal", "tkill",
    // file-system and namespace changes
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "mount_setattr",
    "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    "open_by_handle_at", "name_to_handle_at",
    // kernel attack surface a worker never needs
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "bpf",
    "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "fanotify_init", "syslog", "swapon", "swapoff",
    "reboot", "acct", "quotactl", "quotactl_fd", "iopl", "ioperm", "settimeofday",
    "clock_settime", "lookup_dcookie", "uselib", "vhangup",
};
// clang-format on

// Signal-sending calls whose first argument is the target process.
constexpr const char* kSelfOnlySignals[] = {"kill", "tgkill", "rt_sigqueueinfo",
                                            "rt_tgsigqueueinfo"};

std::string libseccomp_version() {
  const scmp_version* v = seccomp_version();
  if (v == nullptr) return "libseccomp";
  return "libseccomp " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
         std::to_string(v->micro);
}

// Owns a libseccomp filter context.
class FilterContext {
 public:
  FilterContext() : ctx_(seccomp_init(SCMP_ACT_ALLOW)) {}
  ~FilterContext() {
    if (ctx_ != nullptr) seccomp_release(ctx_);
  }
  FilterContext(const FilterContext&) = delete;
  FilterContext& operator=(const FilterContext&) = delete;
  scmp_filter_ctx get() const { return ctx_; }

 private:
  scmp_filter_ctx ctx_;
};

Status check(int rc, const std::string& what) {
  if (rc < 0) return sys_error(what, -rc);
  return ok_status();
}

Status build_filter(scmp_filter_ctx ctx, const SeccompOptions& options,
                    std::vector<std::string>* unknown, int* denied_count) {
  PF_TRY(check(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS),
               "seccomp_attr_set(BADARCH)"));
  PF_TRY(check(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, options.set_no_new_privs ? 1 : 0),
               "seccomp_attr_set(CTL_NNP)"));
  PF_TRY(check(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1), "seccomp_attr_set(CTL_TSYNC)"));

  auto allowed = [&](const char* name) {
    return std::find(options.allow.begin(), options.allow.end(), name) != options.allow.end();
  };
  auto resolve = [&](const char* name) {
    if (allowed(name)) return static_cast<int>(__NR_SCMP_ERROR);
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) unknown->push_back(name);
    return nr;
  };
  for (const char* name : kDenied) {
    int nr = resolve(name);
    if (nr == __NR_SCMP_ERROR) continue;
    PF_TRY(check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0),
                 std::string("seccomp_rule_add(") + name + ")"));
    ++*denied_count;
  }
  // Threads (CLONE_THREAD) are allowed; any other clone creates a process.
  if (!allowed("clone")) {
    PF_TRY(check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                  SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)),
                 "seccomp_rule_add(clone)"));
  }
  // clone3 passes its flags in memory, which seccomp cannot read: ENOSYS makes
  // glibc fall back to clone.
  int clone3 = resolve("clone3");
  if (clone3 != __NR_SCMP_ERROR) {
    PF_TRY(check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), clone3, 0),
                 "seccomp_rule_add(clone3)"));
  }
  const auto self = static_cast<scmp_datum_t>(::getpid());
  for (const char* name : kSelfOnlySignals) {
    int nr = resolve(name);
    if (nr == __NR_SCMP_ERROR) continue;
    PF_TRY(check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, SCMP_A0(SCMP_CMP_NE, self)),
                 std::string("seccomp_rule_add(") + name + ")"));
  }
  if (!allowed("prlimit64")) {
    PF_TRY(check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prlimit64), 1,
                                  SCMP_A0(SCMP_CMP_NE, 0)),
                 "seccomp_rule_add(prlimit64)"));
  }
  return ok_status();
}

}  // namespace

void apply_seccomp(const SeccompOptions& options, IsolationReport& report) {
  FilterContext ctx;
  if (ctx.get() == nullptr) {
    report.add(kSeccomp, MechanismState::unavailable, "seccomp_init failed (out of memory?)");
    return;
  }
  std::vector<std::string> unknown;
  int denied = 0;
  auto st = build_filter(ctx.get(), options, &unknown, &denied);
  if (st.ok()) st = check(seccomp_load(ctx.get()), "seccomp_load");
  if (!st.ok()) {
    report.add(kSeccomp, MechanismState::unavailable, st.error().message);
    return;
  }
  std::string detail = libseccomp_version() + ": " + std::to_string(denied) +
                       " system calls fail with EPERM; clone only with CLONE_THREAD, clone3 "
                       "ENOSYS; signals and prlimit only to itself; foreign-ABI calls kill";
  if (!unknown.empty()) detail += "; unknown to this libseccomp: " + join(unknown, ", ");
  if (!options.allow.empty()) detail += "; left out by option: " + join(options.allow, ", ");
  report.add(kSeccomp, MechanismState::applied, detail);
}

Result<std::string> probe_seccomp() {
  if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) {
    return make_error(ErrorCode::unsupported,
                      "kernel without seccomp (prctl(PR_GET_SECCOMP): " + errno_name(errno) + ")");
  }
  uint32_t action = SECCOMP_RET_ERRNO;
  if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0) {
    return make_error(ErrorCode::unsupported,
                      "seccomp filters cannot return errors here (SECCOMP_GET_ACTION_AVAIL: " +
                          errno_name(errno) + ")");
  }
  return libseccomp_version() + ", filter mode with errno actions available";
}

}  // namespace pf::sandbox
