#include "agent/loop/conversation.h"

#include "agent/loop/feedback_report.h"

namespace pf::agent {

std::vector<llm::ChatMessage> request_messages(const Conversation& conversation,
                                               ContextPolicy policy, int last_n,
                                               const prompts::PromptVariant& prompts) {
  std::vector<llm::ChatMessage> out;
  out.reserve(conversation.size());
  int reports_to_keep = policy == ContextPolicy::last_n_reports ? last_n : -1;
  std::vector<bool> keep(conversation.size(), true);
  if (reports_to_keep >= 0) {
    int seen = 0;
    for (size_t i = conversation.size(); i-- > 0;) {
      if (!conversation[i].report) continue;
      keep[i] = seen++ < reports_to_keep;
    }
  }
  for (size_t i = 0; i < conversation.size(); ++i) {
    out.push_back(conversation[i].message);
    if (keep[i]) continue;
    auto shortened = prompts.message("report_omitted",
                                     {{"headline", first_line(conversation[i].message.content)}});
    out.back().content = shortened.ok() ? *shortened : first_line(conversation[i].message.content);
  }
  return out;
}

std::string reasoning_key_for(ContextPolicy policy) {
  return policy == ContextPolicy::drop_reasoning ? "" : "reasoning_content";
}

traj::MessageRecord to_record(const llm::ChatMessage& m, const nlohmann::json& usage,
                              std::optional<double> latency_ms) {
  traj::MessageRecord r;
  auto role = traj::parse_role(m.role);
  r.role = role.ok() ? *role : traj::Role::user;
  r.content = m.content;
  r.reasoning = m.reasoning;
  if (!m.tool_calls.empty()) {
    r.tool_calls = nlohmann::json::array();
    for (const auto& c : m.tool_calls) {
      r.tool_calls.push_back({{"id", c.id},
                              {"type", "function"},
                              {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
    }
  }
  r.tool_call_id = m.tool_call_id;
  r.name = m.name;
  r.usage = usage;
  r.latency_ms = latency_ms;
  return r;
}

llm::ChatMessage from_record(const traj::MessageRecord& r) {
  llm::ChatMessage m;
  m.role = std::string(traj::to_string(r.role));
  m.content = r.content;
  m.reasoning = r.reasoning;
  if (r.tool_calls.is_array()) {
    for (const auto& c : r.tool_calls) {
      llm::ToolCall call;
      call.id = c.value("id", "");
      if (c.contains("function") && c["function"].is_object()) {
        call.name = c["function"].value("name", "");
        call.arguments = c["function"].value("arguments", "");
      }
      m.tool_calls.push_back(std::move(call));
    }
  }
  m.tool_call_id = r.tool_call_id;
  m.name = r.name;
  return m;
}

}  // namespace pf::agent
