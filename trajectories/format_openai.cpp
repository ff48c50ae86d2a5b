// OpenAI chat fine-tuning JSONL: messages with tool calls (arguments as JSON
// strings), tool messages with tool_call_id, a 0/1 `weight` per assistant
// message, `tools` in tools mode.
#include "trajectories/conversation.h"
#include "trajectories/export_record.h"

namespace pf::traj {

Json openai_record(const ExportItem& item, const ExportOptions& options) {
  Json messages = Json::array();
  bool keep_reasoning = options.reasoning == ReasoningMode::keep;
  for (size_t i = 0; i < item.end; ++i) {
    const auto& m = item.messages[i];
    Json out = {{"role", to_string(m.role)}};
    switch (m.role) {
      case Role::system:
      case Role::user:
        out["content"] = m.content;
        break;
      case Role::assistant:
        // OpenAI's shape: content may be null when the message is only tool calls.
        out["content"] = m.content.empty() && m.tool_calls.is_array() ? Json(nullptr)
                                                                       : Json(m.content);
        if (keep_reasoning && !m.reasoning.empty()) out["reasoning_content"] = m.reasoning;
        if (auto views = tool_calls_of(m); !views.empty()) {
          Json calls = Json::array();
          for (const auto& c : views) {
            calls.push_back({{"id", c.id},
                             {"type", "function"},
                             {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
          }
          out["tool_calls"] = calls;
        }
        out["weight"] = item.weights[i] == 1 ? 1 : 0;
        break;
      case Role::tool:
        out["tool_call_id"] = m.tool_call_id;
        out["content"] = m.content;
        break;
    }
    messages.push_back(std::move(out));
  }
  Json record = {{"messages", messages}};
  const auto& tools = item.candidate->episode.tools;
  if (tools.is_array() && !tools.empty()) record["tools"] = tools;
  record["metadata"] = export_metadata(item);
  return record;
}

}  // namespace pf::traj
