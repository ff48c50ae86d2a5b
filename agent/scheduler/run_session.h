// `passforge run` without the command line: resolves prompts and tasks,
// decides the evaluation mode (full on GPU, compile-only otherwise), starts
// the worker pool and the endpoint (or the built-in replay endpoint), creates
// or reopens the run's store (`<output_dir>/<run-id>/passforge.db`), runs the
// episodes and summarises them. The CLI adds flags, signals and exit codes.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "agent/llm/cancel_token.h"
#include "agent/llm/llm_options.h"
#include "agent/scheduler/run_summary.h"
#include "agent/scheduler/shard.h"
#include "common/result.h"
#include "config/config.h"
#include "evaluator/protocol/evaluation_service.h"

namespace pf::agent {

struct RunRequest {
  Config config;
  std::string config_toml;           // the config file as written ("" without a file)
  llm::LlmOptions llm;               // [endpoint] as client options; base_url "" = replay
  std::filesystem::path resume_dir;  // non-empty: continue the run stored there
  Shard shard;                       // the part of the run's episodes this process runs
  bool terminal = false;             // progress as a live line (else periodic log lines)
  //! Where notices go (replaying, evaluation mode, data location): one line each.
  std::function<void(const std::string&)> notice = [](const std::string&) {};
};

struct RunOutcome {
  std::string run_id;
  std::filesystem::path run_dir;
  traj::EvalMode mode = traj::EvalMode::compile_only;
  bool interrupted = false;
  int64_t episodes = 0;         // of the whole run (all sessions)
  int64_t failed_episodes = 0;  // endpoint or store failures
  //! The first store failure of the session ("" when none): the run is then
  //! interrupted and resumable.
  std::string store_error;
  RunSummary summary;
  //! This session's evaluations: infrastructure retries, worker faults and
  //! evaluations that could not run (none of them charged to a model).
  protocol::ServiceStats evaluations;
};

//! The configuration and config text a stored run was started with.
struct StoredRunConfig {
  Config config;
  std::string config_toml;
  std::string run_id;
};
Result<StoredRunConfig> load_run_config(const std::filesystem::path& run_dir);

//! Where a new run (or shard of one) writes: `<output_dir>/<run-id>` or, for
//! a shard, `<output_dir>/<run-id>/shard-K-of-N`. A sharded run takes its id
//! from run.run_id, else from the scheduler's job (shard_job_run_id); without
//! either it is an error, since the shards must share one id.
Result<std::filesystem::path> new_run_dir(const Config& config, const Shard& shard,
                                          const EnvLookup& env);

//! Runs (or resumes) the run to its end, or until `cancel` is set. Errors:
//! problems found before any episode ran (config, prompts, tasks, worker,
//! endpoint, store), each naming what to fix.
Result<RunOutcome> execute_run(const RunRequest& request, const llm::CancelToken& cancel);

//! A relative `dir` as given when it exists, else beside the executable's
//! parent (a build directory inside the checkout), else as given.
std::filesystem::path resolve_data_dir(const std::filesystem::path& dir);

}  // namespace pf::agent
