#include <set>

#include "agent/loop/chat_answer.h"
#include "agent/loop/episode_state.h"
#include "evaluator/scoring/failure_class.h"
#include "trajectories/result_summary.h"
#include "trajectories/trajectory_reader.h"

namespace pf::agent {

double compile_share(const nlohmann::json& result) {
  if (!result.is_object()) return 0;
  if (result.contains(kFailureClassField) && result[kFailureClassField].is_string()) return 0;
  if (!result.contains("variants") || !result["variants"].is_array()) return 0;
  size_t total = 0, ok = 0;
  for (const auto& v : result["variants"]) {
    if (!v.is_object()) continue;
    ++total;
    if (!v.contains(kFailureClassField) || v[kFailureClassField].is_null()) ++ok;
  }
  return total == 0 ? 0 : static_cast<double>(ok) / static_cast<double>(total);
}

void EpisodeState::note(const traj::EvaluationRecord& e) {
  ++evaluations;
  if (e.mode == traj::EvalMode::full) {
    if (traj::counts_as_success(e, false) && (!best_as || *e.as_score > *best_as)) {
      best_as = e.as_score;
      best_as_correct = traj::is_correct(e);
    }
    return;
  }
  double share = compile_share(e.result);
  if (!best_compile_share || share > *best_compile_share) best_compile_share = share;
}

Status restore_episode(traj::TrajectoryStore& store, AgentMode mode, ToolExecutor& executor,
                       EpisodeState& state) {
  PF_ASSIGN(auto point, store.resume_episode(state.id));
  PF_ASSIGN(auto reader, store.reader());
  PF_ASSIGN(auto messages, reader.messages(state.id));
  PF_ASSIGN(auto evaluations, reader.evaluations(state.id));
  state.turn = point.last_turn;
  state.prompt_tokens = point.episode.prompt_tokens;
  state.completion_tokens = point.episode.completion_tokens;
  state.tokens = state.prompt_tokens + state.completion_tokens;
  state.previous_wall_s = point.episode.wall_time_s;
  std::set<int64_t> evaluated_turns;
  for (const auto& e : evaluations) {
    evaluated_turns.insert(e.turn);
    state.note(e);
  }

  // Which message of an evaluated turn is its report: tools mode, the tool
  // message answering the executed (first) call; chat mode, the user message.
  std::string report_call_id;
  state.conversation.clear();
  state.workspace.clear();
  state.submitted = false;
  for (const auto& record : messages) {
    ConversationEntry entry{from_record(record), false};
    const auto& m = entry.message;
    const bool evaluated = evaluated_turns.count(record.turn) > 0;
    if (m.role == "assistant") {
      state.submitted = false;
      report_call_id.clear();
      if (mode == AgentMode::tools && !m.tool_calls.empty()) {
        const auto& first = m.tool_calls.front();
        executor.replay(first, state.workspace);
        if (evaluated) report_call_id = first.id;
        state.submitted = first.name == "submit" && tool_arguments(first).has_value();
      } else if (mode == AgentMode::chat) {
        auto answer = parse_chat_answer(m.content);
        if (answer.ok() && !answer.submit) state.workspace = answer.files;
        state.submitted = answer.submit;
      }
    } else if (mode == AgentMode::tools && m.role == "tool") {
      entry.report =
          !report_call_id.empty() && m.tool_call_id == report_call_id && m.name != "submit";
    } else if (mode == AgentMode::chat && m.role == "user") {
      entry.report = record.turn > 0 && evaluated;
    }
    state.conversation.push_back(std::move(entry));
  }
  return ok_status();
}

}  // namespace pf::agent
