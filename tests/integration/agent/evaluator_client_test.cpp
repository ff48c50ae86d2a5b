// EvaluatorClient over an EvaluationService of real passforge-worker processes: `compile` is
// always compile-only; a run in full mode gets full evaluations where the
// workers can run them, otherwise it falls back to compile-only once for the
// rest of the run, and every record names the mode the worker really ran.
#include "agent/loop/evaluator_client.h"

#include <gtest/gtest.h>

#include "evaluator/tasks/task.h"
#include "tests/integration/agent/episode_harness.h"

namespace pf::testing {
namespace {

namespace fs = std::filesystem;

const traj::Workspace kWorkspace = {
    {"passes/FuseAddRelu.py",
     "def pattern(a, b):\n    return torch.relu(a + b)\n\n\n"
     "def replacement(a, b):\n    out = torch.empty_like(a)\n    n = a.numel()\n"
     "    launch(\"add_relu\", grid=cdiv(n, 256), block=256, args=(a, b, out, n))\n"
     "    return out\n"},
    {"kernels/add_relu.cu",
     "extern \"C\" __global__ void add_relu(const float* a, const float* b, float* out, long long "
     "n) "
     "{\n  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
     "  if (i < n) out[i] = fmaxf(a[i] + b[i], 0.f);\n}\n"}};

struct ServiceFixture {
  fs::path dir = make_temp_dir("pf_eval_client");
  std::unique_ptr<protocol::EvaluationService> service;
  explicit ServiceFixture(protocol::EvalMode mode) {
    protocol::ServiceOptions so;
    so.plan.mode = mode;
    so.pool.worker_path = std::string(PF_BINARY_DIR) + "/passforge-worker";
    so.pool.cpu_workers = 1;
    so.pool.work_dir = dir / "workers";
    so.pool.cache_dir = dir / "nvrtc-cache";
    so.timeout = std::chrono::seconds(120);
    auto s = protocol::EvaluationService::start(std::move(so));
    EXPECT_TRUE(s.ok()) << s.error().message;
    if (s.ok()) service = std::move(s).value();
  }
  ~ServiceFixture() {
    service.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(EvaluatorClient, CompileOnlyRunRecordsCompileOnlyForEveryKind) {
  ServiceFixture f(protocol::EvalMode::compile_only);
  ASSERT_TRUE(f.service);
  agent::EvaluatorClient client(*f.service);
  const Task task = tiny_task();
  for (auto kind : {traj::EvalKind::compile, traj::EvalKind::evaluate, traj::EvalKind::submit}) {
    auto out = client.evaluate(task, kWorkspace, kind);
    ASSERT_TRUE(out.evaluated) << out.unavailable;
    EXPECT_EQ(out.record.mode, traj::EvalMode::compile_only);
    EXPECT_EQ(out.record.kind, kind);
    EXPECT_EQ(out.record.result["mode"], "compile_only");
    EXPECT_EQ(out.record.result["protocol_version"], protocol::kEvalProtocolVersion);
    EXPECT_EQ(out.record.workspace, kWorkspace);
    EXPECT_EQ(out.record.failure_classes, nlohmann::json::array())
        << out.record.result.dump().substr(0, 2000);
  }
  EXPECT_FALSE(client.fell_back());
}

TEST(EvaluatorClient, FullRunUsesWhatTheWorkersCanDoAndRecordsIt) {
  ServiceFixture f(protocol::EvalMode::full);
  ASSERT_TRUE(f.service);
  agent::EvaluatorClient client(*f.service);
  const Task task = tiny_task();

  auto compiled = client.evaluate(task, kWorkspace, traj::EvalKind::compile);
  ASSERT_TRUE(compiled.evaluated) << compiled.unavailable;
  EXPECT_EQ(compiled.record.mode, traj::EvalMode::compile_only) << "compile never runs kernels";
  EXPECT_FALSE(client.fell_back()) << "a compile request says nothing about full mode";

  auto evaluated = client.evaluate(task, kWorkspace, traj::EvalKind::evaluate);
  ASSERT_TRUE(evaluated.evaluated) << evaluated.unavailable;
  // CPU-only workers (this pool has no GPU worker) cannot run `full`: the
  // service falls back and the record says so; a worker that runs it records full.
  const traj::EvalMode ran = evaluated.record.mode;
  EXPECT_EQ(evaluated.record.result["mode"], traj::to_string(ran));
  EXPECT_EQ(client.fell_back(), ran == traj::EvalMode::compile_only);
  EXPECT_EQ(client.mode(), ran);
  auto submitted = client.evaluate(task, kWorkspace, traj::EvalKind::submit);
  ASSERT_TRUE(submitted.evaluated) << submitted.unavailable;
  EXPECT_EQ(submitted.record.mode, ran) << "the fallback holds for the rest of the run";
}

}  // namespace
}  // namespace pf::testing
