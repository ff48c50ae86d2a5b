// The tasks of a run from `run.tasks`: "tasks" (the built-in suite), task
// ids, globs over the built-in suite's ids, task files or directories.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/tasks/task.h"

namespace pf::agent {

//! In the order given, each task once (the first mention wins). Errors name
//! the entry that matched nothing.
Result<std::vector<Task>> load_run_tasks(const std::vector<std::string>& specs);

}  // namespace pf::agent
