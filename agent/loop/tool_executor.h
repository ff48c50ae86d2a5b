// Tools mode (docs/design.md "Agent protocol"): executes one tool call of the
// model on the episode's in-memory workspace. Every problem with the call
// (unknown tool, arguments that are not a JSON object, a missing argument, a
// bad path, an edit that does not apply) is answered with a short message
// from the prompt variant, never an exception.
#pragma once

#include <optional>
#include <string>

#include "agent/llm/chat_message.h"
#include "agent/loop/evaluator_client.h"
#include "agent/loop/workspace_rules.h"
#include "prompts/prompt_variant.h"
#include "trajectories/records.h"

namespace pf::agent {

//! The tools the agent implements; tools.json may offer any subset.
inline constexpr const char* kToolNames[] = {"list_files", "read_file", "write_file", "edit_file",
                                             "compile",    "evaluate",  "submit"};

//! Calls of one answer executed with parallel tool calls; the rest are
//! answered "not executed", so one step cannot queue unbounded evaluations.
inline constexpr size_t kMaxToolCallsPerAnswer = 16;

bool is_known_tool(const std::string& name);
//! Whether the call changes the workspace (replayed when an episode resumes).
bool is_file_change(const std::string& name);

//! The call's arguments as a JSON object ("" and null read as {}); nullopt when they
//! are not one (the model gets "invalid_arguments").
std::optional<nlohmann::json> tool_arguments(const llm::ToolCall& call);

struct ToolResult {
  std::string content;  // the tool message
  std::optional<traj::EvaluationRecord> evaluation;
  bool submitted = false;
  bool report = false;  // content is an evaluation report
  //! The evaluation could not run (not the model's doing): the turn does not
  //! count against the step budget.
  bool uncharged = false;
  double evaluation_seconds = 0;  // time spent waiting for the evaluator
};

class ToolExecutor {
 public:
  //! `offered`: the tool names the model was offered (tools.json).
  ToolExecutor(const prompts::PromptVariant& prompts, EvaluatorClient& evaluator, const Task& task,
               size_t feedback_max_chars, WorkspaceLimits limits);

  //! Executes `call` on `workspace`.
  ToolResult execute(const llm::ToolCall& call, traj::Workspace& workspace);

  //! Re-applies a file change of an earlier turn (resume); other calls are ignored.
  void replay(const llm::ToolCall& call, traj::Workspace& workspace);

  //! The message for text that is not a valid call, e.g. `message("no_tool_call")`.
  std::string message(const std::string& key, const nlohmann::json& context = {}) const;

 private:
  ToolResult run_evaluation(traj::Workspace& workspace, traj::EvalKind kind);
  ToolResult write_file(const nlohmann::json& args, traj::Workspace& workspace);
  ToolResult edit_file(const nlohmann::json& args, traj::Workspace& workspace);
  ToolResult read_file(const nlohmann::json& args, const traj::Workspace& workspace);
  ToolResult list_files(const traj::Workspace& workspace) const;
  std::string file_list(const traj::Workspace& workspace) const;

  const prompts::PromptVariant& prompts_;
  EvaluatorClient& evaluator_;
  const Task& task_;
  size_t feedback_max_chars_;
  WorkspaceLimits limits_;
  std::string offered_;  // "list_files, read_file, ..." for messages

  // The last evaluation, so `submit` of an unchanged workspace reuses it.
  std::string last_hash_;
  traj::EvalMode last_mode_ = traj::EvalMode::full;
  std::optional<traj::EvaluationRecord> last_evaluation_;
};

}  // namespace pf::agent
