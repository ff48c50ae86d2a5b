// A directory of task files (the built-in suite under tasks/, or a user's),
// and resolving "--task <file.json|id>" against it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/tasks/task.h"

namespace pf {

//! The built-in suite: $PASSFORGE_TASKS, else ./tasks, else <exe>/../tasks,
//! else <exe>/tasks (a build directory inside the checkout).
std::filesystem::path default_tasks_dir();

//! Task files of a directory (recursively, `*.json` with the task format),
//! sorted by path.
Result<std::vector<std::filesystem::path>> list_task_files(const std::filesystem::path& dir);

//! `spec` is a path to a task file or a task id looked up in `dir` (the
//! file `<dir>/<id>.json`, else a task with that id anywhere below `dir`).
Result<Task> resolve_task(const std::string& spec, const std::filesystem::path& dir);

//! Loads every task of a file or a directory.
Result<std::vector<Task>> load_tasks(const std::filesystem::path& file_or_dir);

}  // namespace pf
