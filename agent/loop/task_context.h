// A task as every episode of a run sees it, prepared once per run: the run's
// hidden-variant policy applied, the JSON sent with every evaluation, the
// rendered task prompt (visible variants only) and the store's TaskRecord.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "config/config.h"
#include "evaluator/tasks/task.h"
#include "prompts/prompt_variant.h"
#include "trajectories/records.h"

namespace pf {
class OpRegistry;
}

namespace pf::agent {

struct TaskContext {
  Task task;                 // hidden flags as this run decided them
  nlohmann::json task_json;  // task_to_json(task): the evaluation request's "task"
  std::string prompt;       // task.md rendered (the initial user message, before "Steps remaining")
  traj::TaskRecord record;  // for the store: variants carry the whole task (resume rebuilds it)
  size_t visible_variants = 0;
};

//! evaluator.hidden_variants: `task` keeps the task file's flags, `off` shows
//! everything, `share` applies the importer's rule (hide_variant_share).
void apply_hidden_policy(Task& task, HiddenVariants policy, double share);

//! Prints every visible variant's graph (type comments, input header) into
//! task.md; `extra_context` adds keys to task.md's context (e.g. the
//! `exemplars` of a self-improvement round). Errors: no visible variant, a
//! variant graph that does not build.
Result<std::shared_ptr<const TaskContext>> prepare_task(
    Task task, HiddenVariants policy, double share, const prompts::PromptVariant& prompts,
    AgentMode mode, const OpRegistry& registry,
    const nlohmann::json& extra_context = nlohmann::json::object());

//! The task stored by prepare_task, read back (for --resume).
Result<Task> task_from_record(const traj::TaskRecord& record);

}  // namespace pf::agent
