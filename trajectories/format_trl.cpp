// TRL conversational format: `messages` as chat templates read them (tool
// call arguments as objects, tool messages with name), `tools` as OpenAI
// function schemas, which TRL passes to the tokenizer's chat template.
#include "trajectories/conversation.h"
#include "trajectories/export_record.h"

namespace pf::traj {

Json trl_message(const std::vector<MessageRecord>& messages, size_t index, bool keep_reasoning) {
  const auto& m = messages[index];
  Json out = {{"role", to_string(m.role)}, {"content", m.content}};
  if (m.role == Role::assistant) {
    if (keep_reasoning && !m.reasoning.empty()) out["reasoning_content"] = m.reasoning;
    if (auto views = tool_calls_of(m); !views.empty()) {
      Json calls = Json::array();
      for (const auto& c : views) {
        calls.push_back(
            {{"id", c.id},
             {"type", "function"},
             {"function", {{"name", c.name}, {"arguments", parse_arguments(c.arguments)}}}});
      }
      out["tool_calls"] = calls;
    }
  } else if (m.role == Role::tool) {
    out["name"] = tool_name(messages, index);
    out["tool_call_id"] = m.tool_call_id;
  }
  return out;
}

Json trl_record(const ExportItem& item, const ExportOptions& options) {
  Json messages = Json::array();
  Json weights = Json::array();
  bool keep = options.reasoning == ReasoningMode::keep;
  for (size_t i = 0; i < item.end; ++i) {
    messages.push_back(trl_message(item.messages, i, keep));
    if (item.messages[i].role == Role::assistant) weights.push_back(item.weights[i] == 1 ? 1 : 0);
  }
  Json record = {{"messages", messages}};
  const auto& tools = item.candidate->episode.tools;
  if (tools.is_array() && !tools.empty()) record["tools"] = tools;
  record["metadata"] = export_metadata(item);
  record["metadata"]["assistant_weights"] = weights;
  return record;
}

}  // namespace pf::traj
