// Input synthesis on the GPU against its CPU twin (issue 22's last bullet,
// issue 18's throughput), on the GPU machine from the repository root:
//   1. per variant of the esm2 task (tasks/linear-mul-truediv-erf-add-mul-2eaa9f.json,
//      the quickstart's largest shapes): both input sets drawn on the CPU
//      (what the worker did before) and on the GPU, alone and with the host
//      copy downloaded, and whether the bits are identical;
//   2. full evaluations of the quickstart tasks with their reference passes
//      (examples/passes/<task>), fresh seed each, warm caches: wall time and
//      each phase summed over the variants (synthesis, run_set0, run_set1,
//      determinism, timing).
// JSON on stdout, a summary on stderr.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/full_evaluation.h"
#include "evaluator/protocol/gpu_input_drawer.h"
#include "evaluator/tasks/synthesis.h"
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
  std::string synthesis_task = "linear-mul-truediv-erf-add-mul-2eaa9f";
  std::vector<std::string> tasks = {"neg-cat-mul-add-6a5c9e", "add-softmax-dropout-a73f2b",
                                    "linear-mul-truediv-erf-add-mul-2eaa9f"};
  int repeats = 3;
};

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int fail(const std::string& what) {
  std::fprintf(stderr, "pf_synthesis_bench: %s\n", what.c_str());
  return 2;
}

// Both input sets of `v` (seed `seed`): CPU, GPU, GPU + download; bit identity.
Result<json> synthesis_row(gpu::GpuRuntime& rt, const TaskVariant& v, uint64_t seed, int repeats) {
  std::vector<double> cpu_ms, gpu_ms, gpu_dl_ms;
  bool identical = true;
  int64_t elements = 0;
  for (const auto& in : v.inputs) elements += shape_numel(in.shape);
  for (int r = 0; r < repeats; ++r) {
    for (uint32_t set = 0; set < 2; ++set) {
      SynthesisOptions o;
      o.seed = seed + static_cast<uint64_t>(r);
      o.round = set;
      auto t0 = Clock::now();
      std::vector<Tensor> cpu = synthesize_inputs(v, o);
      cpu_ms.push_back(ms_since(t0));
      t0 = Clock::now();
      {
        PF_ASSIGN(auto dev, protocol::draw_device_inputs(rt, v, o, "bench_"));
        PF_TRY(rt.synchronize());
      }
      gpu_ms.push_back(ms_since(t0));
      t0 = Clock::now();
      PF_ASSIGN(auto dev, protocol::draw_device_inputs(rt, v, o, "bench_"));
      std::vector<Tensor> host;
      for (const auto& t : dev) {
        PF_ASSIGN(Tensor h, rt.download(t));
        host.push_back(std::move(h));
      }
      gpu_dl_ms.push_back(ms_since(t0));
      for (size_t k = 0; k < cpu.size(); ++k) {
        identical = identical && host[k].nbytes() == cpu[k].nbytes() &&
                    std::memcmp(host[k].data(), cpu[k].data(), cpu[k].nbytes()) == 0;
      }
    }
  }
  // Per evaluation: both sets, so two draws of each.
  return json{{"variant", v.name},
              {"elements_per_set", elements},
              {"cpu_ms_both_sets", 2 * median(cpu_ms)},
              {"gpu_ms_both_sets", 2 * median(gpu_ms)},
              {"gpu_with_download_ms_both_sets", 2 * median(gpu_dl_ms)},
              {"bit_identical", identical}};
}

int run(const Options& o) {
  auto driver = cuda::CudaDriver::load();
  if (!driver.ok()) return fail(driver.error().message);
  auto ctx = cuda::CudaContext::create(*driver);
  if (!ctx.ok()) return fail(ctx.error().message);
  auto rt = gpu::GpuRuntime::create(*driver, (*ctx)->properties());
  if (!rt.ok()) return fail(rt.error().message);

  auto stask = load_task_file(fs::path("tasks") / (o.synthesis_task + ".json"));
  if (!stask.ok()) return fail(stask.error().message);
  // The kernel's first use loads its module: not synthesis time.
  if (auto warm = protocol::draw_device_inputs(**rt, stask->variants.front(), {}, "warm_");
      !warm.ok()) {
    return fail(warm.error().message);
  }
  json synthesis = json::array();
  double cpu_total = 0, gpu_total = 0, gpu_dl_total = 0;
  bool all_identical = true;
  for (const TaskVariant& v : stask->variants) {
    auto row = synthesis_row(**rt, v, 1000, o.repeats);
    if (!row.ok()) return fail(v.name + ": " + row.error().message);
    cpu_total += (*row)["cpu_ms_both_sets"].get<double>();
    gpu_total += (*row)["gpu_ms_both_sets"].get<double>();
    gpu_dl_total += (*row)["gpu_with_download_ms_both_sets"].get<double>();
    all_identical = all_identical && (*row)["bit_identical"].get<bool>();
    std::fprintf(stderr, "synthesis %-100s cpu %8.2f ms  gpu %6.2f ms  gpu+download %6.2f ms  %s\n",
                 v.name.c_str(), (*row)["cpu_ms_both_sets"].get<double>(),
                 (*row)["gpu_ms_both_sets"].get<double>(),
                 (*row)["gpu_with_download_ms_both_sets"].get<double>(),
                 (*row)["bit_identical"].get<bool>() ? "identical" : "DIFFERENT");
    synthesis.push_back(std::move(*row));
  }
  std::fprintf(stderr,
               "synthesis %s (%zu variants, both sets): cpu %.1f ms, gpu %.1f ms, gpu+download "
               "%.1f ms, bit-identical: %s\n",
               o.synthesis_task.c_str(), stask->variants.size(), cpu_total, gpu_total, gpu_dl_total,
               all_identical ? "yes" : "NO");

  auto lib = nvrtc::NvrtcLibrary::load();
  if (!lib.ok()) return fail(lib.error().message);
  nvrtc::CompileOptions co;
  co.arch = (*ctx)->properties().arch();
  auto cache =
      std::make_shared<nvrtc::CompileCache>(fs::temp_directory_path() / "pf_synthesis_bench_cache");
  auto compiler = std::make_shared<nvrtc::NvrtcCompiler>(*lib, cache);
  passes::KernelCompiler compile = [compiler, co](const std::map<std::string, std::string>& f) {
    return compiler->compile(f, co);
  };
  protocol::ProtocolOptions po;
  po.include_rewritten = false;
  json evaluations = json::array();
  for (const std::string& id : o.tasks) {
    auto task = load_task_file(fs::path("tasks") / (id + ".json"));
    if (!task.ok()) return fail(task.error().message);
    auto ws = passes::PassWorkspace::load(fs::path("examples/passes") / id);
    if (!ws.ok()) return fail(ws.error().message);
    std::vector<double> wall;
    std::map<std::string, std::vector<double>> phases;
    int correct = 0;
    for (int r = 0; r < o.repeats + 1; ++r) {  // the first run warms the caches
      auto t0 = Clock::now();
      auto e = protocol::evaluate_full(*task, *ws, compile, **rt, po);
      const double ms = ms_since(t0);
      if (!e.ok()) return fail(id + ": " + e.error().message);
      if (r == 0) continue;
      wall.push_back(ms);
      std::map<std::string, double> sum;
      correct = 0;
      for (const auto& v : e->result["variants"]) {
        correct += v.value("correct", false) ? 1 : 0;
        if (!v.contains("phases_ms")) continue;
        for (const auto& [name, value] : v["phases_ms"].items()) sum[name] += value.get<double>();
      }
      for (const auto& [name, value] : e->result["phases_ms"].items()) {
        sum[name] += value.get<double>();
      }
      for (const auto& [name, value] : sum) phases[name].push_back(value);
    }
    json phase_medians = json::object();
    std::string line;
    for (const auto& [name, values] : phases) {
      phase_medians[name] = median(values);
      char buf[96];
      std::snprintf(buf, sizeof buf, " %s %.0f", name.c_str(), median(values));
      line += buf;
    }
    std::fprintf(stderr, "evaluation %s (%zu variants, %d correct): %.0f ms;%s\n", id.c_str(),
                 task->variants.size(), correct, median(wall), line.c_str());
    evaluations.push_back({{"task", id},
                           {"variants", task->variants.size()},
                           {"correct", correct},
                           {"wall_ms_median", median(wall)},
                           {"phases_ms_median", phase_medians}});
  }
  json out = {{"device", (*ctx)->properties().name},
              {"synthesis_task", o.synthesis_task},
              {"synthesis", synthesis},
              {"synthesis_total_ms",
               {{"cpu", cpu_total}, {"gpu", gpu_total}, {"gpu_with_download", gpu_dl_total}}},
              {"bit_identical", all_identical},
              {"evaluations", evaluations}};
  std::printf("%s\n", out.dump(2).c_str());
  return all_identical ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // Allocation failures and JSON type errors end the benchmark with a message,
  // not std::terminate.
  try {
    Options o;
    CLI::App app{
        "Input synthesis on the GPU vs the CPU, and full evaluation phases (JSON on stdout)"};
    app.add_option("--synthesis-task", o.synthesis_task, "task id whose variants are drawn");
    app.add_option("--tasks", o.tasks,
                   "task ids evaluated (tasks/<id>.json, examples/passes/<id>)");
    app.add_option("--repeats", o.repeats, "repeats (medians)");
    CLI11_PARSE(app, argc, argv);
    return run(o);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
