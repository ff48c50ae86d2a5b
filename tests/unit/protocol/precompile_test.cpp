// The CPU/GPU split of full evaluations (evaluator.cpu_precompile): compile,
// match and dry-run on CPU workers first; a candidate that fails there never
// reaches a GPU worker, and one that passes finds its kernels in the shared
// compile cache, so the GPU worker compiles nothing. Runs without a GPU: the
// "GPU" pool is then a worker started with CUDA_VISIBLE_DEVICES=0 that finds
// no device, refuses `full` and answers the compile-only fallback, whose
// compile shows the cache hits just the same. With a GPU the same tests run
// the real full evaluation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "common/fs.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/protocol/full_evaluation.h"
#include "evaluator/protocol/result_score.h"
#include "sandbox/cuda/device_limits_json.h"
#include "sandbox/cuda/device_properties.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"
#include "worker/pass_handler.h"

namespace pf::protocol {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kRope = "neg-cat-mul-add-6a5c9e";
const char* kSoftmax = "add-softmax-dropout-a73f2b";

// The arch the CPU workers compile for: the GPU's where there is one.
std::string gpu_arch() {
  if (auto driver = pf::test::gpu_driver()) {
    if (auto props = cuda::query_device_properties(*driver, 0); props.ok()) return props->arch();
  }
  return "sm_90";
}

class Precompile : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/pf-precompile-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    cache_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(cache_, ec);
  }

  Result<std::unique_ptr<EvaluationService>> service(bool precompile) {
    ServiceOptions so;
    so.plan.mode = EvalMode::full;
    so.plan.devices = {"0"};
    so.plan.gpu_arch = gpu_arch();
    so.pool.worker_path = pf::test::worker_path();
    so.pool.cache_dir = cache_;
    so.timeout = std::chrono::seconds(120);
    so.cpu_precompile = precompile;
    so.precompile_workers = 1;
    return EvaluationService::start(std::move(so));
  }

  size_t cache_entries() const {
    size_t n = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(cache_, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      n += it->is_regular_file() ? 1 : 0;
    }
    return n;
  }

  fs::path cache_;
};

std::map<std::string, std::string> example_files(const std::string& id) {
  auto ws = passes::PassWorkspace::load(pf::test::source_dir() / "examples" / "passes" / id);
  EXPECT_TRUE(ws.ok()) << ws.error().message;
  return ws.ok() ? ws->files() : std::map<std::string, std::string>{};
}

// The rope pass with a syntax error in its kernel file.
std::map<std::string, std::string> broken_rope() {
  auto files = example_files(kRope);
  files["kernels/rope.cu"] += "\nthis is not CUDA;\n";
  return files;
}

TEST_F(Precompile, ACompileFailureNeverReachesTheGpuWorker) {
  auto task = passes::test::corpus_task(kRope, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto svc = service(true);
  ASSERT_TRUE(svc.ok()) << svc.error().message;
  ASSERT_NE((*svc)->precompile_pool(), nullptr);
  auto r = (*svc)->evaluate(*task, broken_rope(), EvalMode::full);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->mode, EvalMode::full);
  EXPECT_TRUE(r->precompiled);
  EXPECT_FALSE(r->gpu);
  EXPECT_EQ(r->result["mode"], "full");
  EXPECT_EQ(r->result["failure_class"], "compile_fail");
  EXPECT_FALSE(r->result["ok"].get<bool>());
  // Nothing compiled, so no variant was matched (as in the GPU worker's result).
  EXPECT_TRUE(r->result["variants"].empty()) << r->result["variants"].dump();
  EXPECT_TRUE(r->result["options"]["seed"].is_number_integer());
  EXPECT_TRUE(r->result["as"].is_number()) << "scored like any full result";
  EXPECT_EQ((*svc)->load().slots.at(0).requests, 0u) << "the GPU worker got a request";
  EXPECT_EQ((*svc)->stats().precompiled, 1u);
  EXPECT_EQ((*svc)->stats().kept_off_gpu, 1u);
  EXPECT_EQ(r->result["protocol_version"], kEvalProtocolVersion);
}

TEST_F(Precompile, TheGpuWorkerCompilesNothingTheCpuWorkerCompiled) {
  auto task = passes::test::corpus_task(kRope, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto svc = service(true);
  ASSERT_TRUE(svc.ok()) << svc.error().message;
  auto r = (*svc)->evaluate(*task, example_files(kRope), EvalMode::full);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->precompiled);
  EXPECT_TRUE(r->gpu);
  EXPECT_GT(cache_entries(), 0u) << "the CPU worker stored nothing in " << cache_;
  EXPECT_EQ((*svc)->load().slots.at(0).requests, static_cast<uint64_t>(r->requests - 1));
  const json& compile = r->result["compile"];
  ASSERT_TRUE(compile.is_object()) << r->result.dump(1).substr(0, 2000);
  EXPECT_EQ(compile["status"], "ok");
  EXPECT_EQ(compile["cache_misses"], 0) << "the GPU-side worker compiled: " << compile.dump();
  EXPECT_EQ(compile["cache_hits"], 1) << compile.dump();
  if (pf::test::gpu_unavailable_reason().empty()) {
    EXPECT_EQ(r->mode, EvalMode::full);
    EXPECT_TRUE(r->result["as"].is_number());
  } else {
    EXPECT_EQ(r->mode, EvalMode::compile_only);  // the fallback of a worker without a GPU
  }
  EXPECT_EQ((*svc)->stats().kept_off_gpu, 0u);
}

TEST_F(Precompile, OffSendsEverythingToTheGpuWorker) {
  auto task = passes::test::corpus_task(kRope, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto svc = service(false);
  ASSERT_TRUE(svc.ok()) << svc.error().message;
  EXPECT_EQ((*svc)->precompile_pool(), nullptr);
  auto r = (*svc)->evaluate(*task, broken_rope(), EvalMode::full);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->precompiled);
  EXPECT_TRUE(r->gpu);
  EXPECT_EQ(r->result["failure_class"], "compile_fail");
  EXPECT_GE((*svc)->load().slots.at(0).requests, 1u);
  EXPECT_EQ((*svc)->stats().precompiled, 0u);
}

TEST_F(Precompile, NeedsTheGpuArchAndACache) {
  ServiceOptions so;
  so.plan.mode = EvalMode::full;
  so.plan.devices = {"0"};
  so.pool.worker_path = pf::test::worker_path();
  so.pool.cache_dir = cache_;
  auto no_arch = EvaluationService::start(so);
  ASSERT_TRUE(no_arch.ok()) << no_arch.error().message;
  EXPECT_EQ((*no_arch)->precompile_pool(), nullptr);
  so.plan.gpu_arch = "sm_90";
  so.pool.cache_dir.clear();
  auto no_cache = EvaluationService::start(so);
  ASSERT_TRUE(no_cache.ok()) << no_cache.error().message;
  EXPECT_EQ((*no_cache)->precompile_pool(), nullptr);
}

// full_result_without_gpu on compile-only results made in process.
Result<json> compile_only_json(const std::string& task_id,
                               const std::map<std::string, std::string>& files) {
  PF_ASSIGN(Task task, passes::test::corpus_task(task_id, false));
  PF_ASSIGN(auto ws, passes::PassWorkspace::from_files(files, {}));
  PF_ASSIGN(passes::KernelCompiler compile, passes::test::nvrtc_compile_function());
  ProtocolOptions options;
  PF_ASSIGN(auto co, passes::evaluate_compile_only(task, ws, compile, OpRegistry::builtin(),
                                                   compile_only_options(options)));
  return co.to_json();
}

TEST(FullResultWithoutGpu, WholeFailureIsNotEvaluatedAndScored) {
  auto co = compile_only_json(kRope, broken_rope());
  if (!co.ok()) GTEST_SKIP() << "NVRTC: " << co.error().message;
  ProtocolOptions options;
  options.seed = 7;
  auto full = full_result_without_gpu(*co, options, 12.5);
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ((*full)["mode"], "full");
  EXPECT_EQ((*full)["failure_class"], "compile_fail");
  EXPECT_EQ((*full)["options"]["seed"], 7);
  EXPECT_EQ((*full)["phases_ms"]["compile_and_match"], 12.5);
  EXPECT_FALSE(full->contains("device"));
  json rescored = *full;
  score_result(rescored, options);
  EXPECT_EQ(rescored, *full) << "not scored the way the orchestrator scores";
}

TEST(FullResultWithoutGpu, EveryVariantMissedIsDecidedAndOneMatchIsNot) {
  // The softmax task's pass matches nothing on the rope task.
  auto missed = compile_only_json(kRope, example_files(kSoftmax));
  if (!missed.ok()) GTEST_SKIP() << "NVRTC: " << missed.error().message;
  ASSERT_TRUE((*missed)["failure_class"].is_null()) << missed->dump(1).substr(0, 2000);
  auto full = full_result_without_gpu(*missed, ProtocolOptions{}, 1);
  ASSERT_TRUE(full.has_value());
  for (const auto& v : (*full)["variants"]) {
    EXPECT_TRUE(v["evaluated"].get<bool>());
    EXPECT_FALSE(v["correct"].get<bool>());
    EXPECT_EQ(v["failure_class"], "pass_miss");
  }
  EXPECT_EQ((*full)["correct_rate"], 0.0);

  auto matched = compile_only_json(kRope, example_files(kRope));
  ASSERT_TRUE(matched.ok()) << matched.error().message;
  EXPECT_FALSE(full_result_without_gpu(*matched, ProtocolOptions{}, 1).has_value())
      << "a candidate whose variants match must go to the GPU";
}

// The GPU's launch limits travel to the CPU workers as JSON; a malformed
// object is refused rather than read as some other GPU.
TEST(DeviceLimitsJson, RoundTripsAndRefusesMalformed) {
  cuda::DeviceLimits l;
  l.max_threads_per_block = 512;
  l.max_block_dims = {512, 256, 32};
  l.max_grid_dims = {1000, 2000, 3000};
  l.max_smem_per_block = 1234;
  l.max_smem_per_block_optin = 99999;
  auto back = cuda::limits_from_json(cuda::limits_to_json(l));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->max_threads_per_block, 512);
  EXPECT_EQ(back->max_block_dims, l.max_block_dims);
  EXPECT_EQ(back->max_grid_dims, l.max_grid_dims);
  EXPECT_EQ(back->max_smem_per_block, 1234);
  EXPECT_EQ(back->max_smem_per_block_optin, 99999);
  json bad = cuda::limits_to_json(l);
  bad["max_block_dims"] = json::array({512, 256});
  EXPECT_FALSE(cuda::limits_from_json(bad).ok());
  bad = cuda::limits_to_json(l);
  bad["max_smem_per_block_optin"] = -1;
  auto refused = cuda::limits_from_json(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("max_smem_per_block_optin"), std::string::npos);
  EXPECT_FALSE(cuda::limits_from_json(json("sm_90")).ok());
}

// A CPU worker dry-runs against the limits it is sent (the GPU's), not its
// default ones: with a one-thread limit every launch of the rope pass fails.
TEST(DeviceLimitsJson, ACompileOnlyRequestDryRunsAgainstTheLimitsItIsSent) {
  auto task = passes::test::corpus_task(kRope, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  worker::CompileService service({});
  json body = to_json(EvalRequest{*task, example_files(kRope), EvalMode::compile_only,
                                  json{{"arch", "sm_90"}}, std::nullopt});
  auto plain = worker::handle_evaluate(body, service);
  if (!plain.ok()) GTEST_SKIP() << "NVRTC: " << plain.error().message;
  ASSERT_TRUE((*plain)["ok"].get<bool>()) << (*plain)["message"];
  cuda::DeviceLimits one_thread;
  one_thread.max_threads_per_block = 1;
  one_thread.max_block_dims = {1, 1, 1};
  body["options"]["device_limits"] = cuda::limits_to_json(one_thread);
  auto limited = worker::handle_evaluate(body, service);
  ASSERT_TRUE(limited.ok()) << limited.error().message;
  EXPECT_FALSE((*limited)["ok"].get<bool>());
  for (const auto& v : (*limited)["variants"]) {
    EXPECT_TRUE(v["failure_class"].is_string()) << v.dump();
  }
  body["options"]["device_limits"] = "sm_90";
  auto refused = worker::handle_evaluate(body, service);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace pf::protocol
