// pf_test_worker: a worker (same framework, same isolation as
// passforge-worker) whose handlers misbehave on request. The pool tests and
// the hostile process cases drive it; it is never installed.
//
// Handlers that attempt something the sandbox should stop return an Error
// naming the call and errno when it was stopped, and {"succeeded": true} when
// it was not: the test runner decides which outcome is a failure.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "sandbox/ipc/fd.h"
#include "sandbox/ipc/frame.h"
#include "sandbox/worker/run_worker.h"

extern char** environ;

namespace {

using nlohmann::json;
using pf::ErrorCode;
using pf::make_error;
using pf::Result;
using pf::sandbox::errno_name;

// "open(/etc/passwd): EACCES (Permission denied)" as an Error.
pf::Error denied(const std::string& call, int err) {
  return make_error(ErrorCode::io_error,
                    call + ": " + errno_name(err) + " (" + std::strerror(err) + ")");
}

json succeeded(json extra = json::object()) {
  extra["succeeded"] = true;
  return extra;
}

volatile bool g_stop_recursion = false;  // never set: keeps the recursion unbounded

int recurse(int depth) {
  if (g_stop_recursion) return 0;
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  return recurse(depth + 1) + pad[0];
}

Result<json> read_path(const json& body) {
  auto path = body.value("path", std::string());
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return denied("open(" + path + ")", errno);
  char buf[64];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n < 0) return denied("read(" + path + ")", errno);
  return succeeded({{"bytes", n}});
}

Result<json> write_path(const std::string& path, size_t bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return denied("open(" + path + ", O_CREAT)", errno);
  std::string data(bytes, 'x');
  ssize_t n = ::write(fd, data.data(), data.size());
  int err = errno;
  ::close(fd);
  if (n < 0) return denied("write(" + path + ")", err);
  return succeeded({{"written", n}});
}

Result<json> connect_tcp(const json& body) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return denied("socket(AF_INET)", errno);
  pf::sandbox::Fd sock(fd);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(body.value("port", 0)));
  ::inet_pton(AF_INET, body.value("host", std::string("127.0.0.1")).c_str(), &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return denied("connect", errno);
  }
  return succeeded();
}

Result<json> fork_bomb(const json& body) {
  int count = std::min(body.value("count", 8), 32);  // bounded: a real bomb would hurt CI
  std::vector<pid_t> children;
  for (int i = 0; i < count; ++i) {
    pid_t pid = ::fork();
    if (pid == 0) _exit(0);
    if (pid < 0) {
      int err = errno;
      for (pid_t c : children) ::waitpid(c, nullptr, 0);
      if (children.empty()) return denied("fork", err);
      return succeeded({{"forked", children.size()}});
    }
    children.push_back(pid);
  }
  for (pid_t c : children) ::waitpid(c, nullptr, 0);
  return succeeded({{"forked", children.size()}});
}

Result<json> exec_shell(const json&) {
  char sh[] = "/bin/sh";
  char dash_c[] = "-c";
  char cmd[] = "exit 0";
  char* argv[] = {sh, dash_c, cmd, nullptr};
  ::execve("/bin/sh", argv, environ);
  return denied("execve(/bin/sh)", errno);
}

json limits() {
  json out = json::object();
  for (auto [name, resource] :
       {std::pair{"nofile", RLIMIT_NOFILE}, std::pair{"fsize", RLIMIT_FSIZE},
        std::pair{"nproc", RLIMIT_NPROC}, std::pair{"core", RLIMIT_CORE},
        std::pair{"cpu", RLIMIT_CPU}, std::pair{"as", RLIMIT_AS}}) {
    rlimit r{};
    ::getrlimit(resource, &r);
    auto value = [](rlim_t v) {
      return v == RLIM_INFINITY ? json(-1) : json(static_cast<uint64_t>(v));
    };
    out[name] = {{"soft", value(r.rlim_cur)}, {"hard", value(r.rlim_max)}};
  }
  return out;
}

json open_fds() {
  json fds = json::array();
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return fds;
  int self = ::dirfd(dir);
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    int fd = std::atoi(e->d_name);
    if (fd != self) fds.push_back(fd);
  }
  ::closedir(dir);
  std::sort(fds.begin(), fds.end());
  return fds;
}

void register_handlers(pf::sandbox::HandlerTable& t, const pf::sandbox::WorkerConfig& config) {
  const int ipc_fd = config.ipc_fd;
  const std::string scratch = config.isolation.scratch_dir.string();
  t.add("echo", [](const json& body) -> Result<json> { return body; });
  t.add("pid", [](const json&) -> Result<json> { return json{{"pid", ::getpid()}}; });
  t.add("sleep", [](const json& body) -> Result<json> {
    std::this_thread::sleep_for(std::chrono::milliseconds(body.value("ms", 0)));
    return succeeded();
  });
  t.add("spin", [](const json&) -> Result<json> {
    volatile uint64_t spins = 0;
    for (;;) spins = spins + 1;
  });
  t.add("fail", [](const json& body) -> Result<json> {
    return make_error(ErrorCode::invalid_argument,
                      body.value("message", std::string("asked to fail")));
  });
  t.add("throw",
        [](const json&) -> Result<json> { throw std::runtime_error("thrown on request"); });
  t.add("segfault", [](const json& body) -> Result<json> {
    if (body.value("say", false)) {
      std::fprintf(stderr, "about to dereference null\n");
      std::fflush(stderr);
    }
    volatile int* p = nullptr;
    *p = 1;
    return succeeded();
  });
  t.add("abort", [](const json&) -> Result<json> { std::abort(); });
  t.add("stack_overflow", [](const json&) -> Result<json> { return json{{"n", recurse(0)}}; });
  t.add("exit", [](const json& body) -> Result<json> { _exit(body.value("code", 0)); });
  t.add("die_after_reply", [](const json& body) -> Result<json> {
    int ms = body.value("ms", 50);
    std::thread([ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      _exit(7);
    }).detach();
    return succeeded();
  });
  t.add("alloc", [](const json& body) -> Result<json> {
    auto bytes = body.value("bytes", uint64_t{0});
    auto* p = new char[bytes];
    p[0] = 1;
    delete[] p;
    return succeeded();
  });
  // Touches every page, a chunk at a time, like a real memory bomb (plain
  // malloc, so a failed allocation is a null pointer, not std::bad_alloc).
  t.add("grow", [](const json& body) -> Result<json> {
    const uint64_t total = body.value("bytes", uint64_t{0});
    const uint64_t chunk = 16ull << 20;
    std::vector<void*> held;
    uint64_t grown = 0;
    for (; grown < total; grown += chunk) {
      void* p = std::malloc(chunk);
      if (p == nullptr) break;
      std::memset(p, 1, chunk);
      held.push_back(p);
    }
    for (void* p : held) std::free(p);
    if (grown < total) return make_error(ErrorCode::unavailable, "malloc failed");
    return succeeded({{"grown", grown}});
  });
  t.add("flood", [](const json& body) -> Result<json> {
    std::string chunk(64 * 1024, 'F');
    chunk.back() = '\n';
    const bool forever = body.value("forever", false);
    const uint64_t total = body.value("bytes", uint64_t{1} << 20);
    for (uint64_t written = 0; forever || written < total; written += 2 * chunk.size()) {
      std::fwrite(chunk.data(), 1, chunk.size(), stdout);
      std::fwrite(chunk.data(), 1, chunk.size(), stderr);
    }
    std::fflush(stdout);
    return succeeded();
  });
  t.add("big_reply", [](const json& body) -> Result<json> {
    return json{{"data", std::string(body.value("bytes", size_t{0}), 'b')}};
  });
  t.add("poison", [](const json&) -> Result<json> {
    pf::sandbox::declare_poisoned("test: sticky error");
    return succeeded();
  });
  t.add("garbage", [ipc_fd](const json&) -> Result<json> {
    const char frame[] = "\x05\x00\x00\x00{{{{{";
    (void)::write(ipc_fd, frame, sizeof frame - 1);
    return succeeded();
  });
  t.add("threads", [](const json&) -> Result<json> {
    std::vector<std::thread> threads;
    std::atomic<int> ran{0};
    for (int i = 0; i < 8; ++i) threads.emplace_back([&ran] { ++ran; });
    for (auto& th : threads) th.join();
    return succeeded({{"ran", ran.load()}});
  });
  t.add("fork", fork_bomb);
  t.add("exec", exec_shell);
  t.add("read_file", read_path);
  t.add("write_file", [](const json& body) -> Result<json> {
    return write_path(body.value("path", std::string()), body.value("bytes", size_t{1}));
  });
  t.add("write_scratch", [scratch](const json& body) -> Result<json> {
    return write_path(scratch + "/" + body.value("name", std::string("f")),
                      body.value("bytes", size_t{1}));
  });
  t.add("connect", connect_tcp);
  t.add("ptrace_parent", [](const json&) -> Result<json> {
    if (::ptrace(PTRACE_ATTACH, ::getppid(), nullptr, nullptr) != 0) {
      return denied("ptrace(PTRACE_ATTACH, parent)", errno);
    }
    ::ptrace(PTRACE_DETACH, ::getppid(), nullptr, nullptr);
    return succeeded();
  });
  t.add("signal_parent", [](const json&) -> Result<json> {
    if (::kill(::getppid(), 0) != 0) return denied("kill(parent, 0)", errno);
    return succeeded();
  });
  t.add("mount", [scratch](const json&) -> Result<json> {
    if (::mount("none", scratch.c_str(), "tmpfs", 0, nullptr) != 0) return denied("mount", errno);
    ::umount2(scratch.c_str(), MNT_DETACH);
    return succeeded();
  });
  t.add("unshare", [](const json&) -> Result<json> {
    if (::unshare(CLONE_NEWNS) != 0) return denied("unshare(CLONE_NEWNS)", errno);
    return succeeded();
  });
  t.add("raise_priority", [](const json&) -> Result<json> {
    if (::setpriority(PRIO_PROCESS, 0, -5) != 0) return denied("setpriority(-5)", errno);
    return succeeded();
  });
  t.add("limits", [](const json&) -> Result<json> { return limits(); });
  t.add("fds", [](const json&) -> Result<json> { return json{{"fds", open_fds()}}; });
  t.add("env", [](const json&) -> Result<json> {
    json env = json::array();
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.push_back(*e);
    return json{{"env", env}};
  });
}

}  // namespace

int main(int argc, char** argv) {
  auto config = pf::sandbox::parse_worker_args(argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "pf_test_worker: %s\n", config.error().message.c_str());
    return pf::sandbox::kWorkerExitUsage;
  }
  pf::sandbox::HandlerTable handlers;
  register_handlers(handlers, *config);
  return pf::sandbox::run_worker(*config, handlers);
}
