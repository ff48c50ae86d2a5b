#include "agent/loop/tool_executor.h"

#include <algorithm>

#include "agent/loop/feedback_report.h"
#include "common/strings.h"

namespace pf::agent {
namespace {

using Json = nlohmann::json;

size_t count_lines(const std::string& s) {
  return s.empty() ? 0
                   : static_cast<size_t>(std::count(s.begin(), s.end(), '\n')) +
                         (s.back() == '\n' ? 0 : 1);
}

size_t count_occurrences(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

// The string argument `key`, or nullopt.
std::optional<std::string> string_arg(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

bool is_known_tool(const std::string& name) {
  return std::find(std::begin(kToolNames), std::end(kToolNames), name) != std::end(kToolNames);
}

bool is_file_change(const std::string& name) {
  return name == "write_file" || name == "edit_file";
}

std::optional<Json> tool_arguments(const llm::ToolCall& call) {
  if (trim(call.arguments).empty()) return Json::object();
  Json args = Json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
  if (args.is_null()) return Json::object();  // "null" for a call without arguments
  if (!args.is_object()) return std::nullopt;
  return args;
}

ToolExecutor::ToolExecutor(const prompts::PromptVariant& prompts, EvaluatorClient& evaluator,
                           const Task& task, size_t feedback_max_chars, WorkspaceLimits limits)
    : prompts_(prompts),
      evaluator_(evaluator),
      task_(task),
      feedback_max_chars_(feedback_max_chars),
      limits_(limits) {
  offered_ = join(prompts.tool_names(), ", ");
}

std::string ToolExecutor::message(const std::string& key, const Json& context) const {
  auto text = prompts_.message(key, context.is_object() ? context : Json::object());
  // A prompt variant without the key still gives the model something to act on.
  return text.ok() ? *text : key + ": " + context.dump();
}

std::string ToolExecutor::file_list(const traj::Workspace& workspace) const {
  std::vector<std::string> names;
  for (const auto& [path, content] : workspace) names.push_back(path);
  return join(names, ", ");
}

ToolResult ToolExecutor::execute(const llm::ToolCall& call, traj::Workspace& workspace) {
  ToolResult r;
  const auto offered = prompts_.tool_names();
  if (!is_known_tool(call.name) ||
      std::find(offered.begin(), offered.end(), call.name) == offered.end()) {
    r.content = message("unknown_tool", {{"name", call.name}, {"tools", offered_}});
    return r;
  }
  auto parsed = tool_arguments(call);
  if (!parsed) {
    bool is_json = Json::accept(call.arguments);
    r.content = message("invalid_arguments",
                        {{"name", call.name},
                         {"error", is_json ? "JSON, but not an object" : "not valid JSON"},
                         {"example", "{\"path\": \"passes/Fuse.py\"}"}});
    return r;
  }
  const Json& args = *parsed;
  if (call.name == "list_files") return list_files(workspace);
  if (call.name == "read_file") return read_file(args, workspace);
  if (call.name == "write_file") return write_file(args, workspace);
  if (call.name == "edit_file") return edit_file(args, workspace);
  if (call.name == "compile") return run_evaluation(workspace, traj::EvalKind::compile);
  if (call.name == "evaluate") return run_evaluation(workspace, traj::EvalKind::evaluate);
  return run_evaluation(workspace, traj::EvalKind::submit);
}

void ToolExecutor::replay(const llm::ToolCall& call, traj::Workspace& workspace) {
  if (!is_file_change(call.name)) return;
  auto args = tool_arguments(call);
  if (!args) return;
  if (call.name == "write_file") {
    (void)write_file(*args, workspace);
  } else {
    (void)edit_file(*args, workspace);
  }
}

ToolResult ToolExecutor::list_files(const traj::Workspace& workspace) const {
  ToolResult r;
  if (workspace.empty()) {
    r.content = message("no_files");
    return r;
  }
  for (const auto& [path, content] : workspace) {
    if (!r.content.empty()) r.content += "\n";
    r.content += path + " (" + std::to_string(content.size()) + " bytes)";
  }
  return r;
}

ToolResult ToolExecutor::read_file(const Json& args, const traj::Workspace& workspace) {
  ToolResult r;
  auto path = string_arg(args, "path");
  if (!path) {
    r.content = message("missing_argument", {{"name", "read_file"}, {"argument", "path"}});
    return r;
  }
  auto it = workspace.find(*path);
  if (it == workspace.end()) {
    r.content = message("no_such_file", {{"path", *path}, {"files", file_list(workspace)}});
    return r;
  }
  r.content = it->second;
  return r;
}

ToolResult ToolExecutor::write_file(const Json& args, traj::Workspace& workspace) {
  ToolResult r;
  auto path = string_arg(args, "path");
  auto content = string_arg(args, "content");
  if (!path || !content) {
    r.content = message("missing_argument",
                        {{"name", "write_file"}, {"argument", !path ? "path" : "content"}});
    return r;
  }
  if (auto st = check_workspace_path(*path); !st.ok()) {
    r.content = message("bad_path", {{"path", *path}, {"reason", st.error().message}});
    return r;
  }
  switch (check_workspace_write(workspace, *path, content->size(), limits_)) {
    case WriteCheck::file_too_large:
      r.content =
          message("file_too_large",
                  {{"path", *path}, {"bytes", content->size()}, {"limit", limits_.max_file_bytes}});
      return r;
    case WriteCheck::too_many_files:
      r.content = message("too_many_files", {{"limit", limits_.max_files}});
      return r;
    case WriteCheck::ok:
      break;
  }
  r.content = message("file_written", {{"path", *path}, {"bytes", content->size()}});
  workspace[*path] = std::move(*content);
  return r;
}

ToolResult ToolExecutor::edit_file(const Json& args, traj::Workspace& workspace) {
  ToolResult r;
  auto path = string_arg(args, "path");
  auto old_s = string_arg(args, "old_string");
  auto new_s = string_arg(args, "new_string");
  if (!path || !old_s || !new_s) {
    const char* missing = !path ? "path" : !old_s ? "old_string" : "new_string";
    r.content = message("missing_argument", {{"name", "edit_file"}, {"argument", missing}});
    return r;
  }
  auto it = workspace.find(*path);
  if (it == workspace.end()) {
    r.content = message("no_such_file", {{"path", *path}, {"files", file_list(workspace)}});
    return r;
  }
  size_t n = old_s->empty() ? 0 : count_occurrences(it->second, *old_s);
  if (n == 0) {
    r.content = message("edit_not_found", {{"path", *path}});
    return r;
  }
  if (n > 1) {
    r.content = message("edit_not_unique", {{"path", *path}, {"count", n}});
    return r;
  }
  std::string updated = it->second;
  updated.replace(updated.find(*old_s), old_s->size(), *new_s);
  if (check_workspace_write(workspace, *path, updated.size(), limits_) != WriteCheck::ok) {
    r.content =
        message("file_too_large",
                {{"path", *path}, {"bytes", updated.size()}, {"limit", limits_.max_file_bytes}});
    return r;
  }
  r.content = message("file_edited", {{"path", *path},
                                      {"old_lines", count_lines(*old_s)},
                                      {"new_lines", count_lines(*new_s)},
                                      {"bytes", updated.size()}});
  it->second = std::move(updated);
  return r;
}

ToolResult ToolExecutor::run_evaluation(traj::Workspace& workspace, traj::EvalKind kind) {
  ToolResult r;
  if (!has_pass(workspace)) {
    if (kind == traj::EvalKind::submit) {
      r.submitted = true;
      r.content = message("submitted_empty");
    } else {
      r.content = message("empty_workspace");
    }
    return r;
  }
  const std::string hash = workspace_hash(workspace);
  const traj::EvalMode mode = evaluator_.mode_for(kind);
  traj::EvaluationRecord record;
  if (kind == traj::EvalKind::submit && last_evaluation_ && last_hash_ == hash &&
      last_mode_ == mode) {
    // Submitting what was just evaluated: the same result, recorded as the submission.
    record = *last_evaluation_;
    record.kind = kind;
  } else {
    EvaluationOutcome out = evaluator_.evaluate(task_, workspace, kind);
    r.evaluation_seconds = out.seconds;
    if (!out.evaluated) {
      r.content = message("evaluator_unavailable", {{"reason", out.unavailable}});
      r.uncharged = true;
      if (kind == traj::EvalKind::submit) r.submitted = true;
      return r;
    }
    record = std::move(out.record);
    last_hash_ = hash;
    last_mode_ = record.mode;  // the mode the worker ran (a fallback may differ from `mode`)
    last_evaluation_ = record;
  }
  FeedbackSituation situation;
  situation.reader = FeedbackSituation::Reader::tools;
  situation.evaluate = kind != traj::EvalKind::compile;
  situation.gpu = evaluator_.mode() == traj::EvalMode::full;
  auto report = render_feedback(record.result, prompts_, feedback_max_chars_, situation);
  std::string text =
      report.ok() ? *report : "Evaluation report unavailable: " + report.error().message;
  if (kind == traj::EvalKind::submit) {
    r.submitted = true;
    r.content = message("submitted", {{"summary", first_line(text)}});
  } else {
    r.content = std::move(text);
    r.report = true;
  }
  r.evaluation = std::move(record);
  return r;
}

}  // namespace pf::agent
