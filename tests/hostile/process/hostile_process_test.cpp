// Hostile process-level cases: a worker (pf_test_worker, same isolation as
// passforge-worker) does something a compromised or buggy worker might do.
// Each case states the attack, the defence and the expected classification.
// After every case a normal request on the same pool must succeed.
//
// Isolation cases skip, with the worker's own reason, when the mechanism that
// defends against them is unavailable here; they FAIL when the mechanism
// reports "applied" and the attack succeeds anyway.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "sandbox/ipc/fd.h"
#include "sandbox/isolation/isolation_options.h"
#include "sandbox/pool/worker_pool.h"

namespace pf::sandbox {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// One pool per isolation configuration, shared by the cases that use it.
class HostileProcess : public ::testing::Test {
 protected:
  static std::unique_ptr<WorkerPool> make_pool(std::vector<std::string> worker_args) {
    WorkerPoolOptions options;
    options.worker_path = PF_TEST_WORKER;
    options.worker_args = std::move(worker_args);
    auto pool = WorkerPool::start(options);
    EXPECT_TRUE(pool.ok()) << pool.error().message;
    return pool.ok() ? std::move(pool).value() : nullptr;
  }

  static void SetUpTestSuite() { full_ = make_pool({}).release(); }
  static void TearDownTestSuite() {
    delete full_;
    full_ = nullptr;
  }

  void SetUp() override { ASSERT_NE(full_, nullptr); }

  // The pool recovered: a normal request succeeds on the same pool.
  static void expect_recovered(WorkerPool& pool) {
    auto r = pool.call("echo", json{{"after", "hostile"}}, 10s);
    EXPECT_TRUE(r.ok()) << "pool did not recover: " << r.describe();
    if (r.ok()) {
      EXPECT_EQ(r.body["after"], "hostile");
    }
  }

  // The mechanisms among `mechanisms` the pool's workers applied, comma-separated.
  static std::string require_any(WorkerPool& pool, std::initializer_list<const char*> mechanisms) {
    auto report = pool.isolation_report();
    std::string applied;
    for (const char* m : mechanisms) {
      if (report.applied(m)) applied += std::string(applied.empty() ? "" : ", ") + m;
    }
    return applied;
  }

  // The attack must come back as a handler error naming one of the errnos;
  // success while a defence is applied is a sandbox bypass.
  static void expect_denied(const WorkerReply& r, std::initializer_list<const char*> errnos,
                            const std::string& defences) {
    ASSERT_NE(r.status, ReplyStatus::ok) << "BYPASS: attack succeeded although " << defences
                                         << " reported applied: " << r.body.dump();
    ASSERT_EQ(r.status, ReplyStatus::error) << r.describe() << "\n" << r.stderr_tail;
    bool named = false;
    for (const char* e : errnos) named = named || r.error.message.find(e) != std::string::npos;
    EXPECT_TRUE(named) << r.error.message;
  }

  static WorkerPool* full_;
};

WorkerPool* HostileProcess::full_ = nullptr;

#define PF_REQUIRE_DEFENCE(pool, defences, ...)                                            \
  const std::string defences = require_any(pool, {__VA_ARGS__});                           \
  if (defences.empty()) {                                                                  \
    std::string why;                                                                       \
    auto report = (pool).isolation_report();                                               \
    for (const char* m : {__VA_ARGS__}) {                                                  \
      const auto* e = report.find(m);                                                      \
      why += std::string(m) + ": " + (e ? e->detail : std::string("not reported")) + "; "; \
    }                                                                                      \
    GTEST_SKIP() << "defence unavailable on this machine: " << why;                        \
  }

// Attack: an endless loop in the worker. Defence: the pool's deadline.
// Expected: timeout; worker killed and replaced.
TEST_F(HostileProcess, InfiniteLoopTimesOut) {
  auto r = full_->call("spin", json::object(), 300ms);
  EXPECT_EQ(r.status, ReplyStatus::timeout) << r.describe();
  EXPECT_TRUE(r.worker_replaced);
  expect_recovered(*full_);
}

// Attack: sleeping far past the deadline. Expected: timeout.
TEST_F(HostileProcess, SleepPastDeadlineTimesOut) {
  auto start = Clock::now();
  auto r = full_->call("sleep", json{{"ms", 30000}}, 200ms);
  EXPECT_EQ(r.status, ReplyStatus::timeout) << r.describe();
  EXPECT_LT(Clock::now() - start, 5s);
  expect_recovered(*full_);
}

// Attack: null dereference. Expected: crashed with SIGSEGV.
TEST_F(HostileProcess, SegfaultIsCrashedSigsegv) {
  auto r = full_->call("segfault", json::object(), 5s);
  EXPECT_EQ(r.status, ReplyStatus::crashed) << r.describe();
  EXPECT_EQ(r.signal, "SIGSEGV");
  expect_recovered(*full_);
}

// Attack: abort(). Expected: crashed with SIGABRT (raise to itself is allowed).
TEST_F(HostileProcess, AbortIsCrashedSigabrt) {
  auto r = full_->call("abort", json::object(), 5s);
  EXPECT_EQ(r.status, ReplyStatus::crashed) << r.describe();
  EXPECT_EQ(r.signal, "SIGABRT");
  expect_recovered(*full_);
}

// Attack: unbounded recursion. Expected: crashed with SIGSEGV.
TEST_F(HostileProcess, StackOverflowIsCrashedSigsegv) {
  auto r = full_->call("stack_overflow", json::object(), 10s);
  EXPECT_EQ(r.status, ReplyStatus::crashed) << r.describe();
  EXPECT_EQ(r.signal, "SIGSEGV");
  expect_recovered(*full_);
}

// Attack: a 1 PiB allocation. Defence: the allocation fails inside the worker
// and the exception becomes an error reply. Expected: error naming bad_alloc.
TEST_F(HostileProcess, HugeAllocationIsAnError) {
  auto r = full_->call("alloc", json{{"bytes", uint64_t{1} << 50}}, 10s);
  EXPECT_EQ(r.status, ReplyStatus::error) << r.describe();
  EXPECT_NE(r.error.message.find("bad_alloc"), std::string::npos) << r.error.message;
  expect_recovered(*full_);
}

// Attack: 32 MiB on stdout+stderr. Defence: worker output goes to a file the
// pool owns, so nothing blocks. Expected: ok, fast; the tail is bounded.
TEST_F(HostileProcess, FiniteOutputFloodDoesNotBlock) {
  auto r = full_->call("flood", json{{"bytes", 32 << 20}}, 20s);
  EXPECT_TRUE(r.ok()) << r.describe();
  expect_recovered(*full_);
}

// Attack: endless output. Expected: timeout; the tail handed back is bounded.
TEST_F(HostileProcess, EndlessOutputFloodTimesOut) {
  auto r = full_->call("flood", json{{"forever", true}}, 500ms);
  EXPECT_EQ(r.status, ReplyStatus::timeout) << r.describe();
  EXPECT_LE(r.stderr_tail.size(), 4096u + 3);
  expect_recovered(*full_);
}

// Attack: threads are needed by CUDA and NVRTC (control: must work).
TEST_F(HostileProcess, ThreadsStillWork) {
  auto r = full_->call("threads", json::object(), 5s);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.body["ran"], 8);
}

// Attack: fork bomb (bounded). Defence: seccomp (fork/vfork/clone without
// CLONE_THREAD -> EPERM). Expected: error EPERM.
TEST_F(HostileProcess, ForkIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp);
  expect_denied(full_->call("fork", json{{"count", 16}}, 5s), {"EPERM"}, defences);
  expect_recovered(*full_);
}

// Attack: execve("/bin/sh"). Defences: seccomp (EPERM), Landlock (no execute
// right anywhere: EACCES). Expected: error.
TEST_F(HostileProcess, ExecIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp, kLandlockFs);
  auto r = full_->call("exec", json::object(), 5s);
  EXPECT_NE(r.status, ReplyStatus::crashed)
      << "BYPASS: the worker was replaced by /bin/sh: " << r.describe();
  expect_denied(r, {"EPERM", "EACCES"}, defences);
  expect_recovered(*full_);
}

// Attack: read /etc/passwd. Defence: Landlock read allowlist. Expected: EACCES.
TEST_F(HostileProcess, ReadingOutsideTheAllowlistIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kLandlockFs);
  expect_denied(full_->call("read_file", json{{"path", "/etc/passwd"}}, 5s), {"EACCES"}, defences);
  // The orchestrator's directory (task files, API configs) is not readable either.
  expect_denied(full_->call("read_file", json{{"path", PF_SOURCE_DIR "/CMakeLists.txt"}}, 5s),
                {"EACCES"}, defences);
  expect_recovered(*full_);
}

// Attack: write outside the scratch directory. Defence: Landlock. Expected:
// EACCES and no file. Control: writing into scratch works.
TEST_F(HostileProcess, WritingOutsideScratchIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kLandlockFs);
  const std::string target = "/tmp/pf-hostile-write-" + std::to_string(::getpid());
  expect_denied(full_->call("write_file", json{{"path", target}}, 5s), {"EACCES"}, defences);
  EXPECT_FALSE(std::filesystem::exists(target)) << "BYPASS: " << target << " was created";
  std::filesystem::remove(target);
  auto control = full_->call("write_scratch", json{{"name", "ok.txt"}, {"bytes", 100}}, 5s);
  EXPECT_TRUE(control.ok()) << "scratch must stay writable: " << control.describe();
  expect_recovered(*full_);
}

// Attack: open a TCP connection. Defence: seccomp (socket -> EPERM).
TEST_F(HostileProcess, NetworkSocketIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp);
  expect_denied(full_->call("connect", json{{"host", "127.0.0.1"}, {"port", 9}}, 5s), {"EPERM"},
                defences);
  expect_recovered(*full_);
}

// Attack: ptrace the orchestrator. Defence: seccomp. Expected: EPERM.
TEST_F(HostileProcess, PtraceIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp);
  expect_denied(full_->call("ptrace_parent", json::object(), 5s), {"EPERM"}, defences);
  expect_recovered(*full_);
}

// Attack: signal the orchestrator (here with signal 0, a probe). Defences:
// seccomp (kill only to itself), Landlock signal scoping. Expected: EPERM.
TEST_F(HostileProcess, SignallingTheOrchestratorIsDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp, kLandlockScope);
  expect_denied(full_->call("signal_parent", json::object(), 5s), {"EPERM"}, defences);
  expect_recovered(*full_);
}

// Attack: mount a file system / make a new mount namespace. Defence: seccomp.
TEST_F(HostileProcess, MountAndUnshareAreDenied) {
  PF_REQUIRE_DEFENCE(*full_, defences, kSeccomp);
  expect_denied(full_->call("mount", json::object(), 5s), {"EPERM"}, defences);
  expect_denied(full_->call("unshare", json::object(), 5s), {"EPERM"}, defences);
  expect_recovered(*full_);
}

// Resource limits as reported applied are really in force.
TEST_F(HostileProcess, ResourceLimitsAreInForce) {
  PF_REQUIRE_DEFENCE(*full_, defences, kRlimits);
  auto r = full_->call("limits", json::object(), 5s);
  ASSERT_TRUE(r.ok()) << r.describe();
  ResourceLimits expected;
  EXPECT_LE(r.body["nofile"]["hard"].get<int64_t>(), static_cast<int64_t>(expected.max_open_files));
  EXPECT_LE(r.body["fsize"]["hard"].get<int64_t>(),
            static_cast<int64_t>(expected.max_file_size_bytes));
  EXPECT_NE(r.body["fsize"]["hard"].get<int64_t>(), -1);
  EXPECT_EQ(r.body["core"]["hard"], 0);
  EXPECT_NE(r.body["cpu"]["soft"].get<int64_t>(), -1) << "no CPU budget";
  EXPECT_EQ(r.body["as"]["soft"], -1) << "RLIMIT_AS must stay unlimited for CUDA";
  if (full_->isolation_report().applied(kUserNamespace)) {
    EXPECT_LE(r.body["nproc"]["hard"].get<int64_t>(), static_cast<int64_t>(expected.max_processes));
  }
  expect_recovered(*full_);
}

// Attack: use host capabilities (raising priority needs CAP_SYS_NICE on the
// host). Defence: the user namespace. Expected: EACCES/EPERM.
TEST_F(HostileProcess, UserNamespaceDropsHostCapabilities) {
  PF_REQUIRE_DEFENCE(*full_, defences, kUserNamespace);
  expect_denied(full_->call("raise_priority", json::object(), 5s), {"EACCES", "EPERM"}, defences);
  expect_recovered(*full_);
}

// The defences one by one: a pool with the other mechanisms switched off, so
// each mechanism is shown to hold on its own.
class SingleDefence : public HostileProcess {
 protected:
  // A listening TCP socket in the test process the worker tries to reach.
  struct Listener {
    Fd fd;
    int port = 0;
  };
  static Listener listen_local() {
    Listener l;
    l.fd = Fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(l.fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(l.fd.get(), 4), 0);
    socklen_t len = sizeof addr;
    ::getsockname(l.fd.get(), reinterpret_cast<sockaddr*>(&addr), &len);
    l.port = ntohs(addr.sin_port);
    return l;
  }
};

// Landlock alone (ABI >= 4) denies TCP connect: EACCES.
TEST_F(SingleDefence, LandlockAloneDeniesTcp) {
  auto pool = make_pool({"--no-seccomp", "--no-network-namespace"});
  ASSERT_TRUE(pool);
  PF_REQUIRE_DEFENCE(*pool, defences, kLandlockNet);
  auto l = listen_local();
  expect_denied(pool->call("connect", json{{"port", l.port}}, 5s), {"EACCES"}, defences);
  expect_recovered(*pool);
}

// The network namespace alone: the host's loopback is unreachable.
TEST_F(SingleDefence, NetworkNamespaceAloneIsolatesTheHost) {
  auto pool = make_pool({"--no-seccomp", "--no-landlock"});
  ASSERT_TRUE(pool);
  PF_REQUIRE_DEFENCE(*pool, defences, kNetworkNamespace);
  auto l = listen_local();
  expect_denied(pool->call("connect", json{{"port", l.port}}, 5s),
                {"ENETUNREACH", "ECONNREFUSED", "EHOSTUNREACH"}, defences);
  expect_recovered(*pool);
}

// Landlock alone denies exec and reads outside the allowlist.
TEST_F(SingleDefence, LandlockAloneDeniesExecAndReads) {
  auto pool = make_pool({"--no-seccomp"});
  ASSERT_TRUE(pool);
  PF_REQUIRE_DEFENCE(*pool, defences, kLandlockFs);
  auto r = pool->call("exec", json::object(), 5s);
  EXPECT_NE(r.status, ReplyStatus::crashed) << "BYPASS: exec succeeded: " << r.describe();
  expect_denied(r, {"EACCES"}, defences);
  expect_denied(pool->call("read_file", json{{"path", "/etc/passwd"}}, 5s), {"EACCES"}, defences);
  expect_recovered(*pool);
}

// seccomp alone denies exec, fork and signals to other processes.
TEST_F(SingleDefence, SeccompAloneDeniesProcessCalls) {
  auto pool = make_pool({"--no-landlock", "--no-user-namespace", "--no-network-namespace"});
  ASSERT_TRUE(pool);
  PF_REQUIRE_DEFENCE(*pool, defences, kSeccomp);
  auto r = pool->call("exec", json::object(), 5s);
  EXPECT_NE(r.status, ReplyStatus::crashed) << "BYPASS: exec succeeded: " << r.describe();
  expect_denied(r, {"EPERM"}, defences);
  expect_denied(pool->call("fork", json{{"count", 4}}, 5s), {"EPERM"}, defences);
  expect_denied(pool->call("signal_parent", json::object(), 5s), {"EPERM"}, defences);
  auto threads = pool->call("threads", json::object(), 5s);
  EXPECT_TRUE(threads.ok()) << "threads must survive seccomp: " << threads.describe();
  expect_recovered(*pool);
}

// With isolation off the same attacks succeed: the cases above are not
// passing for some unrelated reason (this is the honest control).
TEST_F(SingleDefence, WithoutIsolationTheAttacksSucceed) {
  auto pool = make_pool({"--no-isolation"});
  ASSERT_TRUE(pool);
  auto read = pool->call("read_file", json{{"path", "/etc/passwd"}}, 5s);
  EXPECT_TRUE(read.ok()) << read.describe();
  auto fork = pool->call("fork", json{{"count", 2}}, 5s);
  EXPECT_TRUE(fork.ok()) << fork.describe();
  auto signal = pool->call("signal_parent", json::object(), 5s);
  EXPECT_TRUE(signal.ok()) << signal.describe();
  if (::geteuid() == 0) {
    auto nice = pool->call("raise_priority", json::object(), 5s);
    EXPECT_TRUE(nice.ok()) << "root without a user namespace may raise priority: "
                           << nice.describe();
  }
  auto probe = pool->call("probe_isolation", json::object(), 5s);
  ASSERT_TRUE(probe.ok());
  EXPECT_FALSE(probe.body["complete"].get<bool>());
}

// Attack (issue 17): a worker that keeps allocating and touching memory.
// Defence on compile-only workers: RLIMIT_DATA from evaluator.worker_memory_mb;
// the failed C++ allocation ends the worker with the limit named. Expected:
// resource_limit within seconds, the worker replaced, the pool usable.
TEST(WorkerMemoryLimit, CpuWorkerAllocationOverTheLimitIsAResourceLimit) {
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.limits.memory_mb = 256;
  auto pool = WorkerPool::start(options);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  const auto start = std::chrono::steady_clock::now();
  auto r = (*pool)->call("alloc", json{{"bytes", uint64_t{1} << 30}}, 30s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(r.status, ReplyStatus::resource_limit) << r.describe();
  EXPECT_NE(r.error.message.find("limit of 256 MiB"), std::string::npos) << r.error.message;
  EXPECT_TRUE(r.worker_replaced);
  auto ok = (*pool)->call("alloc", json{{"bytes", uint64_t{64} << 20}}, 10s);
  EXPECT_TRUE(ok.ok()) << "an allocation under the limit: " << ok.describe();
  EXPECT_EQ((*pool)->stats().resource_limits, 1u);
}

// The same bomb touching its pages, on a worker started as a GPU worker (no
// RLIMIT_DATA: the CUDA driver's mappings would count). Defence: the pool
// samples the worker's resident anonymous memory and kills it over the limit.
TEST(WorkerMemoryLimit, GpuStyleWorkerIsWatchedByThePool) {
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.gpu_devices = {"no-such-gpu"};  // a "GPU" slot; pf_test_worker never opens CUDA
  options.limits.memory_mb = 256;
  auto pool = WorkerPool::start(options);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  const auto start = std::chrono::steady_clock::now();
  auto r = (*pool)->call("grow", json{{"bytes", uint64_t{8} << 30}}, 60s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(r.status, ReplyStatus::resource_limit) << r.describe();
  EXPECT_NE(r.error.message.find("over its limit of 256 MiB"), std::string::npos)
      << r.error.message;
  EXPECT_TRUE(r.worker_replaced);
  auto ok = (*pool)->call("grow", json{{"bytes", uint64_t{64} << 20}}, 10s);
  EXPECT_TRUE(ok.ok()) << "growth under the limit: " << ok.describe();
}

}  // namespace
}  // namespace pf::sandbox
