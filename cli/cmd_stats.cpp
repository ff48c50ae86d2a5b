// `passforge stats <run-dir>... [--json] [--svg out.svg]`: run and per-task
// metrics from trajectory stores; several directories compare side by side.
#include "cli/cmd_stats.h"

#include <iostream>

#include "cli/exit_codes.h"
#include "common/fs.h"
#include "trajectories/run_stats.h"
#include "trajectories/scoring_mode_check.h"
#include "trajectories/stats_report.h"
#include "trajectories/trajectory_reader.h"

namespace pf::cli {
namespace {

struct StatsArgs {
  std::vector<std::string> run_dirs;
  bool json = false;
  std::string svg;
};

int run_stats(const StatsArgs& a) {
  std::vector<traj::RunStats> all;
  traj::ScoringModeCheck modes;
  for (const auto& dir : a.run_dirs) {
    auto reader = traj::TrajectoryReader::open(dir);
    if (!reader.ok()) {
      std::cerr << "passforge stats: " << reader.error().message << "\n";
      return kExitUsage;
    }
    auto runs = reader->runs();
    if (!runs.ok()) {
      std::cerr << "passforge stats: " << dir << ": " << runs.error().message << "\n";
      return kExitFailure;
    }
    for (const auto& run : *runs) modes.add(run, dir);
    auto stats = traj::compute_stats(*reader, dir);
    if (!stats.ok()) {
      std::cerr << "passforge stats: " << dir << ": " << stats.error().message << "\n";
      return kExitFailure;
    }
    all.push_back(std::move(*stats));
  }
  if (auto st = modes.require_one("refusing to show runs scored under different scoring modes");
      !st.ok()) {
    std::cerr << "passforge stats: " << st.error().message << "\n";
    return kExitUsage;
  }
  if (a.json) {
    traj::Json out = traj::Json::array();
    for (const auto& s : all) out.push_back(traj::to_json(s));
    std::cout << traj::json_text(all.size() == 1 ? out[0] : out, 2) << "\n";
  } else {
    std::cout << traj::stats_table(all);
  }
  if (!a.svg.empty()) {
    auto st = write_file_atomic(a.svg, traj::es_curve_svg(all));
    if (!st.ok()) {
      std::cerr << "passforge stats: " << st.error().message << "\n";
      return kExitUsage;  // an output that cannot be written is a bad argument
    }
    std::cerr << "ES_t curve written to " << a.svg << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_stats_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<StatsArgs>();
  auto* cmd = app.add_subcommand("stats", "statistics of runs (several: side by side)");
  cmd->add_option("run_dirs", args->run_dirs, "run directories (or passforge.db files)")
      ->required();
  cmd->add_flag("--json", args->json, "print JSON instead of a table");
  cmd->add_option("--svg", args->svg, "write the mean ES_t curve as SVG to this file");
  cmd->callback([&ctx, args] { ctx.exit_code = run_stats(*args); });
}

}  // namespace pf::cli
