#include "sandbox/pool/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <thread>

#include "sandbox/isolation/anon_memory.h"
#include "sandbox/worker/worker_config.h"

namespace pf::sandbox {
namespace {

ExitInfo decode_status(int status) {
  ExitInfo info;
  if (WIFSIGNALED(status)) {
    info.signaled = true;
    info.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    info.exit_code = WEXITSTATUS(status);
  }
  return info;
}

// posix_spawn's file actions and attributes, released on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attr_);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  posix_spawn_file_actions_t* actions() { return &actions_; }
  posix_spawnattr_t* attr() { return &attr_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
};

Status check_spawn(int rc, const char* call) {
  return rc == 0 ? ok_status() : sys_error(call, rc);
}

}  // namespace

std::string ExitInfo::signal_name() const {
  if (!signaled) return "";
  const char* abbrev = sigabbrev_np(signal);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::string ExitInfo::describe() const {
  if (signaled) {
    const char* text = strsignal(signal);
    return "killed by " + signal_name() + (text != nullptr ? std::string(" (") + text + ")" : "");
  }
  if (exit_code < 0) return "ended (status unknown)";
  return "exited with status " + std::to_string(exit_code);
}

Result<std::unique_ptr<WorkerProcess>> WorkerProcess::spawn(const SpawnSpec& spec) {
  Fd log(::open(spec.log_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600));
  if (!log.valid()) return sys_error("open(" + spec.log_path.string() + ")", errno);

  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return sys_error("socketpair", errno);
  }
  Fd parent_end(sv[0]);
  Fd child_end(sv[1]);
  // dup2(fd, fd) would keep FD_CLOEXEC; make sure the child's end is elsewhere.
  if (child_end.get() <= kDefaultIpcFd) {
    int moved = ::fcntl(child_end.get(), F_DUPFD_CLOEXEC, 10);
    if (moved < 0) return sys_error("fcntl(F_DUPFD_CLOEXEC)", errno);
    child_end.reset(moved);
  }
  PF_TRY(set_nonblocking(parent_end.get(), true));

  SpawnSetup setup;
  PF_TRY(check_spawn(posix_spawn_file_actions_addopen(setup.actions(), 0, "/dev/null", O_RDONLY, 0),
                     "posix_spawn_file_actions_addopen"));
  PF_TRY(check_spawn(posix_spawn_file_actions_adddup2(setup.actions(), log.get(), 1),
                     "posix_spawn_file_actions_adddup2"));
  PF_TRY(check_spawn(posix_spawn_file_actions_adddup2(setup.actions(), log.get(), 2),
                     "posix_spawn_file_actions_adddup2"));
  PF_TRY(
      check_spawn(posix_spawn_file_actions_adddup2(setup.actions(), child_end.get(), kDefaultIpcFd),
                  "posix_spawn_file_actions_adddup2"));
  PF_TRY(check_spawn(posix_spawn_file_actions_addclosefrom_np(setup.actions(), kDefaultIpcFd + 1),
                     "posix_spawn_file_actions_addclosefrom_np"));
  sigset_t empty;
  sigset_t all;
  sigemptyset(&empty);
  sigfillset(&all);
  PF_TRY(check_spawn(posix_spawnattr_setpgroup(setup.attr(), 0), "posix_spawnattr_setpgroup"));
  PF_TRY(
      check_spawn(posix_spawnattr_setsigmask(setup.attr(), &empty), "posix_spawnattr_setsigmask"));
  PF_TRY(check_spawn(posix_spawnattr_setsigdefault(setup.attr(), &all),
                     "posix_spawnattr_setsigdefault"));
  PF_TRY(check_spawn(
      posix_spawnattr_setflags(
          setup.attr(), POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF),
      "posix_spawnattr_setflags"));

  std::vector<std::string> args = {spec.executable.string(), "--ipc-fd",
                                   std::to_string(kDefaultIpcFd)};
  args.insert(args.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = spec.env;
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  std::unique_ptr<WorkerCgroup> cgroup;
  if (spec.cgroup) {
    PF_ASSIGN(cgroup, WorkerCgroup::create(spec.cgroup->parent, spec.cgroup->name,
                                           spec.cgroup->memory_max_bytes));
  }
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, spec.executable.c_str(), setup.actions(), setup.attr(), argv.data(),
                         envp.data());
  if (rc != 0) return sys_error("posix_spawn(" + spec.executable.string() + ")", rc);
  std::unique_ptr<WorkerProcess> proc(
      new WorkerProcess(pid, std::move(parent_end), std::move(log)));
  if (cgroup) {
    // Moved before the pool sends it anything: every request, so all the
    // untrusted work, runs under the cgroup's limit.
    if (auto st = cgroup->add(pid); !st.ok()) {
      proc->kill();
      return make_error(ErrorCode::unavailable,
                        "cannot move the worker into its cgroup: " + st.error().message);
    }
    proc->cgroup_ = std::move(cgroup);
  }
  return proc;
}

WorkerProcess::~WorkerProcess() {
  kill();
}

std::optional<ExitInfo> WorkerProcess::poll_exit() {
  if (exit_) return exit_;
  int status = 0;
  for (;;) {
    pid_t rc = ::waitpid(pid_, &status, WNOHANG);
    if (rc == pid_) {
      exit_ = decode_status(status);
      return exit_;
    }
    if (rc == 0) return std::nullopt;
    if (errno == EINTR) continue;
    // ECHILD: someone else reaped it (e.g. SIGCHLD set to SIG_IGN).
    exit_ = ExitInfo{};
    return exit_;
  }
}

std::optional<ExitInfo> WorkerProcess::wait_exit(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    if (auto info = poll_exit()) return info;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
  }
}

std::optional<ExitInfo> WorkerProcess::kill() {
  // The group goes too: anything the worker managed to start (only possible
  // with isolation disabled) must not outlive it.
  ::kill(-pid_, SIGKILL);
  if (exit_) return exit_;
  ::kill(pid_, SIGKILL);
  if (auto info = wait_exit(std::chrono::seconds(5))) return info;
  pid_t pid = pid_;
  std::thread([pid] {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }).detach();
  exit_ = ExitInfo{true, SIGKILL, -1};
  return std::nullopt;
}

std::optional<uint64_t> WorkerProcess::anon_memory_bytes() const {
  return sandbox::anon_memory_bytes(pid_);
}

std::string WorkerProcess::log_tail(size_t max_bytes) const {
  struct stat st {};
  if (!log_.valid() || ::fstat(log_.get(), &st) != 0 || st.st_size <= 0) return "";
  auto size = static_cast<size_t>(st.st_size);
  size_t want = std::min(size, max_bytes);
  std::string text(want, '\0');
  ssize_t n = ::pread(log_.get(), text.data(), want, static_cast<off_t>(size - want));
  if (n <= 0) return "";
  text.resize(static_cast<size_t>(n));
  if (want < size) {
    // Start at a line boundary when one is near.
    auto nl = text.find('\n');
    if (nl != std::string::npos && nl < text.size() / 2) text.erase(0, nl + 1);
    text = "..." + text;
  }
  return text;
}

void WorkerProcess::truncate_log() {
  // A failed truncation only makes the next tail include older output.
  if (log_.valid() && ::ftruncate(log_.get(), 0) != 0) return;
}

}  // namespace pf::sandbox
