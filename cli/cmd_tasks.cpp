// `passforge tasks list|show|check|run`: inspect and validate task suites.
#include "cli/cmd_tasks.h"

#include <atomic>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "agent/scheduler/shard.h"
#include "cli/exit_codes.h"
#include "common/strings.h"
#include "evaluator/dialect/printer.h"
#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/npy.h"
#include "evaluator/tasks/task_check.h"
#include "evaluator/tasks/task_suite.h"

namespace pf::cli {
namespace {

struct TasksArgs {
  std::string tasks_dir;
  std::string target;  // show/run: task id or file; check: file or dir
  std::string variant;
  std::string inputs_dir;
  std::string outputs_dir;
  uint64_t seed = 0;
  int jobs = 0;
  std::string shard;  // check: "K/N", every N-th task from K
  bool json = false;
};

std::filesystem::path tasks_dir(const TasksArgs& a) {
  return a.tasks_dir.empty() ? default_tasks_dir() : std::filesystem::path(a.tasks_dir);
}

std::string dtypes_of(const Task& t) {
  std::vector<std::string> seen;
  for (const auto& v : t.variants) {
    for (const auto& in : v.inputs) {
      std::string n = dtype_name(in.dtype);
      if (std::find(seen.begin(), seen.end(), n) == seen.end()) seen.push_back(n);
    }
  }
  return join(seen, ",");
}

int run_list(const TasksArgs& a) {
  auto tasks = load_tasks(tasks_dir(a));
  if (!tasks.ok()) {
    std::cerr << "passforge tasks list: " << tasks.error().message << "\n";
    return kExitUsage;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& t : *tasks) {
    int hidden = 0;
    for (const auto& v : t.variants) hidden += v.hidden;
    if (a.json) {
      out.push_back({{"id", t.id},
                     {"variants", t.variants.size()},
                     {"hidden", hidden},
                     {"dtypes", dtypes_of(t)},
                     {"op_sequence", t.op_sequence}});
    } else {
      std::cout << std::left << std::setw(56) << t.id << std::right << std::setw(4)
                << t.variants.size() << " variants (" << hidden << " hidden)  " << dtypes_of(t)
                << "  " << join(t.op_sequence, " -> ") << "\n";
    }
  }
  if (a.json)
    std::cout << out.dump(1) << "\n";
  else
    std::cout << tasks->size() << " tasks in " << tasks_dir(a).string() << "\n";
  return kExitOk;
}

int run_show(const TasksArgs& a) {
  auto task = resolve_task(a.target, tasks_dir(a));
  if (!task.ok()) {
    std::cerr << "passforge tasks show: " << task.error().message << "\n";
    return kExitUsage;
  }
  if (a.json) {
    std::cout << task_to_json(*task).dump(1) << "\n";
    return kExitOk;
  }
  const OpRegistry& registry = OpRegistry::builtin();
  std::cout << "task " << task->id << " (" << task->variants.size() << " variants; source "
            << task->source << "; licence " << task->license << ")\n"
            << "ops: " << join(task->op_sequence, " -> ") << "\n";
  for (const auto& v : task->variants) {
    if (!a.variant.empty() && v.name != a.variant) continue;
    std::cout << "\n## " << v.name << (v.hidden ? "  [hidden]" : "") << "\n";
    auto graph = typed_variant_graph(v, registry);
    if (!graph.ok()) {
      std::cout << "error: " << graph.error().message << "\n";
      continue;
    }
    dialect::PrintOptions po;
    po.type_comments = true;
    po.input_header = true;
    std::cout << dialect::print_graph(*graph, registry, po);
  }
  return kExitOk;
}

int run_check(const TasksArgs& a) {
  std::filesystem::path target = a.target.empty() ? tasks_dir(a) : std::filesystem::path(a.target);
  auto tasks = load_tasks(target);
  if (!tasks.ok()) {
    std::cerr << "passforge tasks check: " << tasks.error().message << "\n";
    return kExitUsage;
  }
  agent::Shard shard;
  if (!a.shard.empty()) {
    // "K/N" only: a check has no scheduler environment to read.
    auto parsed = agent::parse_shard(a.shard, [](const char*) -> const char* { return nullptr; });
    if (!parsed.ok()) {
      std::cerr << "passforge tasks check: " << parsed.error().message << "\n";
      return kExitUsage;
    }
    shard = *parsed;
  }
  struct Job {
    const Task* task;
    const TaskVariant* variant;
  };
  std::vector<Job> jobs;
  size_t checked_tasks = 0;
  for (size_t ti = 0; ti < tasks->size(); ++ti) {
    if (!shard.owns(static_cast<int64_t>(ti))) continue;  // tasks are sorted by file name
    ++checked_tasks;
    for (const auto& v : (*tasks)[ti].variants) jobs.push_back({&(*tasks)[ti], &v});
  }
  std::vector<VariantCheck> results(jobs.size());
  SynthesisOptions so;
  so.seed = a.seed;
  const OpRegistry& registry = OpRegistry::builtin();
  std::atomic<size_t> next{0};
  std::mutex print_mu;
  auto worker = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      results[i] = check_variant(*jobs[i].task, *jobs[i].variant, so, registry);
      if (a.json) continue;
      std::lock_guard lock(print_mu);
      const auto& c = results[i];
      std::cout << (!c.ok          ? "ERROR  "
                    : c.degenerate ? "DEGEN  "
                                   : "ok     ")
                << c.task << " / " << c.variant;
      if (!c.ok) std::cout << ": " << c.error;
      for (const auto& o : c.outputs) {
        std::cout << "  " << tensor_type_str(o.type) << " " << o.checksum;
        if (o.degenerate) std::cout << " (degenerate: " << o.degenerate_reason << ")";
      }
      if (c.degenerate) {
        std::cout << "\n       no input draw carries information: " << c.redrawn;
      } else if (c.draw_attempt > 0) {
        std::cout << "\n       inputs re-drawn (attempt " << c.draw_attempt << "): " << c.redrawn;
      }
      std::cout << "\n";
    }
  };
  const int n =
      a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  int failed = 0, degenerate = 0, redrawn = 0;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : results) {
    failed += !c.ok;
    degenerate += c.ok && c.degenerate;
    redrawn += c.ok && !c.degenerate && c.draw_attempt > 0;
    out.push_back(variant_check_to_json(c));
  }
  if (a.json) {
    std::cout << nlohmann::json{{"variants", results.size()},
                                {"failed", failed},
                                {"degenerate_variants", degenerate},
                                {"redrawn_variants", redrawn},
                                {"results", out}}
                     .dump(1)
              << "\n";
  } else {
    std::cout << results.size() - failed - degenerate << "/" << results.size() << " variants ok in "
              << checked_tasks << " tasks; " << redrawn << " with re-drawn inputs; " << degenerate
              << " degenerate (no input draw gives an output that carries information: they "
                 "cannot decide correctness)\n";
  }
  return failed == 0 && degenerate == 0 ? kExitOk : kExitFailure;
}

int run_one(const TasksArgs& a) {
  auto task = resolve_task(a.target, tasks_dir(a));
  if (!task.ok()) {
    std::cerr << "passforge tasks run: " << task.error().message << "\n";
    return kExitUsage;
  }
  const TaskVariant* variant = nullptr;
  std::vector<std::string> names;
  for (const auto& v : task->variants) {
    names.push_back(v.name);
    if (v.name == a.variant) variant = &v;
  }
  if (!variant) {
    std::cerr << "passforge tasks run: task " << task->id << " has no variant '" << a.variant
              << "' (variants: " << join(names, ", ") << ")\n";
    return kExitUsage;
  }
  const OpRegistry& registry = OpRegistry::builtin();
  auto graph = typed_variant_graph(*variant, registry);
  if (!graph.ok()) {
    std::cerr << "passforge tasks run: " << graph.error().message << "\n";
    return kExitFailure;
  }
  SynthesisOptions so;
  so.seed = a.seed;
  std::vector<Tensor> inputs = synthesize_inputs(*variant, so);
  std::filesystem::path out_dir(a.outputs_dir);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const InputMeta& meta = variant->inputs[i];
    if (!a.inputs_dir.empty()) {
      auto loaded = read_npy(std::filesystem::path(a.inputs_dir) / (meta.name + ".npy"));
      if (!loaded.ok()) {
        std::cerr << "passforge tasks run: " << loaded.error().message << "\n";
        return kExitUsage;
      }
      if (loaded->shape() != meta.shape) {
        std::cerr << "passforge tasks run: " << meta.name << ".npy has shape "
                  << shape_str(loaded->shape()) << ", the variant needs " << shape_str(meta.shape)
                  << "\n";
        return kExitUsage;
      }
      inputs[i] = loaded->to_dtype(meta.dtype);
    }
    auto st = write_npy(out_dir / ("in_" + meta.name + ".npy"), inputs[i]);
    if (!st.ok()) {
      std::cerr << "passforge tasks run: " << st.error().message << "\n";
      return kExitFailure;
    }
  }
  auto outputs = run_graph_cpu(*graph, inputs, registry);
  if (!outputs.ok()) {
    std::cerr << "passforge tasks run: " << outputs.error().message << "\n";
    return kExitFailure;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    auto path = out_dir / ("out_" + std::to_string(i) + ".npy");
    auto st = write_npy(path, (*outputs)[i]);
    if (!st.ok()) {
      std::cerr << "passforge tasks run: " << st.error().message << "\n";
      return kExitFailure;
    }
    std::cout << path.string() << "  "
              << tensor_type_str({(*outputs)[i].dtype(), (*outputs)[i].shape()}) << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_tasks_command(CLI::App& app, CommandContext& ctx) {
  auto a = std::make_shared<TasksArgs>();
  auto* cmd = app.add_subcommand("tasks", "list, show, check and run tasks");
  cmd->require_subcommand(1);
  cmd->add_option("--tasks-dir", a->tasks_dir,
                  "task suite directory (default: the built-in tasks/)");

  auto* list = cmd->add_subcommand("list", "list the tasks of the suite");
  list->add_flag("--json", a->json, "machine-readable output");
  list->callback([a, &ctx] { ctx.exit_code = run_list(*a); });

  auto* show = cmd->add_subcommand("show", "print a task's variants as dialect code");
  show->add_option("task", a->target, "task id or task file")->required();
  show->add_option("--variant", a->variant, "only this variant");
  show->add_flag("--json", a->json, "print the task file");
  show->callback([a, &ctx] { ctx.exit_code = run_show(*a); });

  auto* check =
      cmd->add_subcommand("check", "parse, type-check and run every variant on the CPU reference");
  check->add_option("target", a->target, "task file or directory (default: the suite)");
  check->add_option("--seed", a->seed, "input synthesis seed");
  check->add_option("--jobs", a->jobs, "parallel checks (default: all cores)");
  check->add_option("--shard", a->shard,
                    "K/N: only every N-th task from the K-th (0-based, by file name)");
  check->add_flag("--json", a->json, "machine-readable output");
  check->callback([a, &ctx] { ctx.exit_code = run_check(*a); });

  auto* run =
      cmd->add_subcommand("run", "run one variant on the CPU reference, writing .npy files");
  run->add_option("task", a->target, "task id or task file")->required();
  run->add_option("--variant", a->variant, "variant name")->required();
  run->add_option("--inputs", a->inputs_dir, "read <input name>.npy from here (else synthesise)");
  run->add_option("--outputs", a->outputs_dir, "write in_<name>.npy and out_<i>.npy here")
      ->required();
  run->add_option("--seed", a->seed, "input synthesis seed");
  run->callback([a, &ctx] { ctx.exit_code = run_one(*a); });
}

}  // namespace pf::cli
