// How a run (or an experiment's session) is set up from its configuration,
// beside the evaluation plan and service (evaluator/protocol/): the settings
// every episode gets, the run's record and its system prompt. `passforge run`
// and the experiment commands (ab, improve) use these so that they evaluate
// and prompt exactly alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/loop/episode.h"
#include "agent/loop/task_context.h"
#include "common/result.h"
#include "config/config.h"
#include "evaluator/protocol/evaluation_service.h"
#include "prompts/prompt_variant.h"
#include "trajectories/records.h"

namespace pf::agent {

//! One line for the user about this session's evaluation faults: infrastructure
//! retries, worker faults, evaluations that could not run.
std::string evaluation_faults_line(const protocol::ServiceStats& stats);

//! The [agent] section (and feedback_max_chars) as episode settings.
EpisodeSettings episode_settings(const Config& config);

//! The record of a run (or an experiment's arm) starting now: its
//! configuration, endpoint (a URL, or DemoReplay::record()), model, prompt
//! variant and hash, the plan's GPU and driver, the NVRTC the workers compile
//! with and the hash of its tasks as its episodes see them.
traj::RunRecord new_run_record(const std::string& run_id, const Config& config,
                               const std::string& config_toml, const std::string& endpoint,
                               const std::string& model, const prompts::PromptVariant& prompts,
                               const protocol::EvaluationPlan& plan,
                               const std::vector<std::shared_ptr<const TaskContext>>& tasks);

//! system.md of `prompts` rendered for the configured agent mode and the
//! plan's evaluation mode (the first message of every episode).
Result<std::string> render_system_prompt(const prompts::PromptVariant& prompts,
                                         const Config& config, traj::EvalMode mode);

}  // namespace pf::agent
