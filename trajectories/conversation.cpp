#include "trajectories/conversation.h"

#include "trajectories/result_summary.h"

namespace pf::traj {

std::vector<int> assistant_weights(const std::vector<MessageRecord>& messages,
                                   const std::vector<EvaluationRecord>& evaluations,
                                   WeightMode mode, bool include_flagged,
                                   std::optional<int64_t> last_turn) {
  std::vector<int> w(messages.size(), -1);
  size_t limit = messages.size();  // messages[limit, end) are after last_turn
  for (size_t i = 0; i < messages.size(); ++i) {
    if (last_turn && messages[i].turn > *last_turn && limit == messages.size()) limit = i;
    if (messages[i].role == Role::assistant) w[i] = mode == WeightMode::all && i < limit ? 1 : 0;
  }
  if (mode == WeightMode::final) {
    for (size_t i = limit; i-- > 0;) {
      if (w[i] == 0) {
        w[i] = 1;
        break;
      }
    }
  } else if (mode == WeightMode::improving) {
    std::optional<double> best;
    int64_t segment_start = 0;  // turns after this one belong to the next evaluation
    for (const auto& e : evaluations) {
      if (e.kind == EvalKind::compile || e.turn <= segment_start) continue;
      bool improves = counts_as_success(e, include_flagged) && (!best || *e.as_score > *best);
      if (improves) {
        best = e.as_score;
        for (size_t i = 0; i < messages.size(); ++i) {
          if (w[i] == 0 && i < limit && messages[i].turn > segment_start &&
              messages[i].turn <= e.turn) {
            w[i] = 1;
          }
        }
      }
      segment_start = e.turn;
    }
  }
  return w;
}

size_t trained_end(const std::vector<int>& weights) {
  for (size_t i = weights.size(); i-- > 0;) {
    if (weights[i] == 1) return i + 1;
  }
  return 0;
}

int64_t conversation_tokens(const std::vector<MessageRecord>& messages, size_t end) {
  size_t counted_until = 0;
  int64_t tokens = 0;
  for (size_t i = end; i-- > 0;) {
    const auto& u = messages[i].usage;
    if (messages[i].role != Role::assistant || !u.is_object()) continue;
    if (u.contains("total_tokens") && u["total_tokens"].is_number_integer()) {
      tokens = u["total_tokens"].get<int64_t>();
    } else {
      tokens =
          field_or(u, "prompt_tokens", int64_t{0}) + field_or(u, "completion_tokens", int64_t{0});
    }
    counted_until = i + 1;
    break;
  }
  size_t chars = 0;
  for (size_t i = counted_until; i < end; ++i) {
    chars += messages[i].content.size() + messages[i].reasoning.size();
    if (!messages[i].tool_calls.is_null()) chars += json_text(messages[i].tool_calls).size();
  }
  return tokens + static_cast<int64_t>((chars + 3) / 4);
}

std::string tool_name(const std::vector<MessageRecord>& messages, size_t index) {
  const auto& m = messages[index];
  if (!m.name.empty()) return m.name;
  for (size_t i = index; i-- > 0;) {
    for (const auto& c : tool_calls_of(messages[i])) {
      if (c.id == m.tool_call_id) return c.name;
    }
  }
  return "";
}

std::vector<ToolCallView> tool_calls_of(const MessageRecord& m) {
  std::vector<ToolCallView> out;
  if (!m.tool_calls.is_array()) return out;
  for (const auto& c : m.tool_calls) {
    if (!c.is_object()) continue;
    ToolCallView v;
    v.id = field_or(c, "id", std::string());
    auto f = c.find("function");
    if (f != c.end() && f->is_object()) {
      v.name = field_or(*f, "name", std::string());
      v.arguments = field_or(*f, "arguments", std::string());
    }
    out.push_back(std::move(v));
  }
  return out;
}

Json parse_arguments(const std::string& arguments) {
  Json j = Json::parse(arguments, nullptr, false);
  if (j.is_object()) return j;
  return arguments;
}

}  // namespace pf::traj
