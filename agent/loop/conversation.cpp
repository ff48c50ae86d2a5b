#include "agent/loop/conversation.h"

#include <algorithm>

#include "agent/llm/chat_request.h"
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

int64_t estimate_request_tokens(const std::vector<llm::ChatMessage>& messages,
                                const std::string& reasoning_key, const nlohmann::json& tools) {
  int64_t n = tools.is_array() && !tools.empty() ? llm::estimate_tokens(tools.dump()) : 0;
  for (const auto& m : messages) {
    n += llm::estimate_tokens(
        m.to_json(reasoning_key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return n;
}

FittedContext fit_context(const Conversation& conversation, ContextPolicy policy, int last_n,
                          const prompts::PromptVariant& prompts, const nlohmann::json& tools,
                          int64_t max_tokens) {
  FittedContext fit;
  auto attempt = [&](ContextPolicy p, int n, std::string key) {
    fit.messages = request_messages(conversation, p, n, prompts);
    fit.reasoning_key = std::move(key);
    fit.estimated_tokens = estimate_request_tokens(fit.messages, fit.reasoning_key, tools);
    return max_tokens <= 0 || fit.estimated_tokens <= max_tokens;
  };
  std::string key = reasoning_key_for(policy);
  if (attempt(policy, last_n, key)) return fit;
  // Reports go first: the newest one is what the model acts on, older ones
  // are superseded. Reasoning goes last: it is the model's own plan.
  std::vector<int> keeps;
  if (policy != ContextPolicy::last_n_reports) keeps.push_back(std::max(last_n, 1));
  if ((keeps.empty() ? last_n : keeps.back()) > 1) keeps.push_back(1);
  int kept = policy == ContextPolicy::last_n_reports ? last_n : 1;
  for (int keep : keeps) {
    kept = keep;
    fit.steps.push_back("reports: last " + std::to_string(keep));
    if (attempt(ContextPolicy::last_n_reports, keep, key)) return fit;
  }
  if (!key.empty()) {
    fit.steps.push_back("reasoning dropped");
    if (attempt(ContextPolicy::last_n_reports, std::min(kept, 1), "")) return fit;
  }
  fit.fits = false;
  return fit;
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
