#include "agent/scheduler/run_tasks.h"

#include <fnmatch.h>

#include <filesystem>
#include <set>

#include "evaluator/tasks/task_suite.h"

namespace pf::agent {
namespace {

bool is_glob(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

}  // namespace

Result<std::vector<Task>> load_run_tasks(const std::vector<std::string>& specs) {
  std::vector<Task> out;
  std::set<std::string> seen;
  auto take = [&](std::vector<Task> tasks) {
    for (auto& t : tasks) {
      if (seen.insert(t.id).second) out.push_back(std::move(t));
    }
  };
  const auto suite_dir = default_tasks_dir();
  std::optional<std::vector<Task>> suite;  // loaded once, when needed
  auto builtin = [&]() -> Result<const std::vector<Task>*> {
    if (!suite) {
      auto loaded = load_tasks(suite_dir);
      if (!loaded.ok()) return loaded.error().with_context("the built-in task suite");
      suite = std::move(loaded).value();
    }
    return &*suite;
  };
  for (const auto& spec : specs) {
    std::error_code ec;
    if (spec == "tasks") {
      PF_ASSIGN(auto all, builtin());
      take(*all);
    } else if (std::filesystem::exists(spec, ec)) {
      PF_ASSIGN(auto tasks, load_tasks(spec));
      take(std::move(tasks));
    } else if (is_glob(spec)) {
      PF_ASSIGN(auto all, builtin());
      std::vector<Task> matched;
      for (const auto& t : *all) {
        if (fnmatch(spec.c_str(), t.id.c_str(), 0) == 0) matched.push_back(t);
      }
      if (matched.empty()) {
        return make_error(ErrorCode::not_found,
                          "run.tasks: '" + spec + "' matches no task id in " + suite_dir.string());
      }
      take(std::move(matched));
    } else {
      auto task = resolve_task(spec, suite_dir);
      if (!task.ok()) return task.error().with_context("run.tasks: '" + spec + "'");
      take({std::move(task).value()});
    }
  }
  if (out.empty()) return make_error(ErrorCode::not_found, "run.tasks selects no task");
  return out;
}

}  // namespace pf::agent
