#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "sandbox/pool/worker_pool.h"
#include "tests/support/paths.h"

namespace pf::sandbox {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

WorkerPoolOptions test_options(int workers = 1) {
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.cpu_workers = workers;
  return options;
}

std::unique_ptr<WorkerPool> start_pool(WorkerPoolOptions options) {
  auto pool = WorkerPool::start(std::move(options));
  EXPECT_TRUE(pool.ok()) << pool.error().message;
  return pool.ok() ? std::move(pool).value() : nullptr;
}

int worker_pid(WorkerPool& pool) {
  auto r = pool.call("pid", json::object(), 5s);
  EXPECT_TRUE(r.ok()) << r.describe();
  return r.ok() ? r.body["pid"].get<int>() : -1;
}

TEST(WorkerPool, RealWorkerAnswersBuiltins) {
  WorkerPoolOptions options;
  options.worker_path = pf::test::worker_path();
  auto pool = start_pool(options);
  ASSERT_TRUE(pool);
  auto ping = pool->call("ping", json{{"echo", "hi"}}, 5s);
  ASSERT_TRUE(ping.ok()) << ping.describe();
  EXPECT_EQ(ping.body["echo"], "hi");
  EXPECT_EQ(ping.body["pid"].get<int>(), ping.worker_pid);
  auto probe = pool->call("probe_isolation", json::object(), 5s);
  ASSERT_TRUE(probe.ok()) << probe.describe();
  auto report = IsolationReport::from_json(probe.body["isolation"]);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->mechanisms.size(), 8u);
  EXPECT_EQ(probe.body["threads"], 1) << "the worker must still be single-threaded";
  auto unknown = pool->call("no_such_request", json::object(), 5s);
  EXPECT_EQ(unknown.status, ReplyStatus::error);
  EXPECT_EQ(unknown.error.code, ErrorCode::not_found);
  EXPECT_NE(unknown.error.message.find("probe_isolation"), std::string::npos);
}

TEST(WorkerPool, MissingBinaryIsAClearError) {
  WorkerPoolOptions options;
  options.worker_path = "/nonexistent/passforge-worker";
  auto pool = WorkerPool::start(options);
  ASSERT_FALSE(pool.ok());
  EXPECT_EQ(pool.error().code, ErrorCode::not_found);
  EXPECT_NE(pool.error().message.find("/nonexistent/passforge-worker"), std::string::npos);
  EXPECT_NE(pool.error().message.find("PASSFORGE_WORKER"), std::string::npos);
}

TEST(WorkerPool, WorkerPathFromEnvironment) {
  ::setenv("PASSFORGE_WORKER", PF_TEST_WORKER, 1);
  WorkerPoolOptions options;
  auto resolved = WorkerPool::resolve_worker_path(options);
  ::unsetenv("PASSFORGE_WORKER");
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->filename(), "pf_test_worker");
}

TEST(WorkerPool, WorkerThatCannotStartFailsWithItsExitStatus) {
  WorkerPoolOptions options;
  options.worker_path = "/bin/false";
  options.max_start_attempts = 2;
  auto pool = WorkerPool::start(options);
  ASSERT_FALSE(pool.ok());
  EXPECT_EQ(pool.error().code, ErrorCode::unavailable);
  EXPECT_NE(pool.error().message.find("after 2 attempts"), std::string::npos)
      << pool.error().message;
  EXPECT_NE(pool.error().message.find("exited with status 1"), std::string::npos)
      << pool.error().message;
}

TEST(WorkerPool, HandlerErrorsAndExceptionsComeBackAsErrors) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  int pid = worker_pid(*pool);
  auto failed = pool->call("fail", json{{"message", "kernel 'k' not found"}}, 5s);
  EXPECT_EQ(failed.status, ReplyStatus::error);
  EXPECT_EQ(failed.error.code, ErrorCode::invalid_argument);
  EXPECT_EQ(failed.error.message, "kernel 'k' not found");
  auto thrown = pool->call("throw", json::object(), 5s);
  EXPECT_EQ(thrown.status, ReplyStatus::error);
  EXPECT_NE(thrown.error.message.find("thrown on request"), std::string::npos);
  EXPECT_FALSE(thrown.worker_replaced);
  EXPECT_EQ(worker_pid(*pool), pid) << "handler errors must not cost a restart";
  EXPECT_EQ(pool->stats().restarts, 0u);
}

TEST(WorkerPool, TimeoutKillsAndReplacesTheWorker) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  int before = worker_pid(*pool);
  auto r = pool->call("sleep", json{{"ms", 10000}}, 200ms);
  EXPECT_EQ(r.status, ReplyStatus::timeout) << r.describe();
  EXPECT_TRUE(r.worker_replaced);
  EXPECT_LT(r.elapsed, 3s);
  EXPECT_EQ(::kill(before, 0), -1) << "the timed-out worker must be gone";
  int after = worker_pid(*pool);
  EXPECT_NE(after, before);
  auto stats = pool->stats();
  EXPECT_EQ(stats.timeouts, 1u);
  EXPECT_EQ(stats.restarts, 1u);
}

TEST(WorkerPool, CrashIsClassifiedWithSignalAndOutput) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  auto r = pool->call("segfault", json{{"say", true}}, 5s);
  EXPECT_EQ(r.status, ReplyStatus::crashed) << r.describe();
  EXPECT_EQ(r.signal, "SIGSEGV");
  EXPECT_NE(r.error.message.find("SIGSEGV"), std::string::npos);
  EXPECT_NE(r.stderr_tail.find("about to dereference null"), std::string::npos) << r.stderr_tail;
  auto exited = pool->call("exit", json{{"code", 9}}, 5s);
  EXPECT_EQ(exited.status, ReplyStatus::crashed);
  EXPECT_EQ(exited.exit_code, 9);
  EXPECT_TRUE(exited.signal.empty());
  EXPECT_TRUE(pool->call("echo", json{{"a", 1}}, 5s).ok());
  EXPECT_EQ(pool->stats().crashes, 2u);
}

TEST(WorkerPool, PoisonedWorkerRepliesThenIsReplaced) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  int before = worker_pid(*pool);
  auto r = pool->call("poison", json::object(), 5s);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.poisoned, "test: sticky error");
  EXPECT_TRUE(r.worker_replaced);
  EXPECT_NE(worker_pid(*pool), before);
}

TEST(WorkerPool, ProtocolViolationIsClassified) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  auto r = pool->call("garbage", json::object(), 5s);
  EXPECT_EQ(r.status, ReplyStatus::protocol_error) << r.describe();
  EXPECT_TRUE(pool->call("echo", json::object(), 5s).ok());
}

TEST(WorkerPool, OversizeReplyBecomesAnError) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  auto r = pool->call("big_reply", json{{"bytes", 65 << 20}}, 30s);
  EXPECT_EQ(r.status, ReplyStatus::error) << r.describe();
  EXPECT_NE(r.error.message.find("too large"), std::string::npos);
  EXPECT_TRUE(pool->call("echo", json::object(), 5s).ok());
}

TEST(WorkerPool, WorkerDyingWhileIdleIsReplacedInvisibly) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  ASSERT_TRUE(pool->call("die_after_reply", json{{"ms", 20}}, 5s).ok());
  std::this_thread::sleep_for(300ms);
  auto r = pool->call("echo", json{{"still", "here"}}, 5s);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.body["still"], "here");
  EXPECT_EQ(pool->stats().restarts, 1u);
}

TEST(WorkerPool, AReplyTheCallerJudgesBadRetiresItsWorker) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  const int before = worker_pid(*pool);
  auto kept = pool->call("echo", json{{"a", 1}}, deadline_in(5s),
                         [](const WorkerReply&) { return std::string(); });
  ASSERT_TRUE(kept.ok()) << kept.describe();
  EXPECT_FALSE(kept.worker_replaced);
  EXPECT_EQ(worker_pid(*pool), before);
  std::string judged;
  auto retired = pool->call("echo", json{{"a", 2}}, deadline_in(5s), [&](const WorkerReply& r) {
    judged = r.body.dump();
    return std::string("worker fault: test");
  });
  ASSERT_TRUE(retired.ok()) << retired.describe();
  EXPECT_EQ(judged, json({{"a", 2}}).dump()) << "the check sees the reply";
  EXPECT_TRUE(retired.worker_replaced);
  EXPECT_EQ(retired.body["a"], 2) << "the caller still gets the reply it judged";
  const int after = worker_pid(*pool);
  EXPECT_NE(after, before);
  EXPECT_GT(after, 0);
  EXPECT_EQ(pool->stats().restarts, 1u);
}

TEST(WorkerPool, ManyThreadsAtOnce) {
  auto pool = start_pool(test_options(3));
  ASSERT_TRUE(pool);
  constexpr int kThreads = 12;
  constexpr int kCalls = 25;
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        auto r = pool->call("echo", json{{"t", t}, {"i", i}}, 10s);
        if (r.ok() && r.body["t"] == t && r.body["i"] == i) ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(good.load(), kThreads * kCalls);
  EXPECT_EQ(pool->stats().requests, static_cast<uint64_t>(kThreads * kCalls));
}

TEST(WorkerPool, CrashesDoNotDisturbConcurrentCallers) {
  auto pool = start_pool(test_options(2));
  ASSERT_TRUE(pool);
  std::atomic<int> echo_ok{0};
  std::atomic<int> crashed{0};
  std::thread crasher([&] {
    for (int i = 0; i < 5; ++i) {
      if (pool->call("abort", json::object(), 5s).status == ReplyStatus::crashed) ++crashed;
    }
  });
  std::thread echoer([&] {
    for (int i = 0; i < 40; ++i) {
      if (pool->call("echo", json{{"i", i}}, 10s).ok()) ++echo_ok;
    }
  });
  crasher.join();
  echoer.join();
  EXPECT_EQ(crashed.load(), 5);
  EXPECT_EQ(echo_ok.load(), 40);
}

TEST(WorkerPool, WorkersServeInParallel) {
  auto pool = start_pool(test_options(3));
  ASSERT_TRUE(pool);
  std::vector<std::thread> threads;
  std::mutex mu;
  std::set<int> pids;
  auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      auto r = pool->call("sleep", json{{"ms", 400}}, 5s);
      EXPECT_TRUE(r.ok()) << r.describe();
      std::lock_guard lock(mu);
      pids.insert(r.worker_pid);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1100ms);
  EXPECT_EQ(pids.size(), 3u);
}

// Routing: among idle workers (GPUs) the least recently busy takes the
// request, so one that just ran a long request rests while the others share.
TEST(WorkerPool, LeastRecentlyBusyIdleWorkerTakesTheRequest) {
  auto pool = start_pool(test_options(3));
  ASSERT_TRUE(pool);
  auto long_one = pool->call("sleep", json{{"ms", 300}}, 5s);
  ASSERT_TRUE(long_one.ok()) << long_one.describe();
  std::map<int, int> taken;
  for (int i = 0; i < 10; ++i) {
    auto r = pool->call("echo", json::object(), 5s);
    ASSERT_TRUE(r.ok()) << r.describe();
    ++taken[r.slot];
  }
  EXPECT_EQ(taken.count(long_one.slot), 0u) << "the worker busy for 300 ms took a request";
  EXPECT_EQ(taken.size(), 2u) << "the two rested workers share the short requests";
  PoolLoad load = pool->load();
  ASSERT_EQ(load.slots.size(), 3u);
  uint64_t requests = 0;
  for (const auto& s : load.slots) {
    requests += s.requests;
    EXPECT_FALSE(s.busy);
  }
  EXPECT_EQ(requests, 11u);
  const auto& busiest = load.slots[static_cast<size_t>(long_one.slot)];
  EXPECT_GE(busiest.busy_s, 0.3);
  EXPECT_EQ(busiest.requests, 1u);
  EXPECT_GE(load.wall_s, busiest.busy_s);
  EXPECT_EQ(load.waiting, 0u);
}

// The queue: callers waiting for a busy worker are counted while they wait,
// and the time they waited is summed.
TEST(WorkerPool, LoadReportsQueueDepthAndBusyTime) {
  auto pool = start_pool(test_options(1));
  ASSERT_TRUE(pool);
  std::vector<std::thread> threads;
  threads.emplace_back([&] { EXPECT_TRUE(pool->call("sleep", json{{"ms", 500}}, 5s).ok()); });
  std::this_thread::sleep_for(100ms);
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&] { EXPECT_TRUE(pool->call("echo", json::object(), 5s).ok()); });
  }
  std::this_thread::sleep_for(150ms);
  PoolLoad during = pool->load();
  EXPECT_EQ(during.waiting, 2u);
  ASSERT_EQ(during.slots.size(), 1u);
  EXPECT_TRUE(during.slots[0].busy);
  EXPECT_GE(during.slots[0].busy_s, 0.2) << "the request in flight counts";
  for (auto& t : threads) t.join();
  PoolLoad after = pool->load();
  EXPECT_EQ(after.waiting, 0u);
  EXPECT_EQ(after.max_waiting, 2u);
  EXPECT_GE(after.queue_wait_s, 0.4);  // two callers, each queued ~0.25 s or more
  EXPECT_EQ(after.slots[0].requests, 3u);
  EXPECT_GE(after.slots[0].busy_s, 0.5);
  EXPECT_LE(after.slots[0].busy_s, after.wall_s);
  auto j = after.to_json();
  EXPECT_EQ(j["slots"][0]["requests"], 3);
}

TEST(WorkerPool, BusyUntilTheDeadlineIsUnavailable) {
  auto pool = start_pool(test_options(1));
  ASSERT_TRUE(pool);
  std::thread busy([&] { EXPECT_TRUE(pool->call("sleep", json{{"ms", 800}}, 5s).ok()); });
  std::this_thread::sleep_for(100ms);
  auto r = pool->call("echo", json::object(), 100ms);
  busy.join();
  EXPECT_EQ(r.status, ReplyStatus::unavailable) << r.describe();
  EXPECT_NE(r.error.message.find("busy"), std::string::npos);
  EXPECT_TRUE(pool->call("echo", json::object(), 1s).ok());
}

TEST(WorkerPool, EnvironmentIsAnAllowlist) {
  ::setenv("PF_TEST_SECRET_API_KEY", "sk-do-not-leak", 1);
  ::setenv("CUDA_CACHE_MAXSIZE", "1234", 1);
  auto options = test_options();
  options.gpu_devices = {"3"};
  auto pool = start_pool(options);
  ::unsetenv("PF_TEST_SECRET_API_KEY");
  ::unsetenv("CUDA_CACHE_MAXSIZE");
  ASSERT_TRUE(pool);
  auto r = pool->call("env", json::object(), 5s);
  ASSERT_TRUE(r.ok());
  std::set<std::string> env;
  for (const auto& e : r.body["env"]) env.insert(e.get<std::string>());
  EXPECT_EQ(env.count("CUDA_VISIBLE_DEVICES=3"), 1u);
  EXPECT_EQ(env.count("CUDA_CACHE_MAXSIZE=1234"), 1u);
  for (const auto& e : env) EXPECT_EQ(e.find("sk-do-not-leak"), std::string::npos) << e;
}

TEST(WorkerPool, WorkerInheritsOnlyItsProtocolDescriptor) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  auto r = pool->call("fds", json::object(), 5s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.body["fds"], json({0, 1, 2, 3}));
}

TEST(WorkerPool, DestructionEndsCallsInFlight) {
  auto pool = start_pool(test_options());
  ASSERT_TRUE(pool);
  int pid = worker_pid(*pool);
  WorkerReply reply;
  std::thread caller([&] { reply = pool->call("spin", json::object(), no_deadline()); });
  std::this_thread::sleep_for(200ms);
  pool.reset();
  caller.join();
  EXPECT_EQ(reply.status, ReplyStatus::crashed) << reply.describe();
  EXPECT_EQ(::kill(pid, 0), -1);
}

// Issue 17: kill -9 of the orchestrator left /tmp/passforge-workers-* behind.
// The next pool started on the machine removes folders whose owner is gone,
// and a pool removes its own at destruction.
TEST(WorkerPool, FoldersOfAKilledOwnerAreRemovedAtTheNextStart) {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("pf_pool_tmp_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    auto pool = WorkerPool::start(test_options());
    char ok = pool.ok() ? '1' : '0';
    (void)!::write(ready[1], &ok, 1);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ::close(ready[0]);
  ASSERT_EQ(ok, '1') << "the child could not start its pool";
  ::kill(child, SIGKILL);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);

  auto folders = [&] {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(tmp)) names.insert(e.path().filename().string());
    return names;
  };
  const auto left = folders();
  ASSERT_EQ(left.size(), 1u) << "the killed owner's folder should be there";
  EXPECT_EQ(left.begin()->rfind("passforge-workers-", 0), 0u) << *left.begin();

  // A folder whose owner lives (this process) is kept; one naming this pid
  // with another start time (a reused pid) is not.
  std::string stat;
  std::getline(std::ifstream("/proc/self/stat"), stat);
  std::istringstream after(stat.substr(stat.rfind(')') + 2));
  std::string field, started;
  for (int i = 0; i < 20 && after >> field; ++i) started = field;
  const fs::path live = tmp / "passforge-workers-live00";
  const fs::path reused = tmp / "passforge-workers-reused";
  fs::create_directories(live);
  fs::create_directories(reused);
  std::ofstream(live / "owner") << ::getpid() << " " << started << "\n";
  std::ofstream(reused / "owner") << ::getpid() << " 1" << started << "\n";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  {
    auto pool = start_pool(test_options());
    ::unsetenv("TMPDIR");
    ASSERT_TRUE(pool);
    auto now = folders();
    EXPECT_EQ(now.count(*left.begin()), 0u) << "the stale folder was not removed";
    EXPECT_EQ(now.count("passforge-workers-reused"), 0u) << "a reused pid is not the owner";
    EXPECT_EQ(now.size(), 2u);  // the live one and the new pool's
  }
  ::unsetenv("TMPDIR");
  EXPECT_EQ(folders(), (std::set<std::string>{"passforge-workers-live00"}))
      << "the pool must remove its own folder";
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace pf::sandbox
