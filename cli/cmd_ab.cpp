// `passforge ab`: an A/B experiment (docs/ab.md). Runs every arm on the same
// tasks with the same seeds, interleaved, in one store, then prints the
// comparison: a table (or --json) and optionally an SVG chart. --resume
// continues a stopped experiment; --report-only prints the report of a
// stored one without running anything.
#include "cli/cmd_ab.h"

#include <unistd.h>

#include <iostream>

#include "cli/endpoint_options.h"
#include "cli/exit_codes.h"
#include "cli/signal_watch.h"
#include "common/fs.h"
#include "experiments/ab_experiment.h"
#include "trajectories/trajectory_store.h"

namespace pf::cli {
namespace {

struct AbArgs {
  std::string config;
  std::string resume;
  std::string svg;
  bool json = false;
  bool report_only = false;
};

int print_report(const experiments::AbReport& report, const AbArgs& args) {
  if (args.json) {
    std::cout << report.to_json().dump(2) << "\n";
  } else {
    std::cout << "\n" << report.table();
  }
  if (!args.svg.empty()) {
    if (auto st = write_file_atomic(args.svg, report.svg()); !st.ok()) {
      std::cerr << "passforge ab: " << st.error().message << "\n";
      return kExitFailure;
    }
    if (!args.json) std::cout << "chart: " << args.svg << "\n";
  }
  return kExitOk;
}

int ab_command(const AbArgs& args) {
  if (args.config.empty() == args.resume.empty()) {
    std::cerr << "passforge ab: give --config EXPERIMENT.toml (a new experiment) or --resume DIR "
                 "(continue one)\n";
    return kExitUsage;
  }
  if (args.report_only) {
    if (args.resume.empty()) {
      std::cerr << "passforge ab: --report-only reads a stored experiment: use --resume DIR\n";
      return kExitUsage;
    }
    auto report = experiments::report_ab(args.resume);
    if (!report.ok()) {
      std::cerr << "passforge ab: " << report.error().message << "\n";
      return kExitUsage;
    }
    return print_report(*report, args);
  }
  experiments::AbRequest request;
  if (!args.config.empty()) {
    auto spec = experiments::load_ab_spec(args.config);
    if (!spec.ok()) {
      std::cerr << "passforge ab: " << spec.error().message << "\n";
      return kExitUsage;
    }
    request.spec = std::move(spec).value();
  }
  request.resume_dir = args.resume;
  request.llm_options = llm_options_from;
  request.terminal = !args.json && isatty(2) != 0;
  // With --json stdout carries only the report.
  request.notice = [json = args.json](const std::string& line) {
    (json ? std::cerr : std::cout) << "passforge ab: " << line << std::endl;
  };
  llm::CancelToken cancel;
  Result<experiments::AbOutcome> outcome = make_error(ErrorCode::internal, "not run");
  {
    SignalWatcher signals(cancel, "ab");
    outcome = experiments::run_ab(request, cancel);
  }
  if (!outcome.ok()) {
    std::cerr << "passforge ab: " << outcome.error().message << "\n";
    return outcome.error().code == ErrorCode::internal ? kExitFailure : kExitUsage;
  }
  int rc = print_report(outcome->report, args);
  auto& out = args.json ? std::cerr : std::cout;
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
  auto args = std::make_shared<AbArgs>();
  auto* cmd = app.add_subcommand(
      "ab",
      "A/B experiment: arms (prompt variant, model, sampling, agent settings) on the same "
      "tasks and seeds, interleaved; paired comparison with CI, sign and Wilcoxon tests");
  cmd->add_option("--config", args->config, "experiment file (docs/ab.md, configs/ab-*.toml)");
  cmd->add_option("--resume", args->resume, "continue the experiment stored in this directory");
  cmd->add_flag("--json", args->json, "print the report as JSON");
  cmd->add_option("--svg", args->svg, "write a chart of per-task scores per arm to this file");
  cmd->add_flag("--report-only", args->report_only,
                "with --resume: print the stored experiment's report, run nothing");
  cmd->callback([args, &ctx] { ctx.exit_code = ab_command(*args); });
}

}  // namespace pf::cli
