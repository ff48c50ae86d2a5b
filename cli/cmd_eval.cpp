// `passforge eval --task <task.json|id> --pass <workspace> [--json]
// [--compile-only] [--svg out.svg] [--feedback]`: one GPU worker runs the
// full protocol (docs/evaluation.md); without a GPU the evaluation is
// compile-only and says so loudly. Prints a per-variant table and the task's
// ES_t / AS, the whole result with --json, or the model's feedback report.
#include "cli/cmd_eval.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "agent/loop/feedback_report.h"
#include "agent/scheduler/run_setup.h"
#include "cli/config_options.h"
#include "cli/exit_codes.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/tasks/task_suite.h"
#include "prompts/prompt_variant.h"
#include "trajectories/stats_report.h"

namespace pf::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct EvalArgs {
  ConfigOptions config;
  std::string task;
  std::string pass_dir;
  std::string tasks_dir;
  std::string svg;
  bool json = false;
  bool compile_only = false;
  bool feedback = false;
  std::optional<uint64_t> seed;  // input synthesis seed; unset: a fresh one per evaluation
};

std::string num(const json& j, const char* fmt) {
  if (!j.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, j.get<double>());
  return buf;
}

std::string status_of(const json& v, bool compile_only) {
  if (v.contains("skipped")) return "skipped";
  if (!v.value("evaluated", true)) return "not run";
  if (auto f = v.find(protocol::field::kFailureClass); f != v.end() && f->is_string()) {
    return f->get<std::string>();
  }
  if (compile_only) return "ok";
  return v.value("correct", false) ? "correct" : "wrong";
}

void print_table(const json& r, bool compile_only) {
  std::printf("%-44s %-14s %10s %10s %8s %10s %10s\n", "variant", "status", "max_abs", "max_rel",
              "speedup", "cand_us", "eager_us");
  for (const auto& v : r.value("variants", json::array())) {
    std::string name = v.value("name", "");
    if (name.size() > 43) name = name.substr(0, 40) + "...";
    if (v.value("hidden", false)) name = "(hidden) " + name;
    const json t = v.value("timing", json::object());
    auto dev_us = [&](const char* side) {
      return t.contains(side) ? num(t[side]["device_median_ms"].get<double>() * 1e3, "%.1f")
                              : std::string("-");
    };
    std::printf("%-44s %-14s %10s %10s %8s %10s %10s\n", name.c_str(),
                status_of(v, compile_only).c_str(),
                num(v.value("max_abs_diff", json()), "%.3g").c_str(),
                num(v.value("max_rel_diff", json()), "%.3g").c_str(),
                num(v.value("speedup", json()), "%.2fx").c_str(), dev_us("candidate").c_str(),
                dev_us("eager").c_str());
  }
  if (r.contains("message") && r["message"].is_string() &&
      !r["message"].get<std::string>().empty()) {
    std::printf("\n%s\n", r["message"].get<std::string>().c_str());
  }
  for (const auto& f : r.value("flags", json::array())) {
    std::printf("flag %s (%s): %s\n", f.value("flag", "").c_str(), f.value("variant", "").c_str(),
                f.value("evidence", "").c_str());
  }
  for (const auto& f : r.value("hack_flags", json::array())) {
    if (f.is_string()) std::printf("hack flag: %s\n", f.get<std::string>().c_str());
  }
  if (compile_only) {
    std::printf("\nCOMPILE-ONLY: nothing ran on a GPU; no correctness check, no speedup, no AS.\n");
    return;
  }
  std::printf("\nAS %s", num(r.value("as", json()), "%.4f").c_str());
  if (r.contains("hidden_as") && !r["hidden_as"].is_null()) {
    std::printf("  hidden AS %s", num(r["hidden_as"], "%.4f").c_str());
  }
  std::printf("  correct %s  geomean speedup %s (vs passforge's eager CUDA baseline)\n",
              num(r.value("correct_rate", json()), "%.2f").c_str(),
              num(r.value("geomean_speedup", json()), "%.3fx").c_str());
  if (r.contains("es_curve") && r["es_curve"].is_array()) {
    std::printf("ES_t:");
    for (const auto& p : r["es_curve"]) {
      std::printf(" %d:%s", p.value("t", 0), num(p.value("es", json()), "%.3g").c_str());
    }
    std::printf("\n");
  }
  if (r.value("unstable", false)) std::printf("UNSTABLE timing: excluded from data\n");
  if (r.value("incomplete", false)) std::printf("INCOMPLETE: some variants were not evaluated\n");
}

Status write_svg(const json& r, const std::string& task_id, const std::string& path) {
  std::vector<traj::ChartSeries> series;
  for (const char* key : {"es_curve", "hidden_es_curve"}) {
    if (!r.contains(key) || !r[key].is_array()) continue;
    traj::ChartSeries s{key == std::string("es_curve") ? "visible" : "hidden", {}};
    for (const auto& p : r[key]) s.points.emplace_back(p.value("t", 0), p.value("es", 0.0));
    series.push_back(std::move(s));
  }
  if (series.empty()) {
    return make_error(ErrorCode::invalid_argument, "no ES_t curve (compile-only evaluation)");
  }
  std::ofstream out(path);
  out << traj::es_curve_chart(series, "ES_t: " + task_id);
  if (!out) return make_error(ErrorCode::io_error, "cannot write " + path);
  return ok_status();
}

int run_eval(const EvalArgs& a) {
  auto loaded = load_config_or_report(a.config);
  if (!loaded.ok()) return kExitUsage;
  const Config& config = loaded->config;
  fs::path dir = a.tasks_dir.empty() ? default_tasks_dir() : fs::path(a.tasks_dir);
  auto task = resolve_task(a.task, dir);
  if (!task.ok()) {
    std::cerr << "passforge eval: " << task.error().message << "\n";
    return kExitUsage;
  }
  auto ws = passes::PassWorkspace::load(a.pass_dir);
  if (!ws.ok()) {
    std::cerr << "passforge eval: " << ws.error().message << "\n";
    return kExitUsage;
  }
  // One worker: the first GPU of the plan (every index of evaluator.gpus
  // checked to exist), or compile-only.
  protocol::EvaluationPlan plan;
  plan.reason = "--compile-only";
  if (!a.compile_only) {
    auto planned = protocol::plan_evaluation(config.evaluator);
    if (!planned.ok()) {
      std::cerr << "passforge eval: " << planned.error().message << "\n";
      return kExitUsage;
    }
    plan = protocol::first_gpu_only(std::move(planned).value());
  }
  if (plan.mode == protocol::EvalMode::compile_only) {
    std::cerr << "passforge eval: COMPILE-ONLY evaluation (" << plan.reason
              << "): no kernel runs, nothing is checked for correctness or timed\n";
  }
  protocol::ServiceOptions so = protocol::service_options(config, plan);
  so.pool.cpu_workers = 1;
  // One evaluation has nothing to overlap its compile with: the split would
  // only start another worker.
  so.cpu_precompile = false;
  if (a.seed) so.options["seed"] = *a.seed;
  auto service = protocol::EvaluationService::start(std::move(so));
  if (!service.ok()) {
    std::cerr << "passforge eval: " << service.error().message << "\n";
    return kExitFailure;
  }
  auto evaluated = (*service)->evaluate(*task, ws->files(), plan.mode);
  if (!evaluated.ok()) {
    std::cerr << "passforge eval: " << evaluated.error().message << "\n";
    return kExitFailure;
  }
  const bool compile_only = evaluated->mode == protocol::EvalMode::compile_only;
  const json& r = evaluated->result;
  if (a.json) {
    std::cout << r.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else if (a.feedback) {
    auto prompts = prompts::PromptVariant::load(config.prompts.dir, config.prompts.variant);
    if (!prompts.ok()) {
      std::cerr << "passforge eval: " << prompts.error().message << "\n";
      return kExitUsage;
    }
    auto text = agent::render_feedback(r, *prompts, config.evaluator.feedback_max_chars);
    if (!text.ok()) {
      std::cerr << "passforge eval: " << text.error().message << "\n";
      return kExitFailure;
    }
    std::cout << *text << "\n";
  } else {
    print_table(r, compile_only);
    const json seed = r.contains("options") ? r["options"].value("seed", json()) : json();
    if (!compile_only && seed.is_number_integer()) {
      std::printf("inputs synthesised with seed %s (--seed %s reproduces them)\n",
                  seed.dump().c_str(), seed.dump().c_str());
    }
  }
  if (!a.svg.empty()) {
    if (Status st = write_svg(r, task->id, a.svg); !st.ok()) {
      std::cerr << "passforge eval: --svg: " << st.error().message << "\n";
      return kExitFailure;
    }
  }
  bool ok = r.value("ok", false) &&
            (r.value("mode", "") == "compile_only" ||
             (r.value("correct_rate", 0.0) == 1.0 && r.value("hack_flags", json::array()).empty()));
  return ok ? kExitOk : kExitFailure;
}

}  // namespace

void add_eval_command(CLI::App& app, CommandContext& ctx) {
  auto a = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval", "evaluate a pass workspace on a task (full protocol)");
  cmd->add_option("--task", a->task, "task id (in --tasks-dir) or task file")->required();
  cmd->add_option("--pass", a->pass_dir, "pass workspace directory (passes/, kernels/)")
      ->required();
  cmd->add_option("--tasks-dir", a->tasks_dir,
                  "task suite directory (default: the built-in tasks/)");
  cmd->add_flag("--json", a->json, "print the whole result JSON (docs/evaluation.md)");
  cmd->add_flag("--compile-only", a->compile_only, "no GPU run: load, compile, match, dry-run");
  cmd->add_flag("--feedback", a->feedback, "print the feedback report the model would read");
  cmd->add_option("--svg", a->svg, "write the task's ES_t curve as an SVG file");
  cmd->add_option("--seed", a->seed,
                  "input synthesis seed (default: a fresh one per evaluation, printed and in the "
                  "result's options)");
  add_config_options(*cmd, a->config);
  cmd->callback([a, &ctx] { ctx.exit_code = run_eval(*a); });
}

}  // namespace pf::cli
