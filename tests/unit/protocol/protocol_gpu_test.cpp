// On a GPU (skips without one): the full protocol end to end.
//   - every reference pass (examples/passes) on every variant of its corpus
//     task (float16/bfloat16 copies included): correct, no hack flag, inputs
//     and re-run outputs checked on the device (host_traffic), and at
//     least one pass clearly faster than eager (honest-pass check: the
//     false-positive rate of the integrity flags is 0);
//   - a crash in the middle of a task, through a real sandboxed GPU worker
//     pool: the crashing variant is runtime_fail / timeout, every other
//     variant is evaluated after the restart;
//   - reproducibility: the same pass evaluated 5 times, AS spread printed and
//     bounded;
//   - the input-draw memo: a fixed seed draws each input set once per worker;
//   - the CPU/GPU split (evaluator.cpu_precompile): the same seed gives the
//     same verdicts with the split on and off, the GPU worker compiles
//     nothing after the CPU worker did, and a candidate that does not compile
//     never reaches the GPU worker.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/evaluation_plan.h"
#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/protocol/input_draw_cache.h"
#include "sandbox/cuda/device_limits_json.h"
#include "sandbox/cuda/device_properties.h"
#include "tests/support/gpu.h"
#include "tests/support/paths.h"
#include "tests/unit/passes/pass_test_util.h"
#include "tests/unit/protocol/protocol_test_util.h"

namespace pf::protocol::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

fs::path hacks_dir() {
  return pf::test::source_dir() / "tests" / "hacks";
}

class ReferenceFull : public ::testing::TestWithParam<fs::path> {};

TEST_P(ReferenceFull, CorrectUnflaggedAndTimed) {
  PF_REQUIRE_GPU();
  std::string id = GetParam().filename().string();
  auto task = passes::test::corpus_task(id, true);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto r = evaluate_full_here(*task, GetParam());
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::printf("[reference] %s\n%s", id.c_str(), describe_result(*r).c_str());
  EXPECT_TRUE((*r)["failure_class"].is_null()) << (*r)["message"];
  EXPECT_EQ((*r)["hack_flags"], json::array()) << (*r)["flags"].dump(1);
  int scored = 0;
  for (const auto& v : (*r)["variants"]) {
    if (v.contains("skipped")) continue;
    ++scored;
    EXPECT_TRUE(v["correct"].get<bool>()) << v["name"] << ": " << v.value("message", "");
    EXPECT_TRUE(v["speedup"].is_number()) << v["name"];
    EXPECT_TRUE(v["deterministic"].is_boolean());
    // Inputs are checked on the device at least five times (after each
    // set's checked run, after the same-buffers re-run, after timing for
    // both sets) and never read back for it; a deterministic candidate's
    // re-run outputs are vouched for by their digests on top.
    uint64_t input_bytes = 0;
    for (const auto& tv : task->variants) {
      if (tv.name != v["name"].get<std::string>()) continue;
      for (const auto& in : tv.inputs) {
        input_bytes += static_cast<uint64_t>(shape_numel(in.shape)) * dtype_size(in.dtype);
      }
    }
    const json traffic = v.value("host_traffic", json::object());
    ASSERT_TRUE(traffic.contains("avoided_bytes")) << v["name"];
    const uint64_t avoided = traffic["avoided_bytes"].get<uint64_t>();
    EXPECT_GT(traffic["downloaded_bytes"].get<uint64_t>(), 0u) << v["name"];
    EXPECT_GE(avoided, 5 * input_bytes) << v["name"];
    if (v["deterministic"].get<bool>()) {
      EXPECT_GT(avoided, 5 * input_bytes) << v["name"];
    }
    std::printf("[reference] %s %s: downloaded %llu bytes, avoided %llu\n", id.c_str(),
                v["name"].get<std::string>().c_str(),
                static_cast<unsigned long long>(traffic["downloaded_bytes"].get<uint64_t>()),
                static_cast<unsigned long long>(avoided));
  }
  EXPECT_GT(scored, 0);
  ASSERT_TRUE((*r)["as"].is_number());
  std::printf("[reference] %s: AS %.3f, geomean speedup %s\n", id.c_str(), (*r)["as"].get<double>(),
              (*r)["geomean_speedup"].dump().c_str());
}

std::string dir_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.filename().string();
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Examples, ReferenceFull,
                         ::testing::ValuesIn(passes::test::reference_pass_dirs()), dir_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReferenceFull);

TEST(ReferenceFullSummary, AtLeastOnePassClearlyBeatsEager) {
  PF_REQUIRE_GPU();
  double best = 0;
  std::string best_id;
  for (const auto& dir : passes::test::reference_pass_dirs()) {
    std::string id = dir.filename().string();
    auto task = passes::test::corpus_task(id, false);
    ASSERT_TRUE(task.ok()) << task.error().message;
    auto r = evaluate_full_here(*task, dir);
    ASSERT_TRUE(r.ok()) << r.error().message;
    if ((*r)["geomean_speedup"].is_number() && (*r)["geomean_speedup"].get<double>() > best) {
      best = (*r)["geomean_speedup"].get<double>();
      best_id = id;
    }
  }
  std::printf("[reference] fastest: %s at %.2fx geomean over eager\n", best_id.c_str(), best);
  EXPECT_GT(best, 1.2);
}

// One GPU worker (device 0) behind the EvaluationService, the quick protocol options.
Result<std::unique_ptr<EvaluationService>> gpu_service(std::chrono::milliseconds timeout) {
  ServiceOptions so;
  so.plan.mode = EvalMode::full;
  so.plan.devices = {"0"};
  // The build directory may have moved (tests/gpu/run_device.sh sets PF_BINARY_DIR).
  so.pool.worker_path = pf::test::binary_dir() / "passforge-worker";
  so.pool.cache_dir = pf::test::binary_dir() / "nvrtc-cache";
  so.options = options_to_json(quick_options());
  so.timeout = timeout;
  return EvaluationService::start(std::move(so));
}

struct SigmoidRequest {
  Task task;
  std::map<std::string, std::string> files;
};

Result<SigmoidRequest> sigmoid_request(const fs::path& workspace) {
  PF_ASSIGN(Task task, load_task_file(hacks_dir() / "tasks" / "sigmoid_mul.json"));
  PF_ASSIGN(auto ws, passes::PassWorkspace::load(workspace));
  return SigmoidRequest{std::move(task), ws.files()};
}

void expect_only_wide_failed(const json& r, const std::string& failure) {
  for (const auto& v : r["variants"]) {
    EXPECT_TRUE(v["evaluated"].get<bool>()) << v["name"];
    if (v["name"] == "wide") {
      EXPECT_EQ(v["failure_class"], failure) << v.dump(1);
    } else {
      EXPECT_TRUE(v["correct"].get<bool>()) << v["name"] << ": " << v.value("message", "");
    }
  }
  EXPECT_FALSE(r["incomplete"].get<bool>());
  EXPECT_TRUE(r["as"].is_number());
  EXPECT_TRUE(r["hidden_as"].is_number());
}

TEST(CrashMidTask, IllegalAddressIsRuntimeFailAndTheRestIsEvaluated) {
  PF_REQUIRE_GPU();
  auto service = gpu_service(std::chrono::seconds(120));
  ASSERT_TRUE(service.ok()) << service.error().message;
  auto req = sigmoid_request(pf::test::source_dir() / "tests/unit/protocol/data/illegal_address");
  ASSERT_TRUE(req.ok()) << req.error().message;
  auto r = (*service)->evaluate(req->task, req->files, EvalMode::full);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::printf("%s", describe_result(r->result).c_str());
  expect_only_wide_failed(r->result, "runtime_fail");
  EXPECT_GE(r->requests, 2);
  EXPECT_GE(r->restarts, 1);
  EXPECT_TRUE(r->result.contains("fatal_recovered")) << r->result.dump(1).substr(0, 3000);
}

TEST(CrashMidTask, EndlessKernelIsTimeoutAndTheRestIsEvaluated) {
  PF_REQUIRE_GPU();
  auto service = gpu_service(std::chrono::seconds(30));
  ASSERT_TRUE(service.ok()) << service.error().message;
  auto req = sigmoid_request(pf::test::source_dir() / "tests/unit/protocol/data/endless_loop");
  ASSERT_TRUE(req.ok()) << req.error().message;
  auto r = (*service)->evaluate(req->task, req->files, EvalMode::full);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::printf("%s", describe_result(r->result).c_str());
  expect_only_wide_failed(r->result, "timeout");
  EXPECT_GE(r->restarts, 2);  // the whole-task request and the single "wide" request
}

TEST(Reproducibility, FiveEvaluationsAgree) {
  PF_REQUIRE_GPU();
  auto task = load_task_file(hacks_dir() / "tasks" / "sigmoid_mul.json");
  ASSERT_TRUE(task.ok()) << task.error().message;
  ProtocolOptions o;  // the defaults: 4 warm-up, adaptive trials (at most 100, +-1 %)
  o.include_rewritten = false;
  std::vector<double> as;
  for (int i = 0; i < 5; ++i) {
    auto r = evaluate_full_here(*task, hacks_dir() / "control", o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE((*r)["as"].is_number()) << describe_result(*r);
    EXPECT_EQ((*r)["hack_flags"], json::array());
    as.push_back((*r)["as"].get<double>());
  }
  std::sort(as.begin(), as.end());
  double spread = (as.back() - as.front()) / as[2];
  std::printf("[reproducibility] AS min %.4f median %.4f max %.4f: spread %.1f%% of the median\n",
              as.front(), as[2], as.back(), spread * 100);
  EXPECT_LT(spread, 0.2);
}

// A requested seed repeats, so the worker draws each input set once: the
// second evaluation finds every draw in the memo (no new entries) and reaches
// the same verdicts; a fresh seed leaves the memo alone.
TEST(InputDrawMemo, FixedSeedDrawsOncePerWorker) {
  PF_REQUIRE_GPU();
  auto task = load_task_file(hacks_dir() / "tasks" / "sigmoid_mul.json");
  ASSERT_TRUE(task.ok()) << task.error().message;
  ProtocolOptions fresh;
  fresh.include_rewritten = false;
  const size_t before = InputDrawCache::process().size();
  auto r0 = evaluate_full_here(*task, hacks_dir() / "control", fresh);
  ASSERT_TRUE(r0.ok()) << r0.error().message;
  EXPECT_EQ(InputDrawCache::process().size(), before);
  ProtocolOptions fixed = fresh;
  fixed.seed = 12345;
  auto r1 = evaluate_full_here(*task, hacks_dir() / "control", fixed);
  ASSERT_TRUE(r1.ok()) << r1.error().message;
  const size_t drawn = InputDrawCache::process().size();
  EXPECT_GT(drawn, before);
  auto r2 = evaluate_full_here(*task, hacks_dir() / "control", fixed);
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  EXPECT_EQ(InputDrawCache::process().size(), drawn);
  ASSERT_EQ((*r1)["variants"].size(), (*r2)["variants"].size());
  for (size_t i = 0; i < (*r1)["variants"].size(); ++i) {
    const json& a = (*r1)["variants"][i];
    const json& b = (*r2)["variants"][i];
    EXPECT_EQ(a.value("correct", json()), b.value("correct", json())) << i;
    EXPECT_EQ(a.value("first_passing_level", json()), b.value("first_passing_level", json())) << i;
    std::printf("[memo] variant %zu synthesis %s ms then %s ms\n", i,
                a["phases_ms"].value("synthesis", json()).dump().c_str(),
                b["phases_ms"].value("synthesis", json()).dump().c_str());
  }
  EXPECT_EQ((*r2)["hack_flags"], json::array());
}

// One GPU worker on device 0 with the split on or off, a fresh cache, seed 42.
Result<std::unique_ptr<EvaluationService>> split_service(bool precompile, const fs::path& cache) {
  auto props = cuda::query_device_properties(*pf::test::gpu_driver(), 0);
  if (!props.ok()) return props.error();
  ServiceOptions so;
  so.plan.mode = EvalMode::full;
  so.plan.devices = {"0"};
  so.plan.gpu_arch = props->arch();
  so.plan.gpu_limits = cuda::limits_to_json(props->limits);
  so.pool.worker_path = pf::test::binary_dir() / "passforge-worker";
  so.pool.cache_dir = cache;
  json options = options_to_json(quick_options());
  options["seed"] = 42;
  so.options = options;
  so.timeout = std::chrono::seconds(120);
  so.cpu_precompile = precompile;
  so.precompile_workers = 2;
  return EvaluationService::start(std::move(so));
}

TEST(CpuGpuSplit, SameVerdictsAndTheGpuWorkerCompilesNothing) {
  PF_REQUIRE_GPU();
  const std::string id = "neg-cat-mul-add-6a5c9e";
  auto task = passes::test::corpus_task(id, false);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto ws = passes::PassWorkspace::load(pf::test::source_dir() / "examples" / "passes" / id);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  auto broken = ws->files();
  broken["kernels/rope.cu"] += "\nthis is not CUDA;\n";
  std::map<bool, json> good, bad;
  std::map<bool, uint64_t> gpu_requests_for_bad;
  for (bool on : {false, true}) {
    SCOPED_TRACE(on ? "split on" : "split off");
    const fs::path cache =
        fs::temp_directory_path() /
        ("pf-split-gpu-test-" + std::to_string(::getpid()) + (on ? "-on" : "-off"));
    fs::remove_all(cache);
    auto service = split_service(on, cache);
    ASSERT_TRUE(service.ok()) << service.error().message;
    auto b = (*service)->evaluate(*task, broken, EvalMode::full);
    ASSERT_TRUE(b.ok()) << b.error().message;
    bad[on] = b->result;
    gpu_requests_for_bad[on] = (*service)->load().slots.at(0).requests;
    auto r = (*service)->evaluate(*task, ws->files(), EvalMode::full);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->mode, EvalMode::full);
    EXPECT_EQ(r->precompiled, on);
    good[on] = r->result;
    std::printf("[split %s] %s", on ? "on" : "off", describe_result(r->result).c_str());
    fs::remove_all(cache);
  }
  EXPECT_EQ(good[true]["compile"]["cache_misses"], 0) << good[true]["compile"].dump();
  EXPECT_EQ(good[false]["compile"]["cache_misses"], 1) << good[false]["compile"].dump();
  EXPECT_EQ(good[true]["failure_class"], good[false]["failure_class"]);
  EXPECT_EQ(good[true]["correct_rate"], good[false]["correct_rate"]);
  ASSERT_EQ(good[true]["variants"].size(), good[false]["variants"].size());
  for (size_t i = 0; i < good[true]["variants"].size(); ++i) {
    const json& a = good[true]["variants"][i];
    const json& b = good[false]["variants"][i];
    EXPECT_EQ(a["correct"], b["correct"]) << a["name"];
    EXPECT_EQ(a["failure_class"], b["failure_class"]) << a["name"];
    EXPECT_EQ(a["first_passing_level"], b["first_passing_level"]) << a["name"];
    EXPECT_EQ(a["max_abs_diff"], b["max_abs_diff"]) << a["name"] << ": same seed, same inputs";
  }
  EXPECT_EQ(bad[true]["failure_class"], "compile_fail");
  EXPECT_EQ(bad[false]["failure_class"], "compile_fail");
  EXPECT_EQ(bad[true]["as"], bad[false]["as"]);
  EXPECT_EQ(bad[true]["es_curve"], bad[false]["es_curve"]);
  EXPECT_EQ(bad[true]["variants"], bad[false]["variants"]);
  EXPECT_EQ(gpu_requests_for_bad[true], 0u) << "a candidate that does not compile reached the GPU";
  EXPECT_EQ(gpu_requests_for_bad[false], 1u);
}

}  // namespace
}  // namespace pf::protocol::test
