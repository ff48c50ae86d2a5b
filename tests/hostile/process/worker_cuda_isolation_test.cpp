// Isolation must not break the worker's real work: NVRTC compiles (with the
// on-disk cache) inside a fully isolated passforge-worker, and on a GPU the
// CUDA driver loads the compiled module there ("param_source": "device").
// On failure the GPU case reports which single mechanism, switched off,
// makes CUDA work again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "sandbox/pool/worker_pool.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"

namespace pf::sandbox {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

const json kKernel = {
    {"files",
     {{"kernels/scale.cu",
       "extern \"C\" __global__ void scale(float* out, const float* in, float a, int n) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
       "  if (i < n) out[i] = a * in[i];\n"
       "}\n"}}}};

struct Outcome {
  std::string summary;
  std::string param_source;
  WorkerReply reply;
};

Outcome compile_in_worker(const std::vector<std::string>& gpus,
                          const std::vector<std::string>& worker_args,
                          const std::filesystem::path& cache_dir) {
  WorkerPoolOptions options;
  options.worker_path = pf::test::worker_path();
  options.gpu_devices = gpus;
  options.worker_args = worker_args;
  options.cache_dir = cache_dir;
  Outcome out;
  auto pool = WorkerPool::start(options);
  if (!pool.ok()) {
    out.summary = "pool did not start: " + pool.error().message;
    return out;
  }
  out.reply = (*pool)->call("compile", kKernel, 60s);
  if (out.reply.ok()) out.param_source = out.reply.body.value("param_source", std::string());
  auto described = (*pool)->call("describe", json::object(), 60s);
  std::string device = described.ok() && described.body.contains("device")
                           ? described.body["device"].dump()
                           : "? (" + described.describe() + ")";
  std::string gaps;
  for (const auto& gap : (*pool)->isolation_report().gaps()) gaps += "\n    " + gap;
  out.summary = out.reply.describe() + ", compile status " +
                (out.reply.ok() ? out.reply.body.value("status", std::string("?")) : "-") +
                ", param_source " + (out.param_source.empty() ? "-" : out.param_source) +
                ", device " + device +
                (gaps.empty() ? ", isolation complete" : ", isolation gaps:" + gaps);
  return out;
}

std::filesystem::path fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(WorkerCudaIsolation, NvrtcCompilesAndCachesInsideTheIsolatedWorker) {
  auto cache = fresh_dir("pf-isolated-cache");
  auto first = compile_in_worker({}, {}, cache);
  ASSERT_TRUE(first.reply.ok()) << first.summary << "\n" << first.reply.stderr_tail;
  if (first.reply.body.value("status", std::string()) != "ok") {
    GTEST_SKIP() << "NVRTC cannot compile here: " << first.reply.body.dump();
  }
  EXPECT_EQ(first.reply.body["cache"]["misses"], 1) << first.reply.body.dump();
  auto second = compile_in_worker({}, {}, cache);
  ASSERT_TRUE(second.reply.ok()) << second.summary;
  EXPECT_EQ(second.reply.body["cache"]["hits"], 1)
      << "the NVRTC cache must be readable and writable under Landlock: "
      << second.reply.body.dump();
  std::filesystem::remove_all(cache);
}

TEST(WorkerCudaIsolation, CudaDriverWorksInsideTheIsolatedGpuWorker) {
  PF_REQUIRE_GPU();
  const std::vector<std::pair<std::string, std::vector<std::string>>> configs = {
      {"full isolation", {}},
      {"without user namespace", {"--no-user-namespace"}},
      {"without network namespace", {"--no-network-namespace"}},
      {"without Landlock", {"--no-landlock"}},
      {"without seccomp", {"--no-seccomp"}},
      {"without rlimits", {"--no-rlimits"}},
      {"no isolation", {"--no-isolation"}},
      // One mechanism at a time: when two break CUDA, the rows above cannot say which.
      {"only user namespace",
       {"--no-network-namespace", "--no-landlock", "--no-seccomp", "--no-rlimits"}},
      {"only network namespace",
       {"--no-user-namespace", "--no-landlock", "--no-seccomp", "--no-rlimits"}},
      {"only Landlock",
       {"--no-user-namespace", "--no-network-namespace", "--no-seccomp", "--no-rlimits"}},
      {"only seccomp",
       {"--no-user-namespace", "--no-network-namespace", "--no-landlock", "--no-rlimits"}},
      {"only rlimits",
       {"--no-user-namespace", "--no-network-namespace", "--no-landlock", "--no-seccomp"}},
      // Which part of a mechanism CUDA needs (Landlock: a read or a write
      // outside the allowlist; seccomp: which group of denied calls).
      {"only Landlock + read /",
       {"--no-user-namespace", "--no-network-namespace", "--no-seccomp", "--no-rlimits",
        "--allow-read", "/"}},
      {"only Landlock + write /",
       {"--no-user-namespace", "--no-network-namespace", "--no-seccomp", "--no-rlimits",
        "--allow-write", "/"}},
      {"only Landlock + write /dev/shm /tmp",
       {"--no-user-namespace", "--no-network-namespace", "--no-seccomp", "--no-rlimits",
        "--allow-write", "/dev/shm", "--allow-write", "/tmp"}},
      {"only seccomp + sockets",
       {"--no-user-namespace", "--no-network-namespace", "--no-landlock", "--no-rlimits",
        "--seccomp-allow", "socket", "--seccomp-allow", "socketpair", "--seccomp-allow", "connect",
        "--seccomp-allow", "bind", "--seccomp-allow", "listen", "--seccomp-allow", "accept",
        "--seccomp-allow", "accept4"}},
      {"only seccomp + processes",
       {"--no-user-namespace", "--no-network-namespace", "--no-landlock", "--no-rlimits",
        "--seccomp-allow", "fork", "--seccomp-allow", "vfork", "--seccomp-allow", "execve",
        "--seccomp-allow", "execveat", "--seccomp-allow", "clone", "--seccomp-allow", "clone3"}},
      {"only seccomp + signals, prlimit, pidfd, tkill",
       {"--no-user-namespace", "--no-network-namespace",
        "--no-landlock",       "--no-rlimits",
        "--seccomp-allow",     "kill",
        "--seccomp-allow",     "tgkill",
        "--seccomp-allow",     "tkill",
        "--seccomp-allow",     "rt_sigqueueinfo",
        "--seccomp-allow",     "rt_tgsigqueueinfo",
        "--seccomp-allow",     "prlimit64",
        "--seccomp-allow",     "pidfd_open",
        "--seccomp-allow",     "pidfd_send_signal",
        "--seccomp-allow",     "pidfd_getfd"}},
      {"only seccomp + kernel surface", {"--no-user-namespace", "--no-network-namespace",
                                         "--no-landlock",       "--no-rlimits",
                                         "--seccomp-allow",     "bpf",
                                         "--seccomp-allow",     "perf_event_open",
                                         "--seccomp-allow",     "keyctl",
                                         "--seccomp-allow",     "add_key",
                                         "--seccomp-allow",     "request_key",
                                         "--seccomp-allow",     "userfaultfd",
                                         "--seccomp-allow",     "io_uring_setup",
                                         "--seccomp-allow",     "io_uring_enter",
                                         "--seccomp-allow",     "io_uring_register",
                                         "--seccomp-allow",     "fanotify_init",
                                         "--seccomp-allow",     "kcmp",
                                         "--seccomp-allow",     "ptrace",
                                         "--seccomp-allow",     "process_vm_readv",
                                         "--seccomp-allow",     "process_vm_writev"}},
      {"only no_new_privs",
       {"--no-user-namespace", "--no-network-namespace", "--no-landlock", "--no-seccomp",
        "--no-rlimits"}},
  };
  std::string table;
  std::map<std::string, Outcome> outcomes;
  for (const auto& [name, args] : configs) {
    auto cache = fresh_dir("pf-gpu-isolation-cache");
    auto outcome = compile_in_worker({"0"}, args, cache);
    std::filesystem::remove_all(cache);
    table += "  " + name + ": " + outcome.summary + "\n";
    outcomes[name] = std::move(outcome);
  }
  // Printed in every run: the GPU machine's log records what each mechanism does to CUDA.
  std::cout << "CUDA inside the worker, by isolation configuration:\n" << table;
  ASSERT_EQ(outcomes["no isolation"].param_source, "device")
      << "CUDA fails even without isolation: not an isolation problem\n"
      << table;
  EXPECT_EQ(outcomes["full isolation"].param_source, "device")
      << "isolation breaks CUDA; the configurations that work name the culprit:\n"
      << table;
  EXPECT_EQ(outcomes["full isolation"].summary.find("isolation gaps"), std::string::npos)
      << "a GPU worker must get every mechanism:\n"
      << table;
}

}  // namespace
}  // namespace pf::sandbox
