#include "evaluator/tasks/task_suite.h"

#include <algorithm>
#include <cstdlib>

#include "common/fs.h"
#include "common/strings.h"

namespace pf {
namespace fs = std::filesystem;

fs::path default_tasks_dir() {
  if (const char* env = std::getenv("PASSFORGE_TASKS"); env && *env) return env;
  std::error_code ec;
  for (const fs::path& candidate :
       {fs::current_path(ec) / "tasks", executable_dir() / ".." / "tasks", executable_dir() / "tasks"}) {
    if (fs::is_directory(candidate, ec)) return candidate.lexically_normal();
  }
  return "tasks";
}

Result<std::vector<fs::path>> list_task_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return make_error(ErrorCode::not_found, dir.string() + ": not a directory");
  std::vector<fs::path> out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".json") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<Task> resolve_task(const std::string& spec, const fs::path& dir) {
  std::error_code ec;
  if (ends_with(spec, ".json") || fs::is_regular_file(spec, ec)) return load_task_file(spec);
  fs::path direct = dir / (spec + ".json");
  if (fs::is_regular_file(direct, ec)) return load_task_file(direct);
  auto files = list_task_files(dir);
  if (files.ok()) {
    std::vector<std::string> ids;
    for (const auto& f : *files) {
      if (f.stem() == spec) return load_task_file(f);
      ids.push_back(f.stem().string());
    }
    std::string hint = closest_match(spec, ids);
    return make_error(ErrorCode::not_found, "no task '" + spec + "' in " + dir.string() +
                                                (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  return make_error(ErrorCode::not_found, "no task '" + spec + "': " + files.error().message);
}

Result<std::vector<Task>> load_tasks(const fs::path& file_or_dir) {
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(file_or_dir, ec)) {
    PF_ASSIGN(files, list_task_files(file_or_dir));
  } else {
    files.push_back(file_or_dir);
  }
  std::vector<Task> out;
  for (const auto& f : files) {
    PF_ASSIGN(Task t, load_task_file(f));
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace pf
