// `passforge improve`: self-improvement rounds (docs/improve.md). Prints the
// per-round table (or --json) and optionally an SVG chart. --resume
// continues a stopped loop at the step it stopped; --report-only prints the
// stored loop's report without running anything.
#include "cli/cmd_improve.h"

#include "cli/experiment_command.h"
#include "experiments/improve_loop.h"
#include "trajectories/trajectory_store.h"

namespace pf::cli {
namespace {

const ExperimentWords kWords{"improve", "loop", "IMPROVE.toml"};

int improve_command(const ExperimentArgs& args) {
  if (auto usage = experiment_usage_error(args, kWords)) return *usage;
  if (args.report_only) return print_stored_report(args, kWords, experiments::report_improve);
  auto request =
      experiment_request<experiments::ImproveRequest>(args, kWords, experiments::load_improve_spec);
  if (!request.ok()) {
    experiment_error(kWords, request.error().message);
    return kExitUsage;
  }
  auto outcome = run_cancellable(
      kWords, [&](llm::CancelToken& cancel) { return experiments::run_improve(*request, cancel); });
  if (!outcome.ok()) {
    experiment_error(kWords, outcome.error().message);
    bool ran = outcome.error().code == ErrorCode::internal ||
               outcome.error().code == ErrorCode::unavailable;
    if (ran)
      std::cerr << "(finished steps are kept; continue with --resume <the loop's directory>)\n";
    return ran ? kExitFailure : kExitUsage;
  }
  int rc = print_experiment_report(outcome->report, args, kWords);
  std::ostream& out = experiment_out(args);
  out << "data: " << outcome->dir.string() << " (loop state and exemplars in "
      << traj::store_path(outcome->dir).string() << "; rounds/<k>/{train,eval} stores, "
      << "rounds/<k>/{sft,dpo}.jsonl)\n";
  if (outcome->interrupted) {
    out << "interrupted: continue with  passforge improve --resume " << outcome->dir.string()
        << "\n";
    return kExitInterrupted;
  }
  return rc;
}

}  // namespace

void add_improve_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ExperimentArgs>();
  auto* cmd = app.add_subcommand(
      "improve",
      "self-improvement rounds: train episodes, select, exemplar library, SFT/DPO "
      "exports, optional training command; held-out evaluation every round");
  add_experiment_options(cmd, *args, kWords, "loop file (docs/improve.md, configs/improve-*.toml)",
                         "print the per-round report as JSON",
                         "write a chart of the per-round metrics to this file");
  cmd->callback([args, &ctx] { ctx.exit_code = improve_command(*args); });
}

}  // namespace pf::cli
