// `passforge improve`: self-improvement rounds (docs/improve.md). Prints the
// per-round table (or --json) and optionally an SVG chart. --resume
// continues a stopped loop at the step it stopped; --report-only prints the
// stored loop's report without running anything.
#include "cli/cmd_improve.h"

#include <unistd.h>

#include <iostream>

#include "cli/endpoint_options.h"
#include "cli/exit_codes.h"
#include "cli/signal_watch.h"
#include "common/fs.h"
#include "experiments/improve_loop.h"
#include "trajectories/trajectory_store.h"

namespace pf::cli {
namespace {

struct ImproveArgs {
  std::string config;
  std::string resume;
  std::string svg;
  bool json = false;
  bool report_only = false;
};

int print_report(const experiments::ImproveReport& report, const ImproveArgs& args) {
  if (args.json) {
    std::cout << report.to_json().dump(2) << "\n";
  } else {
    std::cout << "\n" << report.table();
  }
  if (!args.svg.empty()) {
    if (auto st = write_file_atomic(args.svg, report.svg()); !st.ok()) {
      std::cerr << "passforge improve: " << st.error().message << "\n";
      return kExitFailure;
    }
    if (!args.json) std::cout << "chart: " << args.svg << "\n";
  }
  return kExitOk;
}

int improve_command(const ImproveArgs& args) {
  if (args.config.empty() == args.resume.empty()) {
    std::cerr << "passforge improve: give --config IMPROVE.toml (a new loop) or --resume DIR "
                 "(continue one)\n";
    return kExitUsage;
  }
  if (args.report_only) {
    if (args.resume.empty()) {
      std::cerr << "passforge improve: --report-only reads a stored loop: use --resume DIR\n";
      return kExitUsage;
    }
    auto report = experiments::report_improve(args.resume);
    if (!report.ok()) {
      std::cerr << "passforge improve: " << report.error().message << "\n";
      return kExitUsage;
    }
    return print_report(*report, args);
  }
  experiments::ImproveRequest request;
  if (!args.config.empty()) {
    auto spec = experiments::load_improve_spec(args.config);
    if (!spec.ok()) {
      std::cerr << "passforge improve: " << spec.error().message << "\n";
      return kExitUsage;
    }
    request.spec = std::move(spec).value();
  }
  request.resume_dir = args.resume;
  request.llm_options = llm_options_from;
  request.terminal = !args.json && isatty(2) != 0;
  request.notice = [json = args.json](const std::string& line) {
    (json ? std::cerr : std::cout) << "passforge improve: " << line << std::endl;
  };
  llm::CancelToken cancel;
  Result<experiments::ImproveOutcome> outcome = make_error(ErrorCode::internal, "not run");
  {
    SignalWatcher signals(cancel, "improve");
    outcome = experiments::run_improve(request, cancel);
  }
  if (!outcome.ok()) {
    std::cerr << "passforge improve: " << outcome.error().message << "\n";
    bool ran = outcome.error().code == ErrorCode::internal ||
               outcome.error().code == ErrorCode::unavailable;
    if (ran)
      std::cerr << "(finished steps are kept; continue with --resume <the loop's directory>)\n";
    return ran ? kExitFailure : kExitUsage;
  }
  int rc = print_report(outcome->report, args);
  auto& out = args.json ? std::cerr : std::cout;
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
  auto args = std::make_shared<ImproveArgs>();
  auto* cmd = app.add_subcommand(
      "improve",
      "self-improvement rounds: train episodes, select, exemplar library, SFT/DPO "
      "exports, optional training command; held-out evaluation every round");
  cmd->add_option("--config", args->config, "loop file (docs/improve.md, configs/improve-*.toml)");
  cmd->add_option("--resume", args->resume, "continue the loop stored in this directory");
  cmd->add_flag("--json", args->json, "print the per-round report as JSON");
  cmd->add_option("--svg", args->svg, "write a chart of the per-round metrics to this file");
  cmd->add_flag("--report-only", args->report_only,
                "with --resume: print the stored loop's report, run nothing");
  cmd->callback([args, &ctx] { ctx.exit_code = improve_command(*args); });
}

}  // namespace pf::cli
