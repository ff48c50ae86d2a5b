// How a run (or an experiment's session) is set up from its configuration,
// beside its EvaluationService (evaluator/protocol/evaluation_service.h,
// planned with protocol::plan_evaluation): the settings every episode gets
// and the system prompt. `passforge run` and the experiment commands (ab,
// improve) use these so that they evaluate and prompt exactly alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/loop/episode.h"
#include "common/result.h"
#include "config/config.h"
#include "evaluator/protocol/evaluation_service.h"
#include "prompts/prompt_variant.h"

namespace pf::agent {

//! One line for the user about this session's evaluation faults: infrastructure
//! retries, worker faults, evaluations that could not run.
std::string evaluation_faults_line(const protocol::ServiceStats& stats);

//! The [agent] section (and feedback_max_chars) as episode settings.
EpisodeSettings episode_settings(const Config& config);

//! system.md of `prompts` rendered for the configured agent mode and the
//! plan's evaluation mode (the first message of every episode).
Result<std::string> render_system_prompt(const prompts::PromptVariant& prompts,
                                         const Config& config, traj::EvalMode mode);

}  // namespace pf::agent
