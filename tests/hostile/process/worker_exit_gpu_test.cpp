// passforge-worker must exit cleanly after GPU work. The GPU test binaries
// crashed at exit (status 139, after every test passed) because objects that
// hold cuBLAS/cuDNN handles were destroyed by static destructors after those
// dlopen'ed libraries had torn down their own state; the worker's eager
// baseline runtime was such an object, and the pool's SIGKILL hid the crash.
// Here the worker is spawned directly, runs a full evaluation whose baseline
// uses cuBLAS (a matmul), is asked to shut down, and must exit with status 0.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "evaluator/protocol/eval_messages.h"
#include "evaluator/tasks/task.h"
#include "sandbox/ipc/frame.h"
#include "sandbox/ipc/protocol.h"
#include "sandbox/pool/worker_process.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"

extern char** environ;

namespace pf::sandbox {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

json matmul_task() {
  Task t;
  t.id = "mm";
  TaskVariant v;
  v.name = "v";
  v.source = "def forward(in_0, in_1):\n    t = torch.matmul(in_0, in_1)\n    return (t,)\n";
  InputMeta a;
  a.name = "in_0";
  a.shape = {8, 16};
  InputMeta b;
  b.name = "in_1";
  b.shape = {16, 4};
  v.inputs = {a, b};
  t.variants = {v};
  return task_to_json(t);
}

const json kFiles = {
    {"passes/Matmul.py",
     "import torch\n\n\ndef pattern(a, b):\n    return torch.matmul(a, b)\n\n\n"
     "def replacement(a, b):\n"
     "    out = torch.empty(a.shape[0], b.shape[1], dtype=a.dtype)\n"
     "    launch(\"mm\", grid=1, block=(b.shape[1], a.shape[0]), "
     "args=(a, b, out, a.shape[0], a.shape[1], b.shape[1]))\n"
     "    return out\n"},
    {"kernels/mm.cu",
     "extern \"C\" __global__ void mm(const float* a, const float* b, float* c, int m, int k,\n"
     "                              int n) {\n"
     "  int i = threadIdx.y, j = threadIdx.x;\n"
     "  if (i >= m || j >= n) return;\n"
     "  float s = 0.f;\n"
     "  for (int p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];\n"
     "  c[i * n + j] = s;\n"
     "}\n"}};

Result<ipc::Reply> exchange(WorkerProcess& worker, uint64_t id, const std::string& type,
                            const json& body) {
  const Deadline deadline = deadline_in(120s);
  PF_TRY(ipc::write_frame(worker.ipc_fd(), ipc::encode_request({id, type, body, {}}), deadline));
  PF_ASSIGN(json message, ipc::read_frame(worker.ipc_fd(), deadline));
  return ipc::decode_reply(message);
}

TEST(WorkerExit, GpuWorkerExitsCleanlyAfterAFullEvaluation) {
  PF_REQUIRE_GPU();
  const fs::path dir = fs::temp_directory_path() / ("pf_worker_exit_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "scratch");
  SpawnSpec spec;
  spec.executable = pf::test::worker_path();
  spec.args = {"--scratch", (dir / "scratch").string(), "--cache", (dir / "cache").string()};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("CUDA_VISIBLE_DEVICES=", 0) != 0) spec.env.emplace_back(*e);
  }
  spec.env.emplace_back("CUDA_VISIBLE_DEVICES=0");
  spec.log_path = dir / "worker.log";
  auto worker = WorkerProcess::spawn(spec);
  ASSERT_TRUE(worker.ok()) << worker.error().message;

  auto hello = exchange(**worker, 1, ipc::kHello, json{{"protocol", ipc::kProtocolVersion}});
  ASSERT_TRUE(hello.ok() && hello->ok)
      << (hello.ok() ? hello->error.message : hello.error().message) << "\n"
      << (*worker)->log_tail(4096);
  json body = {{protocol::field::kProtocolVersion, protocol::kEvalProtocolVersion},
               {"task", matmul_task()},
               {"files", kFiles},
               {"mode", "full"}};
  auto evaluated = exchange(**worker, 2, "evaluate", body);
  ASSERT_TRUE(evaluated.ok()) << evaluated.error().message << "\n" << (*worker)->log_tail(4096);
  ASSERT_TRUE(evaluated->ok) << evaluated->error.message;
  ASSERT_EQ(evaluated->body["variants"].size(), 1u) << evaluated->body.dump(2);
  EXPECT_TRUE(evaluated->body["variants"][0].value("evaluated", false))
      << "the baseline (cuBLAS) must have run: " << evaluated->body.dump(2);

  auto bye = exchange(**worker, 3, ipc::kShutdown, json::object());
  ASSERT_TRUE(bye.ok() && bye->ok) << (bye.ok() ? bye->error.message : bye.error().message);
  auto exit = (*worker)->wait_exit(30s);
  ASSERT_TRUE(exit.has_value()) << "the worker did not exit after shutdown";
  EXPECT_FALSE(exit->signaled) << exit->describe() << "\n" << (*worker)->log_tail(4096);
  EXPECT_EQ(exit->exit_code, 0) << exit->describe() << "\n" << (*worker)->log_tail(4096);
  worker->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pf::sandbox
