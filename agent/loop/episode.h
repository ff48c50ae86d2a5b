// One episode: one task x one sample, multi-turn (docs/design.md "Agent
// protocol"). Every turn (one LLM call and its consequence) is committed to
// the trajectory store when it happens; an interrupted or killed episode
// continues from its last committed turn (`resume`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "agent/llm/cancel_token.h"
#include "agent/llm/llm_client.h"
#include "agent/loop/episode_timings.h"
#include "agent/loop/evaluator_client.h"
#include "agent/loop/exit_reason.h"
#include "agent/loop/task_context.h"
#include "agent/loop/workspace_rules.h"
#include "config/config.h"
#include "prompts/prompt_variant.h"
#include "trajectories/trajectory_store.h"

namespace pf::agent {

//! The [agent] settings of an episode, defaults as in config.h.
struct EpisodeSettings {
  AgentMode mode = AgentMode::tools;
  int max_steps = 20;
  int64_t max_total_tokens = 0;  // 0: unlimited
  double max_wall_s = 0;         // 0: unlimited
  ContextPolicy context_policy = ContextPolicy::keep_all;
  int context_last_n = 2;
  //! Estimated prompt tokens per request (fit_context); 0: unlimited.
  int64_t max_context_tokens = 0;
  //! Tools mode: every call of an answer is executed, in order, as one step.
  bool parallel_tool_calls = true;
  size_t feedback_max_chars = 8000;
  //! Send the episode's seed as the request's `seed` (endpoint.sampling.seed set).
  bool send_seed = false;
  WorkspaceLimits limits;
};

//! What every episode of a run shares. All members are thread-safe.
struct EpisodeServices {
  llm::LlmClient* llm = nullptr;
  EvaluatorClient* evaluator = nullptr;
  traj::TrajectoryStore* store = nullptr;
  const prompts::PromptVariant* prompts = nullptr;
  const llm::CancelToken* cancel = nullptr;  // SIGINT: no new LLM calls
  std::string run_id;
  std::string model;  // recorded with the episode
  //! system.md rendered for the run's mode (the first message of every episode).
  std::string system_prompt;
};

struct EpisodeSpec {
  std::shared_ptr<const TaskContext> task;
  int64_t sample = 0;
  int64_t seed = 0;
  //! Continue the stored episode (running or interrupted) instead of starting it.
  bool resume = false;
};

struct EpisodeResult {
  std::string episode_id;
  std::string task_id;
  int64_t sample = 0;
  ExitReason exit_reason = ExitReason::max_steps;
  std::string detail;  // endpoint / store failure message
  int64_t turns = 0;
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int evaluations = 0;
  //! Full mode: the best AS of an evaluation that counts (store's rule).
  std::optional<double> best_as;
  //! Compile-only mode: the best share of variants that compiled, matched and
  //! passed the dry run.
  std::optional<double> best_compile_share;
  bool correct = false;  // the best evaluation is correct on every visible variant
  double wall_s = 0;
  EpisodeTimings timings;
};

//! Runs the episode to its end (or until the cancel token stops it). Never
//! throws; store and endpoint failures end the episode with their exit reason.
EpisodeResult run_episode(const EpisodeSpec& spec, const EpisodeServices& services,
                          const EpisodeSettings& settings);

}  // namespace pf::agent
