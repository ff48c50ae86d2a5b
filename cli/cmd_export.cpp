// `passforge export <run-dir>... --format F --out file.jsonl [filters]`:
// fine-tuning data from trajectory stores (docs/export-formats.md).
#include "cli/cmd_export.h"

#include <iostream>

#include "cli/exit_codes.h"
#include "trajectories/exporter.h"

namespace pf::cli {
namespace {

struct ExportArgs {
  std::vector<std::string> run_dirs;
  std::string format = "openai";
  std::string out;
  double min_as = traj::kDefaultMinAs;
  bool best_only = false;
  double min_correct = 1.0;
  bool include_flagged = false;
  bool include_unstable = false;
  bool include_compile_only = false;
  std::string correctness_levels;
  bool dedupe = false;
  int64_t max_tokens = 0;
  std::string reasoning = "keep";
  std::string weight = "all";
  std::string split;
};

int fail(const Error& e) {
  std::cerr << "passforge export: " << e.message << "\n";
  // Unreadable stores and unwritable outputs are bad input files (README: exit 2).
  bool usage = e.code == ErrorCode::invalid_argument || e.code == ErrorCode::not_found ||
               e.code == ErrorCode::unsupported || e.code == ErrorCode::parse_error ||
               e.code == ErrorCode::io_error;
  return usage ? kExitUsage : kExitFailure;
}

int run_export(const ExportArgs& a, const CLI::App& cmd) {
  traj::ExportOptions o;
  auto format = traj::parse_export_format(a.format);
  if (!format.ok()) return fail(format.error());
  o.format = *format;
  o.out = a.out;
  if (cmd.count("--min-as")) o.min_as = a.min_as;
  o.best_only = a.best_only;
  o.min_correct = a.min_correct;
  o.include_flagged = a.include_flagged;
  o.include_unstable = a.include_unstable;
  o.include_compile_only = a.include_compile_only;
  o.correctness_levels = a.correctness_levels;
  o.dedupe = a.dedupe;
  if (cmd.count("--max-tokens")) o.max_tokens = a.max_tokens;
  auto reasoning = traj::parse_reasoning_mode(a.reasoning);
  if (!reasoning.ok()) return fail(reasoning.error());
  o.reasoning = *reasoning;
  auto weight = traj::parse_weight_mode(a.weight);
  if (!weight.ok()) return fail(weight.error());
  o.weight = *weight;
  if (!a.split.empty()) {
    auto splits = traj::parse_splits(a.split);
    if (!splits.ok()) return fail(splits.error());
    o.splits = *splits;
  }
  std::vector<std::filesystem::path> stores(a.run_dirs.begin(), a.run_dirs.end());
  auto summary = traj::export_trajectories(stores, o);
  if (!summary.ok()) return fail(summary.error());
  std::cout << summary->to_text();
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "export trajectories as fine-tuning data (JSONL)");
  cmd->add_option("run_dirs", args->run_dirs, "run directories (or passforge.db files)")
      ->required();
  cmd->add_option("--format", args->format, "openai | sharegpt | trl | dpo | raw")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "output JSONL file (with --split: one file per split)")
      ->required();
  cmd->add_option("--min-as", args->min_as,
                  "keep episodes whose final submit's AS (dpo: chosen side's) is above this "
                  "(default 0.1; raw: no limit)");
  cmd->add_flag("--best-only", args->best_only, "only the best episode of each task");
  cmd->add_option("--min-correct", args->min_correct,
                  "loosening: share of the task's variants (hidden included) that must be "
                  "correct (default 1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_flag("--include-flagged", args->include_flagged,
                "loosening: hack-flagged evaluations may pass the verified rule");
  cmd->add_flag("--include-unstable", args->include_unstable,
                "loosening: evaluations with unstable timings may pass the verified rule");
  cmd->add_flag("--include-compile-only", args->include_compile_only,
                "loosening: compile-only evaluations (no GPU) may pass; a variant counts as "
                "correct when it compiled, matched and dry-ran");
  cmd->add_option("--correctness-levels", args->correctness_levels,
                  "per-variant PyTorch levels (tests/data/pytorch_levels.json format): a "
                  "variant is judged at max(t = -5, its level)");
  cmd->add_flag("--dedupe", args->dedupe, "one episode per task and identical final pass");
  cmd->add_option("--max-tokens", args->max_tokens, "drop records longer than this");
  cmd->add_option("--reasoning", args->reasoning, "keep | drop reasoning_content")
      ->capture_default_str();
  cmd->add_option("--weight", args->weight, "assistant turns trained on: all | final | improving")
      ->capture_default_str();
  cmd->add_option("--split", args->split, "deterministic split by task id, e.g. train=0.9,val=0.1");
  cmd->callback([&ctx, args, cmd] { ctx.exit_code = run_export(*args, *cmd); });
}

}  // namespace pf::cli
