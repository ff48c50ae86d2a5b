// passforge: the orchestrator CLI. Subcommands are registered from their own
// files; this file only wires global options, logging and exit codes.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/cmd_ab.h"
#include "cli/cmd_doctor.h"
#include "cli/cmd_eval.h"
#include "cli/cmd_export.h"
#include "cli/cmd_import.h"
#include "cli/cmd_improve.h"
#include "cli/cmd_merge.h"
#include "cli/cmd_run.h"
#include "cli/cmd_serve.h"
#include "cli/cmd_serve_replay.h"
#include "cli/cmd_stats.h"
#include "cli/cmd_tasks.h"
#include "cli/command.h"
#include "cli/exit_codes.h"
#include "common/log.h"
#include "passforge/version.h"

int main(int argc, char** argv) {
  using namespace pf::cli;
  CLI::App app{"passforge: agentic trajectories for compiler-pass generation"};
  app.set_version_flag("--version", std::string(pf::kVersion) + " (" + pf::kGitCommit + ")");
  app.require_subcommand(1);
  CommandContext ctx;
  app.add_option("--log-level", ctx.global.log_level, "trace|debug|info|warn|error|off")
      ->capture_default_str();
  app.add_option("--log-file", ctx.global.log_file, "also write logs to this file");
  app.parse_complete_callback([&ctx] {
    auto st = pf::setup_logging({ctx.global.log_level, ctx.global.log_file});
    if (!st.ok()) {
      std::cerr << "passforge: " << st.error().message << "\n";
      std::exit(kExitUsage);
    }
  });

  add_run_command(app, ctx);
  add_eval_command(app, ctx);
  add_import_command(app, ctx);
  add_tasks_command(app, ctx);
  add_export_command(app, ctx);
  add_stats_command(app, ctx);
  add_merge_command(app, ctx);
  add_ab_command(app, ctx);
  add_improve_command(app, ctx);
  add_serve_command(app, ctx);
  add_doctor_command(app, ctx);
  add_serve_replay_command(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return ctx.exit_code;
}
