// `passforge merge <run-dir>... --out <run-dir>`: combine runs or shards into
// one store without loss or duplicates (re-merging is a no-op).
#include <iostream>

#include "cli/cmd_merge.h"
#include "cli/exit_codes.h"
#include "trajectories/store_merge.h"

namespace pf::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
};

int run_merge(const MergeArgs& a) {
  std::vector<std::filesystem::path> inputs(a.inputs.begin(), a.inputs.end());
  auto summary = traj::merge_stores(inputs, a.out);
  if (!summary.ok()) {
    std::cerr << "passforge merge: " << summary.error().message << "\n";
    auto code = summary.error().code;
    bool usage = code == ErrorCode::invalid_argument || code == ErrorCode::not_found ||
                 code == ErrorCode::unsupported || code == ErrorCode::parse_error;
    return usage ? kExitUsage : kExitFailure;
  }
  std::cout << summary->to_text();
  return kExitOk;
}

}  // namespace

void add_merge_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "merge runs or shards into one run directory");
  cmd->add_option("inputs", args->inputs, "run directories (or passforge.db files)")->required();
  cmd->add_option("--out", args->out, "output run directory (created if missing)")->required();
  cmd->callback([&ctx, args] { ctx.exit_code = run_merge(*args); });
}

}  // namespace pf::cli
