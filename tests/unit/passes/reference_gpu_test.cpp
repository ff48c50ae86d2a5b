// On a GPU: every reference pass (examples/passes) runs on every variant of
// its corpus task (float16/bfloat16 copies included) through the GPU hook,
// candidate first with poisoned allocations, and must match the eager
// baseline at t = -5 with intact canaries; each variant prints its error and
// its speedup over the baseline (end-to-end and device medians, interleaved
// timing; PF_PASS_TRIALS sets the trials, 0 skips timing). Also: replacement
// errors at plan build carry their class, torch.zeros really zeroes.
// Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/gpu_replacement.h"
#include "evaluator/passes/rewriter.h"
#include "evaluator/scoring/output_compare.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/synthesis.h"
#include "tests/support/gpu.h"
#include "tests/unit/gpu/gpu_test_util.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::passes::test {
namespace {

namespace fs = std::filesystem;

const OpRegistry& reg() {
  return OpRegistry::builtin();
}

Result<nvrtc::CompileOutcome> compile_for(const gpu::GpuRuntime& rt,
                                          const std::map<std::string, std::string>& files) {
  PF_ASSIGN(auto lib, nvrtc::NvrtcLibrary::load());
  nvrtc::NvrtcCompiler compiler(lib, nullptr);
  nvrtc::CompileOptions opt;
  opt.arch = rt.properties().arch();
  return compiler.compile(files, opt);
}

struct VariantRun {
  std::vector<Tensor> candidate;
  std::vector<Tensor> expected;
  gpu::Plan candidate_plan;
  gpu::Plan baseline_plan;
};

// Candidate first (poisoned allocations), then the baseline, on the same inputs.
Result<VariantRun> run_variant(gpu::GpuRuntime& rt, const Graph& graph, const Graph& rewritten,
                               GpuReplacements& repl, const std::vector<Tensor>& host_inputs) {
  std::vector<gpu::DeviceTensor> inputs;
  for (size_t k = 0; k < host_inputs.size(); ++k) {
    PF_ASSIGN(gpu::DeviceTensor t, rt.upload(host_inputs[k], "in_" + std::to_string(k)));
    inputs.push_back(std::move(t));
  }
  VariantRun out;
  gpu::PlanBuilderOptions poisoned;
  poisoned.poison_allocations = true;
  gpu::PlanBuilder cand(rt, poisoned);
  PF_ASSIGN(auto cand_outs, gpu::build_graph_plan(rewritten, inputs, cand, repl.hook()));
  out.candidate_plan = cand.finish();
  PF_TRY(out.candidate_plan.run(rt.stream()));
  PF_TRY(rt.synchronize());
  for (const auto& t : cand_outs) {
    PF_ASSIGN(Tensor h, rt.download(t));
    out.candidate.push_back(std::move(h));
  }
  PF_TRY(out.candidate_plan.check_guards());
  gpu::PlanBuilder base(rt);
  PF_ASSIGN(auto base_outs, gpu::build_graph_plan(graph, inputs, base));
  out.baseline_plan = base.finish();
  PF_TRY(out.baseline_plan.run(rt.stream()));
  PF_TRY(rt.synchronize());
  for (const auto& t : base_outs) {
    PF_ASSIGN(Tensor h, rt.download(t));
    out.expected.push_back(std::move(h));
  }
  return out;
}

int trials() {
  const char* env = std::getenv("PF_PASS_TRIALS");
  return env != nullptr ? std::atoi(env) : 50;
}

class ReferenceGpu : public ::testing::TestWithParam<fs::path> {};

TEST_P(ReferenceGpu, MatchesEagerOnEveryVariant) {
  PF_REQUIRE_GPU();
  std::string id = GetParam().filename().string();
  gpu::GpuRuntime* rt = gpu::test::runtime();
  ASSERT_NE(rt, nullptr);
  auto task = corpus_task(id, true);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto ws = PassWorkspace::load(GetParam());
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  auto passes = load_passes(*ws, reg());
  ASSERT_TRUE(passes.ok()) << passes.error().message;
  auto compiled = compile_for(*rt, ws->kernel_files());
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  ASSERT_TRUE(compiled->ok()) << compiled->message;
  auto repl = GpuReplacements::create(*passes, *compiled, rt->driver_ptr());
  ASSERT_TRUE(repl.ok()) << repl.error().message;
  auto harness = gpu::TimingHarness::create(*rt);
  ASSERT_TRUE(harness.ok()) << harness.error().message;
  gpu::TimingOptions timing;
  timing.warmup = 10;
  timing.trials = trials();

  std::vector<double> speedups;
  for (const TaskVariant& v : task->variants) {
    auto graph = typed_variant_graph(v, reg());
    ASSERT_TRUE(graph.ok()) << v.name << ": " << graph.error().message;
    auto missing = gpu::unsupported_ops(*graph);
    if (!missing.empty()) {
      std::printf("  skip %s: the baseline lacks %s\n", v.name.c_str(), missing.front().c_str());
      continue;
    }
    RewriteResult rewritten = apply_passes(*graph, *passes, reg());
    ASSERT_GT(rewritten.total_matches(), 0) << v.name;
    auto run = run_variant(*rt, *graph, rewritten.graph, **repl, synthesize_inputs(v, {}));
    ASSERT_TRUE(run.ok()) << v.name << ": " << run.error().message;
    ASSERT_EQ(run->candidate.size(), run->expected.size());
    double max_abs = 0;
    bool correct = true;
    for (size_t k = 0; k < run->candidate.size(); ++k) {
      OutputComparison c = compare_output(run->candidate[k], run->expected[k]);
      max_abs = std::max(max_abs, c.max_abs_diff);
      correct = correct && c.correct_at(-5);
      EXPECT_TRUE(c.correct_at(-5))
          << v.name << " output " << k << ": first passing level " << c.first_passing_level
          << ", max abs " << c.max_abs_diff << ", first mismatch at "
          << format_index(c.first_mismatch, run->expected[k].shape()) << ": "
          << c.first_mismatch_candidate << " vs " << c.first_mismatch_expected;
    }
    std::string speed = "untimed";
    if (timing.trials > 0) {
      auto t = (*harness)->time_interleaved({"candidate", {&run->candidate_plan}},
                                            {"eager", {&run->baseline_plan}}, timing);
      ASSERT_TRUE(t.ok()) << v.name << ": " << t.error().message;
      double s = t->b.e2e.median / t->a.e2e.median;
      double sd = t->b.device.median / t->a.device.median;
      speedups.push_back(s);
      char buf[160];
      std::snprintf(buf, sizeof buf, "speedup %.2fx e2e (%.1f vs %.1f us), %.2fx device%s", s,
                    t->a.e2e.median * 1e3, t->b.e2e.median * 1e3, sd,
                    t->unstable() ? " UNSTABLE" : "");
      speed = buf;
    }
    std::printf("  %s %-70s max_abs %.3g  %s\n", correct ? "ok  " : "FAIL", v.name.c_str(), max_abs,
                speed.c_str());
  }
  if (!speedups.empty()) {
    double log_sum = 0;
    for (double s : speedups) log_sum += std::log(s);
    std::printf("[reference] %s: geomean speedup %.2fx over %zu variants\n", id.c_str(),
                std::exp(log_sum / speedups.size()), speedups.size());
  }
}

std::string dir_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.filename().string();
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Examples, ReferenceGpu, ::testing::ValuesIn(reference_pass_dirs()),
                         dir_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReferenceGpu);

// A small pass through the hook: torch.zeros is a memset step (the candidate's
// allocations are poisoned first), and a wrong return type fails plan
// building with its class.
TEST(GpuReplacementHook, ZerosAndReturnChecks) {
  PF_REQUIRE_GPU();
  gpu::GpuRuntime* rt = gpu::test::runtime();
  ASSERT_NE(rt, nullptr);
  const TensorType type{DType::float32, {3, 5}};
  Graph g = typed_graph("def forward(in_0):\n    t = in_0 * 0.0\n    return (t,)\n", {type});
  auto zeros = pass_from(
      "def pattern(x):\n    return x * 0.0\ndef replacement(x):\n    return torch.zeros_like(x)\n");
  auto wrong = pass_from(
      "def pattern(x):\n    return x * 0.0\n"
      "def replacement(x):\n    return torch.zeros_like(x, dtype=torch.float16)\n",
      "Wrong");
  ASSERT_TRUE(zeros.ok() && wrong.ok());
  nvrtc::CompileOutcome none;
  std::vector<Tensor> host = {
      Tensor::from_doubles(DType::float32, {3, 5}, std::vector<double>(15, 2.5))};

  auto ok = GpuReplacements::create({*zeros}, none, rt->driver_ptr());
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  RewriteResult r = apply_passes(g, {*zeros}, reg());
  auto run = run_variant(*rt, g, r.graph, **ok, host);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(compare_output(run->candidate[0], run->expected[0]).correct_at(-10));
  EXPECT_EQ(run->candidate_plan.describe(), "memset");

  auto bad = GpuReplacements::create({*wrong}, none, rt->driver_ptr());
  ASSERT_TRUE(bad.ok()) << bad.error().message;
  RewriteResult rw = apply_passes(g, {*wrong}, reg());
  auto failed = run_variant(*rt, g, rw.graph, **bad, host);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("passes/Wrong.py:4:5: output 1 ('t0') is float16[3, 5]"),
            std::string::npos)
      << failed.error().message;
  EXPECT_EQ((*bad)->last_failure(), FailureClass::dtype_mismatch);
}

}  // namespace
}  // namespace pf::passes::test
