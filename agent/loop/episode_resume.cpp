#include <algorithm>
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

Status restore_episode(traj::TrajectoryStore& store, const EpisodeSettings& settings,
                       ToolExecutor& executor, EpisodeState& state) {
  const AgentMode mode = settings.mode;
  const bool parallel = settings.parallel_tool_calls;
  const WorkspaceLimits& limits = settings.limits;
  PF_ASSIGN(auto point, store.resume_episode(state.id));
  PF_ASSIGN(auto reader, store.reader());
  PF_ASSIGN(auto messages, reader.messages(state.id));
  PF_ASSIGN(auto evaluations, reader.evaluations(state.id));
  state.turn = point.last_turn;
  state.uncharged_turns = point.uncharged_turns;
  state.prompt_tokens = point.episode.prompt_tokens;
  state.completion_tokens = point.episode.completion_tokens;
  state.tokens = state.prompt_tokens + state.completion_tokens;
  state.previous_wall_s = point.episode.wall_time_s;
  std::set<int64_t> evaluated_turns;
  for (const auto& e : evaluations) {
    evaluated_turns.insert(e.turn);
    state.note(e);
  }

  // Which messages of an evaluated turn are reports: tools mode, the tool
  // messages answering its executed compile / evaluate calls; chat mode, the
  // user message.
  std::set<std::string> report_call_ids;
  state.conversation.clear();
  state.workspace.clear();
  state.submitted = false;
  for (const auto& record : messages) {
    ConversationEntry entry{from_record(record), false};
    const auto& m = entry.message;
    const bool evaluated = evaluated_turns.count(record.turn) > 0;
    if (m.role == "assistant") {
      state.submitted = false;
      report_call_ids.clear();
      if (mode == AgentMode::tools && !m.tool_calls.empty()) {
        // The calls the turn executed: the first, or with parallel calls every
        // one up to the first that ended the episode (as answer_tools does).
        const size_t executed =
            parallel ? std::min(m.tool_calls.size(), kMaxToolCallsPerAnswer) : 1;
        for (size_t i = 0; i < executed && !state.submitted; ++i) {
          const auto& call = m.tool_calls[i];
          executor.replay(call, state.workspace);
          if (evaluated && (call.name == "compile" || call.name == "evaluate")) {
            report_call_ids.insert(call.id);
          }
          state.submitted = call.name == "submit" && tool_arguments(call).has_value();
        }
      } else if (mode == AgentMode::chat) {
        auto answer = parse_chat_answer(m.content);
        if (answer.ok() && !answer.submit) {
          auto next = apply_chat_answer(state.workspace, answer.files);
          if (next.size() <= limits.max_files) state.workspace = std::move(next);
        }
        state.submitted = answer.submit;
      }
    } else if (mode == AgentMode::tools && m.role == "tool") {
      entry.report = report_call_ids.count(m.tool_call_id) > 0;
    } else if (mode == AgentMode::chat && m.role == "user") {
      entry.report = record.turn > 0 && evaluated;
    }
    state.conversation.push_back(std::move(entry));
  }
  return ok_status();
}

}  // namespace pf::agent
