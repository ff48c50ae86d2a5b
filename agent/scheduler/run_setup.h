// How a run (or an experiment's session) is set up from its configuration:
// the evaluation mode (full on the GPUs of evaluator.gpus, compile-only when
// evaluator.compile_only says so or no GPU is usable), the shared worker
// pool, and the settings every episode gets. `passforge run` and the
// experiment commands (ab, improve) use these so that they evaluate and
// prompt exactly alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/loop/episode.h"
#include "agent/loop/evaluator_client.h"
#include "common/result.h"
#include "config/config.h"
#include "prompts/prompt_variant.h"
#include "sandbox/pool/worker_pool.h"
#include "trajectories/records.h"

namespace pf::agent {

struct EvaluationPlan {
  traj::EvalMode mode = traj::EvalMode::compile_only;
  std::vector<std::string> devices;  // CUDA ordinals for the GPU workers (full mode)
  std::string reason;                // why this mode, in words, for the user
  std::string gpu_name, driver_version;
};

//! Errors: evaluator.compile_only = false without a usable GPU, a GPU index
//! in evaluator.gpus this machine does not have.
Result<EvaluationPlan> plan_evaluation(const EvaluatorConfig& evaluator);

//! Full mode: one GPU worker per planned device (each also answers the
//! compile-only requests of `compile`); compile-only: min(run.concurrency,
//! cores) CPU workers. Both with the configured NVRTC cache.
//! The [evaluator] limits every worker runs under (docs/evaluation.md "Worker limits").
sandbox::WorkerLimits worker_limits(const EvaluatorConfig& evaluator);

Result<std::unique_ptr<sandbox::WorkerPool>> start_worker_pool(const Config& config,
                                                               const EvaluationPlan& plan);

//! The EvaluatorClient settings: the plan's mode, worker timeout, the whole
//! [evaluator] section as request options, b, the compile-only arch.
EvaluationSettings evaluation_settings(const Config& config, const EvaluationPlan& plan);

//! The [agent] section (and feedback_max_chars) as episode settings.
EpisodeSettings episode_settings(const Config& config);

//! The record of a run (or an experiment's arm) starting now: its
//! configuration, endpoint (a URL, or DemoReplay::record()), model, prompt
//! variant and hash, and the plan's GPU and driver.
traj::RunRecord new_run_record(const std::string& run_id, const Config& config,
                               const std::string& config_toml, const std::string& endpoint,
                               const std::string& model, const prompts::PromptVariant& prompts,
                               const EvaluationPlan& plan);

//! system.md of `prompts` rendered for the configured agent mode and the
//! plan's evaluation mode (the first message of every episode).
Result<std::string> render_system_prompt(const prompts::PromptVariant& prompts,
                                         const Config& config, traj::EvalMode mode);

}  // namespace pf::agent
