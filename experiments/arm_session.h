// Runs the episodes of several "arms" (configurations that differ in
// endpoint, prompts or agent settings) on the same tasks with the same seeds
// as the runs of one scheduler session (agent/scheduler/session.h:
// interleaved task, sample, arm; one store, one worker pool; resumable like
// `passforge run`): each arm is one run record there, so every episode names
// its arm through its run id (and carries the arm's prompt variant and
// model). A/B experiments run their arms this way; a self-improvement round
// runs its training and evaluation episodes as one-arm sessions.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/llm/cancel_token.h"
#include "agent/llm/llm_options.h"
#include "agent/scheduler/session.h"
#include "common/result.h"
#include "config/config.h"
#include "evaluator/tasks/task.h"
#include "trajectories/records.h"

namespace pf::experiments {

struct ArmPlan {
  std::string name;
  std::string run_id;  // its run record in the store (created when missing)
  Config config;       // the arm's effective configuration
  std::string config_toml;
  llm::LlmOptions llm;  // base_url "" = the built-in replay endpoint
  //! Keys added to a task's task.md context (task id -> object), e.g. the
  //! `exemplars` of similar solved tasks; tasks not listed get the plain one.
  std::map<std::string, nlohmann::json> task_context;
};

struct SessionRequest {
  std::filesystem::path store_dir;  // the store's directory (created when missing)
  std::vector<ArmPlan> arms;        // >= 1; [evaluator] and [run] come from arms[0]
  std::vector<Task> tasks;          // the same for every arm
  bool terminal = false;
  std::function<void(const std::string&)> notice = [](const std::string&) {};
};

using SessionOutcome = agent::SessionOutcome;

//! Runs every arm's tasks x run.samples_per_task episodes to their end (or
//! until `cancel`). Errors: problems found before any episode ran.
Result<SessionOutcome> run_arm_session(const SessionRequest& request,
                                       const llm::CancelToken& cancel);

//! The tasks stored in `store_dir` with these ids, in this order (resume).
Result<std::vector<Task>> stored_tasks(const std::filesystem::path& store_dir,
                                       const std::vector<std::string>& ids);

}  // namespace pf::experiments
