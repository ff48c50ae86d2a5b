// The evaluation protocol's own cost on the GPU machine (docs/design.md
// "Performance targets"): wall time of a full evaluation of a reference pass
// on its task's first N variants (default 10) with the default protocol
// (25 warm-up, 100 interleaved trials, both input sets, re-checks), warm
// caches (target <= 2 s), and the cold NVRTC compile of the pass's kernels
// without a cache (target <= 0.3 s). JSON on stdout.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/full_evaluation.h"
#include "evaluator/tasks/task.h"
#include "sandbox/cuda/cuda_context.h"
#include "sandbox/nvrtc/compile_cache.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace {

using namespace pf;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

struct Options {
  std::string task = "tasks/neg-cat-mul-add-6a5c9e.json";
  std::string pass = "examples/passes/neg-cat-mul-add-6a5c9e";
  int variants = 10;
  int repeats = 3;
  //! Where to write every warm evaluation's raw per-trial timing samples
  //! (the statistics of the stopping rule are studied on them); "" = none.
  std::string samples_out;
  //! The timing protocol's trial count and precision (< 0: the defaults).
  int trials = -1;
  double precision = -1;
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int fail(const std::string& what) {
  std::fprintf(stderr, "pf_eval_bench: %s\n", what.c_str());
  return 2;
}

int run(const Options& o) {
  auto task = load_task_file(o.task);
  if (!task.ok()) return fail(task.error().message);
  if (static_cast<int>(task->variants.size()) > o.variants) task->variants.resize(o.variants);
  auto ws = passes::PassWorkspace::load(o.pass);
  if (!ws.ok()) return fail(ws.error().message);
  auto driver = cuda::CudaDriver::load();
  if (!driver.ok()) return fail(driver.error().message);
  auto ctx = cuda::CudaContext::create(*driver);
  if (!ctx.ok()) return fail(ctx.error().message);
  auto rt = gpu::GpuRuntime::create(*driver, (*ctx)->properties());
  if (!rt.ok()) return fail(rt.error().message);
  auto lib = nvrtc::NvrtcLibrary::load();
  if (!lib.ok()) return fail(lib.error().message);
  const std::string arch = (*ctx)->properties().arch();
  nvrtc::CompileOptions co;
  co.arch = arch;

  // Cold NVRTC: no cache at all, each repeat compiles from scratch.
  json cold = json::array();
  for (int i = 0; i < o.repeats; ++i) {
    nvrtc::NvrtcCompiler uncached(*lib, nullptr);
    auto t0 = Clock::now();
    auto out = uncached.compile(ws->kernel_files(), co);
    double s = seconds_since(t0);
    if (!out.ok() || !out->ok())
      return fail("compile: " + (out.ok() ? out->message : out.error().message));
    cold.push_back(s);
  }

  // Full evaluations through a warm on-disk cache (the first run fills it).
  fs::path cache_dir = fs::temp_directory_path() / "pf_eval_bench_cache";
  auto cache = std::make_shared<nvrtc::CompileCache>(cache_dir);
  auto compiler = std::make_shared<nvrtc::NvrtcCompiler>(*lib, cache);
  passes::KernelCompiler compile = [compiler, co](const std::map<std::string, std::string>& f) {
    return compiler->compile(f, co);
  };
  protocol::ProtocolOptions po;
  po.include_rewritten = false;
  po.timing_samples = !o.samples_out.empty();
  if (o.trials > 0) po.trials = o.trials;
  if (o.precision >= 0) po.timing_precision = o.precision;
  json runs = json::array();
  json samples = json::array();
  json last;
  for (int i = 0; i < o.repeats + 1; ++i) {
    auto t0 = Clock::now();
    auto e = protocol::evaluate_full(*task, *ws, compile, **rt, po);
    double s = seconds_since(t0);
    if (!e.ok()) return fail(e.error().message);
    runs.push_back({{"seconds", s}, {"warm", i > 0}, {"phases_ms", e->result["phases_ms"]}});
    for (const auto& v : e->result["variants"]) {
      if (i > 0 && po.timing_samples && v.contains("timing")) {
        samples.push_back(
            {{"evaluation", i}, {"variant", v.value("name", "")}, {"timing", v["timing"]}});
      }
    }
    last = std::move(e->result);
  }
  std::vector<double> warm;
  for (const auto& r : runs) {
    if (r["warm"].get<bool>()) warm.push_back(r["seconds"].get<double>());
  }
  std::sort(warm.begin(), warm.end());
  std::vector<double> cold_sorted = cold.get<std::vector<double>>();
  std::sort(cold_sorted.begin(), cold_sorted.end());
  json per_variant = json::array();
  for (const auto& v : last["variants"]) {
    per_variant.push_back({{"name", v.value("name", "")},
                           {"correct", v.value("correct", false)},
                           {"speedup", v.value("speedup", json())},
                           {"phases_ms", v.value("phases_ms", json())}});
  }
  json out = {{"task", task->id},
              {"variants", task->variants.size()},
              {"device", (*ctx)->properties().name},
              {"cold_nvrtc_compile_s", cold},
              {"cold_nvrtc_compile_median_s", cold_sorted[cold_sorted.size() / 2]},
              {"cold_target_s", 0.3},
              {"evaluations", runs},
              {"warm_evaluation_median_s", warm[warm.size() / 2]},
              {"warm_target_s", 2.0},
              {"as", last["as"]},
              {"per_variant", per_variant}};
  std::printf("%s\n", out.dump(2).c_str());
  if (!o.samples_out.empty()) {
    std::FILE* f = std::fopen(o.samples_out.c_str(), "w");
    if (f == nullptr) return fail("cannot write " + o.samples_out);
    std::fprintf(f, "%s\n", samples.dump().c_str());
    std::fclose(f);
  }
  std::fprintf(stderr,
               "pf_eval_bench: %zu variants: warm evaluation %.2f s (target 2 s), cold NVRTC %.3f "
               "s (target 0.3 s)\n",
               task->variants.size(), warm[warm.size() / 2], cold_sorted[cold_sorted.size() / 2]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // JSON and CLI11 report misuse by exceptions: a message and exit code 2,
  // never an abort.
  try {
    Options o;
    CLI::App app{"Times the full evaluation protocol and a cold NVRTC compile (JSON on stdout)"};
    app.add_option("--task", o.task, "task file");
    app.add_option("--pass", o.pass, "pass workspace for that task");
    app.add_option("--variants", o.variants, "evaluate the first N variants");
    app.add_option("--repeats", o.repeats, "warm evaluations and cold compiles");
    app.add_option("--samples-out", o.samples_out,
                   "write the warm evaluations' raw timing samples (JSON) to this file");
    app.add_option("--trials", o.trials, "most timed trials per side (default: the protocol's)");
    app.add_option("--precision", o.precision,
                   "timing_precision (0: always --trials; default: the protocol's)");
    CLI11_PARSE(app, argc, argv);
    return run(o);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
