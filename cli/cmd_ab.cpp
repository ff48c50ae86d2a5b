// `passforge ab`: an A/B experiment (docs/ab.md). Runs every arm on the same
// tasks with the same seeds, interleaved, in one store, then prints the
// comparison: a table (or --json) and optionally an SVG chart. --resume
// continues a stopped experiment; --report-only prints the report of a
// stored one without running anything.
#include "cli/cmd_ab.h"

#include "cli/experiment_command.h"
#include "experiments/ab_experiment.h"
#include "trajectories/trajectory_store.h"

namespace pf::cli {
namespace {

const ExperimentWords kWords{"ab", "experiment", "EXPERIMENT.toml"};

int ab_command(const ExperimentArgs& args) {
  if (auto usage = experiment_usage_error(args, kWords)) return *usage;
  if (args.report_only) return print_stored_report(args, kWords, experiments::report_ab);
  auto request =
      experiment_request<experiments::AbRequest>(args, kWords, experiments::load_ab_spec);
  if (!request.ok()) {
    experiment_error(kWords, request.error().message);
    return kExitUsage;
  }
  auto outcome = run_cancellable(
      kWords, [&](llm::CancelToken& cancel) { return experiments::run_ab(*request, cancel); });
  if (!outcome.ok()) {
    experiment_error(kWords, outcome.error().message);
    return outcome.error().code == ErrorCode::internal ? kExitFailure : kExitUsage;
  }
  int rc = print_experiment_report(outcome->report, args, kWords);
  std::ostream& out = experiment_out(args);
  out << "data: " << traj::store_path(outcome->dir).string() << " (one run per arm; passforge "
      << "stats/export read it)\n";
  if (outcome->session.interrupted) {
    out << "interrupted: continue with  passforge ab --resume " << outcome->dir.string() << "\n";
    return kExitInterrupted;
  }
  if (rc != kExitOk) return rc;
  return outcome->session.failed_episodes > 0 ? kExitFailure : kExitOk;
}

}  // namespace

void add_ab_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ExperimentArgs>();
  auto* cmd = app.add_subcommand(
      "ab",
      "A/B experiment: arms (prompt variant, model, sampling, agent settings) on the same "
      "tasks and seeds, interleaved; paired comparison with CI, sign and Wilcoxon tests");
  add_experiment_options(cmd, *args, kWords, "experiment file (docs/ab.md, configs/ab-*.toml)",
                         "print the report as JSON",
                         "write a chart of per-task scores per arm to this file");
  cmd->callback([args, &ctx] { ctx.exit_code = ab_command(*args); });
}

}  // namespace pf::cli
