// Per-worker memory cgroups (issue 17). The decision and the set-up run on
// fake cgroupfs trees in a temporary directory (any machine); the kernel's
// side runs on a cgroup2 file system the test mounts itself, which needs
// root and a kernel that allows it, and an OOM kill for real needs the
// memory controller in that hierarchy: those tests skip with the reason
// where it is missing (on hosts whose memory controller is bound to a
// cgroup v1 hierarchy).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "common/fs.h"
#include "sandbox/isolation/isolation_report.h"
#include "sandbox/pool/cgroup_delegation.h"
#include "sandbox/pool/worker_cgroup.h"
#include "sandbox/pool/worker_pool.h"

namespace pf::sandbox {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A fake cgroup2 hierarchy mounted at <tmp>/mnt, this process in /svc.
class FakeCgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("pf_cgroup_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    mnt_ = root_ / "mnt";
    svc_ = mnt_ / "svc";
    put(svc_ / "cgroup.controllers", "cpu io memory pids\n");
    put(svc_ / "cgroup.subtree_control", "");
    put(svc_ / "cgroup.procs", std::to_string(kPid) + "\n");
    sources_.proc_self_cgroup = "0::/svc\n";
    // Two mounts of the hierarchy: the one where our cgroup's directory
    // exists is used.
    sources_.mountinfo =
        "30 25 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
        "31 25 0:27 / " +
        mnt_.string() + " rw,nosuid - cgroup2 none rw\n";
    sources_.pid = kPid;
  }
  void TearDown() override { fs::remove_all(root_); }

  static constexpr pid_t kPid = 4242;
  fs::path root_, mnt_, svc_;
  CgroupSources sources_;
};

TEST_F(FakeCgroupTree, NoV2LineMeansNoCgroup) {
  sources_.proc_self_cgroup = "4:memory:/x\n1:cpu:/\n";
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_FALSE(d.usable);
  EXPECT_NE(d.reason.find("no '0::' line"), std::string::npos) << d.reason;
}

TEST_F(FakeCgroupTree, NoMountShowingOurCgroup) {
  sources_.proc_self_cgroup = "0::/elsewhere\n";
  sources_.mountinfo = "31 25 0:27 /svc /x rw - cgroup2 none rw\n30 1 0:5 / /sys rw - sysfs s rw\n";
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_FALSE(d.usable);
  EXPECT_NE(d.reason.find("no cgroup2 file system"), std::string::npos) << d.reason;
}

TEST_F(FakeCgroupTree, MountRootAndEscapesResolveTheDirectory) {
  // The mount shows /svc of the hierarchy; our cgroup is /svc/inner; the
  // mount point has a blank (\040 in mountinfo).
  const fs::path spaced = root_ / "a b";
  put(spaced / "inner" / "cgroup.controllers", "memory\n");
  put(spaced / "inner" / "cgroup.subtree_control", "memory\n");
  sources_.proc_self_cgroup = "0::/svc/inner\n";
  sources_.mountinfo =
      "31 25 0:27 /svc " + (root_ / "a\\040b").string() + " rw - cgroup2 none rw\n";
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_TRUE(d.usable) << d.reason;
  EXPECT_EQ(d.dir, spaced / "inner");
}

TEST_F(FakeCgroupTree, MemoryBoundToCgroupV1IsNamed) {
  put(svc_ / "cgroup.controllers", "hugetlb\n");
  sources_.proc_self_cgroup = "4:memory:/process_api/abc\n1:cpu:/\n0::/svc\n";
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_FALSE(d.usable);
  EXPECT_NE(d.reason.find("memory is not among the controllers"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("cgroup v1 hierarchy ('4:memory:/process_api/abc'"), std::string::npos)
      << d.reason;
}

TEST_F(FakeCgroupTree, OtherProcessesInOurCgroupRuleItOut) {
  put(svc_ / "cgroup.procs", "17\n" + std::to_string(kPid) + "\n99\n");
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_FALSE(d.usable);
  EXPECT_NE(d.reason.find("holds other processes (17, 99)"), std::string::npos) << d.reason;
}

TEST_F(FakeCgroupTree, MemoryAlreadyEnabledNeedsNoLeaf) {
  put(svc_ / "cgroup.subtree_control", "cpu memory\n");
  put(svc_ / "cgroup.procs", "");
  auto d = probe_cgroup_delegation(sources_);
  EXPECT_TRUE(d.usable) << d.reason;
  EXPECT_FALSE(d.needs_leaf);
  EXPECT_EQ(d.dir, svc_);
}

TEST_F(FakeCgroupTree, AloneInOurCgroupWeMoveIntoALeafAndEnableMemory) {
  // A cgroup left by an ended passforge (pid of a reaped child) is removed.
  pid_t gone = ::fork();
  if (gone == 0) _exit(0);
  ASSERT_EQ(::waitpid(gone, nullptr, 0), gone);
  const fs::path stale = svc_ / ("passforge-workers-" + std::to_string(gone));
  fs::create_directories(stale / "worker-3");
  const fs::path alive = svc_ / ("passforge-workers-" + std::to_string(::getpid()));
  fs::create_directories(alive);

  auto d = probe_cgroup_delegation(sources_);
  ASSERT_TRUE(d.usable) << d.reason;
  EXPECT_TRUE(d.needs_leaf);
  auto parent = set_up_worker_cgroups(d, kPid);
  ASSERT_TRUE(parent.ok()) << parent.error().message;
  EXPECT_EQ(*parent, svc_ / ("passforge-workers-" + std::to_string(kPid)));
  EXPECT_EQ(slurp(svc_ / ("passforge-main-" + std::to_string(kPid)) / "cgroup.procs"),
            std::to_string(kPid));
  EXPECT_EQ(slurp(svc_ / "cgroup.subtree_control"), "+memory");
  EXPECT_EQ(slurp(*parent / "cgroup.subtree_control"), "+memory");
  EXPECT_FALSE(fs::exists(stale)) << "an ended process's empty cgroups are removed";
  EXPECT_TRUE(fs::exists(alive)) << "a live process's cgroups are kept";
}

TEST_F(FakeCgroupTree, UnusableDecisionIsNotSetUp) {
  put(svc_ / "cgroup.controllers", "cpu\n");
  auto d = probe_cgroup_delegation(sources_);
  auto parent = set_up_worker_cgroups(d, kPid);
  ASSERT_FALSE(parent.ok());
  EXPECT_EQ(parent.error().message, d.reason);
  EXPECT_FALSE(fs::exists(svc_ / ("passforge-main-" + std::to_string(kPid))));
}

TEST_F(FakeCgroupTree, WorkerCgroupGetsItsLimitsAndReadsOomKills) {
  auto cg = WorkerCgroup::create(svc_, "worker-0", 256ull << 20);
  ASSERT_TRUE(cg.ok()) << cg.error().message;
  EXPECT_EQ(slurp(svc_ / "worker-0" / "memory.max"), std::to_string(256ull << 20));
  EXPECT_EQ(slurp(svc_ / "worker-0" / "memory.swap.max"), "0");
  EXPECT_EQ(slurp(svc_ / "worker-0" / "memory.oom.group"), "1");
  EXPECT_EQ((*cg)->oom_kills(), 0u) << "no memory.events yet";
  put(svc_ / "worker-0" / "memory.events", "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n");
  EXPECT_EQ((*cg)->oom_kills(), 1u);
  EXPECT_EQ(cgroup_counter("oom 3\noom_kill 2\noom_group_kill 1\n", "oom_kill"), 2u);
  EXPECT_EQ(cgroup_counter("", "oom_kill"), 0u);
}

TEST_F(FakeCgroupTree, CreatingATakenNameFailsNamingIt) {
  fs::create_directories(svc_ / "worker-0");
  auto cg = WorkerCgroup::create(svc_, "worker-0", 1 << 20);
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.error().message.find("mkdir(" + (svc_ / "worker-0").string() + ")"),
            std::string::npos)
      << cg.error().message;
}

// Attack: a worker that allocates past its memory limit, killed by the
// kernel's OOM killer inside its cgroup (SIGKILL, oom_kill in
// memory.events). The fake tree plays the kernel: the test writes the event
// and sends the SIGKILL the OOM killer would. Expected: resource_limit naming
// memory.max and the limit's value, the worker replaced into a new cgroup.
TEST_F(FakeCgroupTree, OomKillInTheWorkersCgroupIsAResourceLimit) {
  const fs::path parent = svc_ / "passforge-workers-test";
  fs::create_directories(parent);
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.gpu_devices = {"no-such-gpu"};  // a GPU slot: no RLIMIT_DATA, the cgroup is its cap
  options.limits.memory_mb = 256;
  options.cgroup_parent = parent;
  auto started = WorkerPool::start(options);
  ASSERT_TRUE(started.ok()) << started.error().message;
  auto& pool = **started;
  EXPECT_NE(pool.memory_cap().find(parent.string()), std::string::npos) << pool.memory_cap();

  fs::path cgroup;
  for (const auto& e : fs::directory_iterator(parent)) cgroup = e.path();
  ASSERT_FALSE(cgroup.empty()) << "the worker got no cgroup";
  EXPECT_EQ(slurp(cgroup / "memory.max"), std::to_string(256ull << 20));
  const pid_t pid = std::stoi(slurp(cgroup / "cgroup.procs"));
  auto first = pool.call("pid", json::object(), 5s);
  ASSERT_TRUE(first.ok()) << first.describe();
  EXPECT_EQ(first.body["pid"].get<int>(), pid) << "the worker itself was moved into the cgroup";

  auto reply = std::async(std::launch::async, [&] {
    return pool.call("sleep", json{{"ms", 20'000}}, 30s);
  });
  std::this_thread::sleep_for(200ms);
  put(cgroup / "memory.events", "oom 1\noom_kill 1\n");
  ::kill(pid, SIGKILL);
  auto r = reply.get();
  EXPECT_EQ(r.status, ReplyStatus::resource_limit) << r.describe();
  EXPECT_NE(r.error.message.find("memory.max of 256 MiB (evaluator.worker_memory_mb)"),
            std::string::npos)
      << r.error.message;
  EXPECT_TRUE(r.worker_replaced);
  EXPECT_EQ(pool.stats().resource_limits, 1u);

  auto next = pool.call("pid", json::object(), 5s);
  ASSERT_TRUE(next.ok()) << next.describe();
  int in_cgroups = 0;
  for (const auto& e : fs::directory_iterator(parent)) {
    if (slurp(e.path() / "cgroup.procs") == std::to_string(next.body["pid"].get<int>())) {
      ++in_cgroups;
      EXPECT_NE(e.path(), cgroup) << "the new worker gets a new cgroup";
    }
  }
  EXPECT_EQ(in_cgroups, 1);
}

// A SIGKILL without an OOM event stays a crash.
TEST_F(FakeCgroupTree, KillWithoutOomEventIsACrash) {
  const fs::path parent = svc_ / "passforge-workers-test";
  fs::create_directories(parent);
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.limits.memory_mb = 256;
  options.cgroup_parent = parent;
  auto started = WorkerPool::start(options);
  ASSERT_TRUE(started.ok()) << started.error().message;
  auto& pool = **started;
  auto first = pool.call("pid", json::object(), 5s);
  ASSERT_TRUE(first.ok()) << first.describe();
  auto reply = std::async(std::launch::async, [&] {
    return pool.call("sleep", json{{"ms", 20'000}}, 30s);
  });
  std::this_thread::sleep_for(200ms);
  ::kill(first.body["pid"].get<int>(), SIGKILL);
  auto r = reply.get();
  EXPECT_EQ(r.status, ReplyStatus::crashed) << r.describe();
}

// The real kernel: a cgroup2 file system mounted by the test.
class RealCgroup2 : public ::testing::Test {
 protected:
  void SetUp() override {
    mnt_ = fs::temp_directory_path() / ("pf_cgroup2_" + std::to_string(::getpid()));
    fs::create_directories(mnt_);
    if (::mount("none", mnt_.c_str(), "cgroup2", 0, nullptr) != 0) {
      const int err = errno;
      fs::remove(mnt_);
      GTEST_SKIP() << "cannot mount a cgroup2 file system here: " << std::strerror(err)
                   << " (needs root and a kernel that allows it)";
    }
    mounted_ = true;
    test_ = mnt_ / ("passforge-test-" + std::to_string(::getpid()));
    ASSERT_EQ(::mkdir(test_.c_str(), 0755), 0) << std::strerror(errno);
  }
  void TearDown() override {
    if (!mounted_) return;
    for (int i = 0; i < 2; ++i) {
      std::error_code ec;
      for (fs::directory_iterator it(test_, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_directory(ec)) ::rmdir(it->path().c_str());
      }
    }
    ::rmdir(test_.c_str());
    ::umount2(mnt_.c_str(), MNT_DETACH);
    ::rmdir(mnt_.c_str());
  }
  bool memory_available() const {
    return slurp(mnt_ / "cgroup.subtree_control").find("memory") != std::string::npos;
  }

  fs::path mnt_, test_;
  bool mounted_ = false;
};

TEST_F(RealCgroup2, ProcessMovesInAndTheCgroupIsRemovedWhenItEnds) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (;;) ::pause();
  }
  ASSERT_TRUE(write_cgroup_file(test_ / "cgroup.procs", std::to_string(child)).ok());
  EXPECT_EQ(slurp(test_ / "cgroup.procs"), std::to_string(child) + "\n");
  EXPECT_NE(::rmdir(test_.c_str()), 0) << "a populated cgroup cannot be removed";
  ::kill(child, SIGKILL);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  EXPECT_EQ(slurp(test_ / "cgroup.procs"), "");
  EXPECT_EQ(::rmdir(test_.c_str()), 0) << std::strerror(errno);
  ASSERT_EQ(::mkdir(test_.c_str(), 0755), 0);
}

// Attack: a worker rewriting cgroup files to leave its cgroup or raise its
// memory.max. Defence: Landlock (writes only under scratch and the cache).
// Expected: refused at open(); the control without isolation gets past
// open() (and the kernel then rejects the bytes it writes).
TEST_F(RealCgroup2, AWorkerCannotWriteCgroupFiles) {
  for (const bool isolation : {true, false}) {
    SCOPED_TRACE(isolation ? "isolated" : "control without isolation");
    WorkerPoolOptions options;
    options.worker_path = PF_TEST_WORKER;
    options.isolation = isolation;
    auto pool = WorkerPool::start(options);
    ASSERT_TRUE(pool.ok()) << pool.error().message;
    if (isolation && !(*pool)->isolation_report().applied(kLandlockFs)) {
      GTEST_SKIP() << "defence unavailable on this machine: Landlock is not applied";
    }
    for (const auto& file :
         {mnt_ / "cgroup.procs", test_ / "cgroup.procs", test_ / "cgroup.subtree_control"}) {
      auto r = (*pool)->call("write_file", json{{"path", file.string()}, {"bytes", 1}}, 5s);
      if (isolation) {
        EXPECT_EQ(r.status, ReplyStatus::error) << r.describe();
        EXPECT_EQ(r.error.message.rfind("open(" + file.string(), 0), 0u) << r.error.message;
        EXPECT_NE(r.error.message.find("EACCES"), std::string::npos) << r.error.message;
      } else {
        EXPECT_EQ(r.error.message.find("open("), std::string::npos) << r.describe();
      }
    }
  }
}

TEST_F(RealCgroup2, ProbeOfThisProcessSaysWhy) {
  // Whatever this machine offers, the decision is explained; on hosts whose
  // memory controller belongs to a v1 hierarchy it says so.
  const auto sources = CgroupSources::of_this_process();
  const auto d = probe_cgroup_delegation(sources);
  EXPECT_FALSE(d.reason.empty());
  if (!d.usable && sources.proc_self_cgroup.find(":memory:") != std::string::npos &&
      !memory_available()) {
    EXPECT_NE(d.reason.find("bound to a cgroup v1 hierarchy"), std::string::npos) << d.reason;
  }
}

TEST_F(RealCgroup2, WorkerCgroupNeedsTheMemoryController) {
  if (memory_available()) GTEST_SKIP() << "the memory controller is available here";
  auto cg = WorkerCgroup::create(test_, "worker-0", 64ull << 20);
  ASSERT_FALSE(cg.ok());
  EXPECT_NE(cg.error().message.find("memory.max"), std::string::npos) << cg.error().message;
}

// Attack: a memory bomb in a GPU-style worker (no RLIMIT_DATA) with the
// pool's RssAnon watch made too slow to matter: the cgroup alone must end it.
TEST_F(RealCgroup2, MemoryBombIsEndedByTheKernelAsAResourceLimit) {
  if (!memory_available()) {
    GTEST_SKIP() << "the memory controller is not in this cgroup2 hierarchy (root "
                    "cgroup.subtree_control: '"
                 << slurp(mnt_ / "cgroup.subtree_control")
                 << "'; it may be bound to a cgroup v1 hierarchy)";
  }
  ASSERT_TRUE(write_cgroup_file(test_ / "cgroup.subtree_control", "+memory").ok());
  WorkerPoolOptions options;
  options.worker_path = PF_TEST_WORKER;
  options.gpu_devices = {"no-such-gpu"};
  options.limits.memory_mb = 256;
  options.memory_poll = std::chrono::minutes(10);
  options.cgroup_parent = test_;
  auto started = WorkerPool::start(options);
  ASSERT_TRUE(started.ok()) << started.error().message;
  const auto start = std::chrono::steady_clock::now();
  auto r = (*started)->call("grow", json{{"bytes", uint64_t{8} << 30}}, 60s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(r.status, ReplyStatus::resource_limit) << r.describe();
  EXPECT_NE(r.error.message.find("memory.max of 256 MiB"), std::string::npos) << r.error.message;
  auto ok = (*started)->call("grow", json{{"bytes", uint64_t{64} << 20}}, 10s);
  EXPECT_TRUE(ok.ok()) << "growth under the limit: " << ok.describe();
  started->reset();
  int left = 0;
  for (const auto& e : fs::directory_iterator(test_)) left += e.is_directory() ? 1 : 0;
  EXPECT_EQ(left, 0) << "every worker's cgroup is removed when the worker is reaped";
}

}  // namespace
}  // namespace pf::sandbox
