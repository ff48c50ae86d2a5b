// `passforge run`: runs tasks x samples agent episodes (agent/scheduler) and
// stores every turn in runs/<run-id>/passforge.db. SIGINT (or SIGTERM) stops
// new LLM calls, lets evaluations in flight finish, marks the running
// episodes interrupted and exits 130; a second SIGINT exits at once (the
// store is consistent after every turn). `--resume <run-dir>` continues the
// unfinished episodes of a run from their last committed turn.
#include "cli/cmd_run.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "agent/scheduler/run_session.h"
#include "agent/scheduler/shard.h"
#include "cli/config_options.h"
#include "cli/endpoint_options.h"
#include "cli/exit_codes.h"
#include "cli/signal_watch.h"
#include "common/fs.h"
#include "config/config_loader.h"
#include "trajectories/trajectory_store.h"

namespace pf::cli {
namespace {

struct RunArgs {
  ConfigOptions config;
  std::string resume;
  std::string shard;
};

// --shard K/N, else the job array's environment, else what the config says.
Status apply_shard(const RunArgs& args, Config& config) {
  std::optional<agent::Shard> shard;
  if (!args.shard.empty()) {
    PF_ASSIGN(auto s, agent::parse_shard(args.shard));
    shard = s;
  } else if (config.run.shard_count == 1) {
    PF_ASSIGN(shard, agent::shard_from_environment(process_env));
  }
  if (shard) {
    config.run.shard_index = shard->index;
    config.run.shard_count = shard->count;
  }
  return ok_status();
}

// The stored configuration of a resumed run with `--set` on top, through the
// shared loader (same parsing, checks and messages as a new run). The
// environment is not consulted: a resumed run keeps the endpoint it recorded
// unless --set says otherwise.
Result<LoadedConfig> resumed_config(const Config& stored, const std::vector<std::string>& sets) {
  ConfigInputs inputs;
  inputs.sets = sets;
  inputs.env = nullptr;
  inputs.base = stored;
  auto loaded = load_config(inputs);
  if (!loaded.ok()) {
    std::cerr << "passforge: invalid configuration:\n" << loaded.error().message << "\n";
  }
  return loaded;
}

int run_command(const RunArgs& args) {
  agent::RunRequest request;
  if (!args.resume.empty()) {
    if (!args.config.file.empty() || !args.shard.empty()) {
      std::cerr << "passforge run: --resume continues a run with its stored configuration "
                   "(and shard); use --set to change keys, not --config or --shard\n";
      return kExitUsage;
    }
    auto stored = agent::load_run_config(args.resume);
    if (!stored.ok()) {
      std::cerr << "passforge run: " << stored.error().message << "\n";
      return kExitUsage;
    }
    auto loaded = resumed_config(stored->config, args.config.sets);
    if (!loaded.ok()) return kExitUsage;
    request.config = std::move(loaded->config);
    request.config_toml = std::move(stored->config_toml);
    request.resume_dir = std::filesystem::path(args.resume).lexically_normal();
    if (!request.resume_dir.has_filename()) request.resume_dir = request.resume_dir.parent_path();
  } else {
    auto loaded = load_config_or_report(args.config);
    if (!loaded.ok()) return kExitUsage;
    request.config = loaded->config;
    if (auto st = apply_shard(args, request.config); !st.ok()) {
      std::cerr << "passforge run: " << st.error().message << "\n";
      return kExitUsage;
    }
    if (!args.config.file.empty()) {
      auto text = read_file(args.config.file);
      if (text.ok()) request.config_toml = std::move(text).value();
    }
  }
  request.llm = llm_options_from(request.config.endpoint);
  request.terminal = isatty(2) != 0;
  request.notice = [](const std::string& line) {
    std::cout << "passforge run: " << line << std::endl;
  };

  llm::CancelToken cancel;
  Result<agent::RunOutcome> outcome = make_error(ErrorCode::internal, "not run");
  {
    SignalWatcher watcher(cancel, "run");
    outcome = agent::execute_run(request, cancel);
  }
  if (!outcome.ok()) {
    std::cerr << "passforge run: " << outcome.error().message << "\n";
    return outcome.error().code == ErrorCode::internal ? kExitFailure : kExitUsage;
  }
  std::cout << "\n" << outcome->summary.table() << "\n";
  const std::string dir = outcome->run_dir.string();
  std::cout << "data: " << traj::store_path(outcome->run_dir).string() << " ("
            << outcome->summary.evaluations << " evaluations, "
            << (outcome->mode == traj::EvalMode::full ? "full" : "COMPILE-ONLY") << ")\n"
            << "next: passforge stats " << dir << "\n"
            << "      passforge export " << dir
            << (outcome->mode == traj::EvalMode::full
                    ? " --format openai --out " + outcome->run_id + ".jsonl"
                    : " --format raw --out " + outcome->run_id +
                          ".raw.jsonl   (compile-only: no AS, so the training formats select "
                          "nothing)")
            << "\n";
  if (outcome->interrupted) {
    std::cout << "interrupted: continue with  passforge run --resume " << dir << "\n";
    return kExitInterrupted;
  }
  return outcome->failed_episodes > 0 ? kExitFailure : kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run", "run agent episodes (tasks x samples) and record every turn in runs/<run-id>/");
  add_config_options(*cmd, args->config);
  cmd->add_option("--resume", args->resume,
                  "continue the unfinished episodes of this run directory (runs/<run-id>)");
  cmd->add_option("--shard", args->shard,
                  "K/N: run shard K (0-based) of N of the episodes, in runs/<run-id>-shard-K-of-N "
                  "(default: from SLURM_ARRAY_TASK_* or JOB_COMPLETION_INDEX + PASSFORGE_SHARDS)");
  cmd->callback([args, &ctx] { ctx.exit_code = run_command(*args); });
}

}  // namespace pf::cli
