// `passforge run`: runs tasks x samples agent episodes (agent/scheduler) and
// stores every turn in runs/<run-id>/passforge.db. SIGINT (or SIGTERM) stops
// new LLM calls, lets evaluations in flight finish, marks the running
// episodes interrupted and exits 130; a second SIGINT exits at once (the
// store is consistent after every turn). `--resume <run-dir>` continues the
// unfinished episodes of a run from their last committed turn.
#include "cli/cmd_run.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "agent/scheduler/run_session.h"
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

const char* getenv_lookup(const char* name) { return std::getenv(name); }

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

// Errors before or after the episodes: a store or worker failing on this
// machine is a failure (1); everything else names what the user gave (2).
int exit_code_for(const Error& error) {
  return error.code == ErrorCode::internal || error.code == ErrorCode::io_error ? kExitFailure
                                                                                : kExitUsage;
}

int run_command(RunArgs args) {
  agent::RunRequest request;
  if (!args.shard.empty()) {
    if (!args.resume.empty()) {
      std::cerr << "passforge run: --resume continues a shard with the shard it started with; "
                   "leave out --shard\n";
      return kExitUsage;
    }
    auto shard = agent::parse_shard(args.shard, getenv_lookup);
    if (!shard.ok()) {
      std::cerr << "passforge run: " << shard.error().message << "\n";
      return kExitUsage;
    }
    request.shard = *shard;
    // A shard started again (a requeued array task, a restarted pod)
    // continues where it stopped.
    auto loaded = load_config_or_report(args.config);
    if (!loaded.ok()) return kExitUsage;
    auto dir = agent::new_run_dir(loaded->config, request.shard, getenv_lookup);
    if (!dir.ok()) {
      std::cerr << "passforge run: " << dir.error().message << "\n";
      return kExitUsage;
    }
    std::error_code ec;
    if (std::filesystem::exists(traj::store_path(*dir), ec)) {
      std::cout << "passforge run: " << dir->string()
                << " exists: continuing this shard (as --resume)" << std::endl;
      args.resume = dir->string();
      args.config.file.clear();
    }
  }
  if (!args.resume.empty()) {
    if (!args.config.file.empty()) {
      std::cerr << "passforge run: --resume continues a run with its stored configuration; "
                   "use --set to change keys, not --config\n";
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
    auto shard = agent::read_shard_file(request.resume_dir);
    if (!shard.ok()) {
      std::cerr << "passforge run: " << shard.error().message << "\n";
      return kExitUsage;
    }
    request.shard = *shard;
  } else {
    auto loaded = load_config_or_report(args.config);
    if (!loaded.ok()) return kExitUsage;
    request.config = loaded->config;
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
    return exit_code_for(outcome.error());
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
  if (!outcome->store_error.empty()) {
    std::cout << "store_error: the store at " << traj::store_path(outcome->run_dir).string()
              << " failed (" << outcome->store_error
              << "); episodes it could not record are listed above and are not done\n"
              << "interrupted: free the space or fix the store, then continue with  passforge "
                 "run --resume "
              << dir << "\n";
    return kExitFailure;
  }
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
                  "run only shard K of N of the episodes (K/N, 0-based), or 'env': from a Slurm "
                  "job array or a Kubernetes Indexed Job; writes runs/<run-id>/shard-K-of-N and "
                  "continues it when started again");
  cmd->callback([args, &ctx] { ctx.exit_code = run_command(*args); });
}

}  // namespace pf::cli
