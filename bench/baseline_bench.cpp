// pf_baseline_bench: times the GPU eager baseline on every variant of a task
// suite (native task files, or PassBench/GraphNet corpus directories) with
// the timing harness (L2 flushed before every run, two input sets rotated,
// CUDA-event device time and synchronised end-to-end time; plans replayed as
// captured CUDA graphs, and once more launched step by step) and prints one
// JSON document. --dump-inputs writes each variant's first input set as .npy
// plus a manifest, so bench/fidelity.py times PyTorch on identical inputs, and
// our outputs on it, so tests/gpu/pytorch_levels.py judges both against the
// same float64 result.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "evaluator/gpu/graph_plan.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/npy.h"
#include "evaluator/tasks/synthesis.h"
#include "evaluator/tasks/task_suite.h"
#include "sandbox/cuda/cuda_context.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace pf::gpu {
namespace {

struct Options {
  std::vector<std::string> tasks;
  int warmup = 25;
  int trials = 100;
  std::string out;
  std::string dump_inputs;
  std::string filter;
  int per_task = 0;             // 0: every variant
  bool stream_too = true;       // also time the plans launched step by step
  bool steps = false;           // time every step alone too
  bool flush = true;            // flush L2 before every timed run
  int blas_workspace_mib = -1;  // < 0: the runtime's default
};

// Tasks from native files or corpus directories (graph_list.txt below them).
// A native suite directory holds its task files at the top; a corpus holds
// task directories (whose graph_net.json files are not task files).
Result<std::vector<std::pair<Task, fs::path>>> load_suite(const std::string& path) {
  std::vector<std::pair<Task, fs::path>> out;
  bool corpus = false;
  if (fs::is_directory(path)) {
    corpus = true;
    for (const auto& entry : fs::directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") corpus = false;
    }
  }
  if (!corpus) {
    PF_ASSIGN(std::vector<Task> tasks, load_tasks(path));
    for (auto& t : tasks) out.emplace_back(std::move(t), fs::path());
    return out;
  }
  PF_ASSIGN(auto imports, import_tasks(path, ImportOptions{}, OpRegistry::builtin()));
  for (auto& ti : imports) {
    if (ti.task) out.emplace_back(std::move(*ti.task), ti.dir);
  }
  return out;
}

json stats_us(const SampleStats& s) {
  return {
      {"median", s.median * 1000}, {"q1", s.q1 * 1000}, {"q3", s.q3 * 1000}, {"min", s.min * 1000}};
}

Result<json> bench_variant(GpuRuntime& rt, TimingHarness& harness, const Task& task,
                           const TaskVariant& v, const fs::path& task_dir, const Options& o) {
  json row = {{"task", task.id}, {"variant", v.name}};
  PF_ASSIGN(Graph graph, typed_variant_graph(v, OpRegistry::builtin()));
  auto missing = unsupported_ops(graph);
  if (!missing.empty()) {
    row["status"] = "skipped";
    row["reason"] = missing;
    return row;
  }
  std::vector<Plan> plans;
  std::string described;
  for (uint32_t round = 0; round < 2; ++round) {
    SynthesisOptions so;
    so.round = round;
    std::vector<Tensor> host = synthesize_inputs(v, so);
    std::vector<DeviceTensor> dev;
    for (size_t i = 0; i < host.size(); ++i) {
      PF_ASSIGN(DeviceTensor d, rt.upload(host[i], v.inputs[i].name));
      dev.push_back(d);
    }
    if (round == 0 && !o.dump_inputs.empty()) {
      fs::path dir = fs::path(o.dump_inputs) / task.id / v.name;
      fs::create_directories(dir);
      json inputs = json::array();
      for (size_t i = 0; i < host.size(); ++i) {
        fs::path file = dir / ("in_" + std::to_string(i) + ".npy");
        PF_TRY(write_npy(file, host[i]));
        inputs.push_back({{"name", v.inputs[i].name},
                          {"dtype", dtype_name(host[i].dtype())},
                          {"shape", host[i].shape()},
                          {"file", file.string()}});
      }
      row["inputs"] = inputs;
      row["source"] = v.source;
      if (!task_dir.empty() && fs::exists(task_dir / "graphs" / v.name / "model.py")) {
        row["model_py"] = (task_dir / "graphs" / v.name / "model.py").string();
      }
    }
    PlanBuilder b(rt);
    PF_ASSIGN(std::vector<DeviceTensor> outs, build_graph_plan(graph, dev, b));
    plans.push_back(b.finish());
    described = plans.back().describe();
    if (round == 0 && !o.dump_inputs.empty()) {
      PF_TRY(plans.back().run(rt.stream()));
      PF_TRY(rt.synchronize());
      fs::path dir = fs::path(o.dump_inputs) / task.id / v.name;
      json outputs = json::array();
      for (size_t i = 0; i < outs.size(); ++i) {
        PF_ASSIGN(Tensor h, rt.download(outs[i]));
        fs::path file = dir / ("out_" + std::to_string(i) + ".npy");
        PF_TRY(write_npy(file, h));
        outputs.push_back(
            {{"dtype", dtype_name(h.dtype())}, {"shape", h.shape()}, {"file", file.string()}});
      }
      row["outputs"] = outputs;
    }
  }
  TimingOptions to;
  to.warmup = o.warmup;
  to.trials = o.trials;
  to.flush_l2 = o.flush;
  // What evaluations time (captured graphs, replayed) and, for comparison,
  // the same plans launched step by step (host launch gaps included).
  PF_ASSIGN(SideTiming t, harness.time_single(Runnable{v.name, {&plans[0], &plans[1]}}, to));
  row["status"] = "ok";
  row["steps"] = plans[0].size();
  row["plan"] = described;
  row["launch"] = t.launch;
  if (!t.graph_fallback.empty()) row["graph_fallback"] = t.graph_fallback;
  row["device_us"] = stats_us(t.device);
  row["e2e_us"] = stats_us(t.e2e);
  row["unstable"] = t.unstable;
  if (o.steps) {
    // Each step alone, replayed like the whole plan: where the time goes.
    json steps = json::array();
    TimingOptions so = to;
    so.trials = std::max(10, o.trials / 4);
    for (size_t i = 0; i < plans[0].size(); ++i) {
      Plan one = plans[0].step_plan(i);
      PF_ASSIGN(SideTiming st, harness.time_single(Runnable{v.name, {&one}}, so));
      steps.push_back({{"step", plans[0].steps()[i].name}, {"device_us", st.device.median * 1000}});
    }
    row["step_device_us"] = steps;
  }
  if (o.stream_too) {
    to.graph_replay = false;
    PF_ASSIGN(SideTiming streamed,
              harness.time_single(Runnable{v.name, {&plans[0], &plans[1]}}, to));
    row["stream_device_us"] = stats_us(streamed.device);
    row["stream_e2e_us"] = stats_us(streamed.e2e);
  }
  return row;
}

int run(const Options& o) {
  auto driver = cuda::CudaDriver::load();
  if (!driver.ok()) {
    std::fprintf(stderr, "pf_baseline_bench: %s\n", driver.error().message.c_str());
    return 2;
  }
  auto ctx = cuda::CudaContext::create(*driver);
  if (!ctx.ok()) {
    std::fprintf(stderr, "pf_baseline_bench: %s\n", ctx.error().message.c_str());
    return 2;
  }
  GpuRuntimeOptions rto;
  if (o.blas_workspace_mib >= 0)
    rto.blas_workspace_bytes = static_cast<size_t>(o.blas_workspace_mib) << 20;
  auto rt = GpuRuntime::create(*driver, (*ctx)->properties(), rto);
  if (!rt.ok()) {
    std::fprintf(stderr, "pf_baseline_bench: %s\n", rt.error().message.c_str());
    return 2;
  }
  auto harness = TimingHarness::create(**rt);
  if (!harness.ok()) {
    std::fprintf(stderr, "pf_baseline_bench: %s\n", harness.error().message.c_str());
    return 2;
  }
  json doc = {
      {"device", (*ctx)->properties().to_json()}, {"warmup", o.warmup}, {"trials", o.trials}};
  json rows = json::array();
  for (const auto& path : o.tasks) {
    auto suite = load_suite(path);
    if (!suite.ok()) {
      std::fprintf(stderr, "pf_baseline_bench: %s: %s\n", path.c_str(),
                   suite.error().message.c_str());
      return 2;
    }
    for (const auto& [task, dir] : *suite) {
      int taken = 0;
      for (const auto& v : task.variants) {
        if (!o.filter.empty() && (task.id + "/" + v.name).find(o.filter) == std::string::npos)
          continue;
        if (o.per_task > 0 && taken >= o.per_task) break;
        ++taken;
        auto row = bench_variant(**rt, **harness, task, v, dir, o);
        if (!row.ok()) {
          rows.push_back({{"task", task.id},
                          {"variant", v.name},
                          {"status", "error"},
                          {"reason", row.error().message}});
          if (!(*driver)->poisoned().empty()) break;
          continue;
        }
        std::fprintf(stderr, "%-60s %s\n", (task.id + "/" + v.name).c_str(),
                     (*row)["status"] == "ok"
                         ? std::to_string((*row)["device_us"]["median"].get<double>()).c_str()
                         : "skipped");
        rows.push_back(std::move(*row));
      }
    }
  }
  doc["variants"] = rows;
  std::string text = doc.dump(1);
  if (o.out.empty()) {
    std::printf("%s\n", text.c_str());
  } else {
    std::ofstream(o.out) << text << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace pf::gpu

int main(int argc, char** argv) {
  try {
    pf::gpu::Options o;
    CLI::App app{"Times the GPU eager baseline on a task suite (JSON on stdout or --out)"};
    app.add_option("tasks", o.tasks, "task files/directories or corpus directories")->required();
    app.add_option("--warmup", o.warmup, "warm-up runs");
    app.add_option("--trials", o.trials, "timed runs");
    app.add_option("--out", o.out, "write the JSON here");
    app.add_option("--dump-inputs", o.dump_inputs,
                   "write input set 0 of each variant and our outputs on it as .npy here");
    app.add_option("--filter", o.filter, "only variants whose task/variant contains this");
    app.add_option("--per-task", o.per_task, "at most this many variants per task (0: all)");
    app.add_flag("--steps", o.steps, "also time every plan step alone (where the time goes)");
    app.add_option("--blas-workspace-mib", o.blas_workspace_mib,
                   "cuBLAS/cuBLASLt workspace in MiB (its size steers cuBLASLt's algorithm "
                   "choice; default: the runtime's)");
    app.add_flag("!--no-flush", o.flush, "do not flush L2 before timed runs (warm-cache times)");
    app.add_flag("!--graph-only", o.stream_too,
                 "time captured graphs only (not also step-by-step stream launches)");
    CLI11_PARSE(app, argc, argv);
    return pf::gpu::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pf_baseline_bench: %s\n", e.what());
    return 2;
  }
}
