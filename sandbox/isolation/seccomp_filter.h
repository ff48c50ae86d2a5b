// The worker's seccomp filter (libseccomp): a deny list that keeps CUDA and
// NVRTC working. Denied calls fail with EPERM (clone3 with ENOSYS, so glibc
// falls back to clone, whose flags can be inspected) instead of killing the
// process, so code paths report errors. What is denied and why:
// - no new sockets (the IPC descriptor is inherited): socket, socketpair,
//   connect, bind, listen, accept, accept4;
// - no new processes or programs: fork, vfork, clone without CLONE_THREAD
//   (threads stay allowed), execve, execveat;
// - no access to other processes: ptrace, process_vm_readv/writev, kcmp,
//   pidfd_*; kill/tgkill/rt_(tg)sigqueueinfo only to the worker itself;
//   tkill not at all; prlimit64 only on itself;
// - no file-system or namespace changes: mount family, pivot_root, chroot,
//   unshare, setns, open_by_handle_at, name_to_handle_at;
// - no kernel attack surface it never needs: kexec, modules, bpf,
//   perf_event_open, keyctl/add_key/request_key, userfaultfd, io_uring (which
//   would bypass this filter), fanotify, syslog, swap, reboot, acct, quotas,
//   iopl/ioperm, clock setting.
// Foreign-architecture system calls (int 0x80, x32) kill the process.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "sandbox/isolation/isolation_report.h"

namespace pf::sandbox {

struct SeccompOptions {
  //! Leave the no_new_privs bit alone (set by the no_new_privs mechanism or
  //! not); loading then needs CAP_SYS_ADMIN if it is not set.
  bool set_no_new_privs = false;
  //! System calls whose deny rule is left out.
  std::vector<std::string> allow;
};

//! Installs the filter on every thread of the process; adds the seccomp entry.
void apply_seccomp(const SeccompOptions& options, IsolationReport& report);

//! Whether seccomp filters can be installed here (without installing one).
Result<std::string> probe_seccomp();

}  // namespace pf::sandbox
