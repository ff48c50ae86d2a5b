// ShareGPT as LLaMA-Factory reads it (dataset_info: formatting "sharegpt",
// tags from/value, roles human/gpt/function_call/observation, columns
// conversations/system/tools): the system prompt in `system`, `tools` as a
// JSON string, tool calls as function_call turns whose value is
// {"name", "arguments": {...}} (a list for several calls).
#include "trajectories/conversation.h"
#include "trajectories/export_record.h"

namespace pf::traj {
namespace {

std::string with_reasoning(const MessageRecord& m, bool keep, const std::string& body) {
  if (!keep || m.reasoning.empty()) return body;
  return "<think>\n" + m.reasoning + "\n</think>\n\n" + body;
}

}  // namespace

Json sharegpt_record(const ExportItem& item, const ExportOptions& options) {
  bool keep = options.reasoning == ReasoningMode::keep;
  std::string system;
  Json conv = Json::array();
  Json weights = Json::array();
  int64_t dropped_text = 0;
  for (size_t i = 0; i < item.end; ++i) {
    const auto& m = item.messages[i];
    switch (m.role) {
      case Role::system:
        system += (system.empty() ? "" : "\n\n") + m.content;
        break;
      case Role::user:
        conv.push_back({{"from", "human"}, {"value", m.content}});
        break;
      case Role::assistant:
        weights.push_back(item.weights[i] == 1 ? 1 : 0);
        if (auto views = tool_calls_of(m); !views.empty()) {
          Json calls = Json::array();
          for (const auto& c : views) {
            calls.push_back({{"name", c.name}, {"arguments", parse_arguments(c.arguments)}});
          }
          Json value = calls.size() == 1 ? calls[0] : calls;
          if (!m.content.empty()) ++dropped_text;
          conv.push_back({{"from", "function_call"},
                          {"value", with_reasoning(m, keep, json_text(value))}});
        } else {
          conv.push_back({{"from", "gpt"}, {"value", with_reasoning(m, keep, m.content)}});
        }
        break;
      case Role::tool:
        // Answers to several calls of one turn form one observation.
        if (!conv.empty() && conv.back()["from"] == "observation") {
          conv.back()["value"] = conv.back()["value"].get<std::string>() + "\n\n" + m.content;
        } else {
          conv.push_back({{"from", "observation"}, {"value", m.content}});
        }
        break;
    }
  }
  Json record = {{"conversations", conv}, {"system", system}};
  const auto& tools = item.candidate->episode.tools;
  if (tools.is_array() && !tools.empty()) {
    Json functions = Json::array();
    for (const auto& t : tools) {
      functions.push_back(t.is_object() && t.contains("function") ? t["function"] : t);
    }
    record["tools"] = json_text(functions);
  }
  record["metadata"] = export_metadata(item);
  record["metadata"]["assistant_weights"] = weights;
  record["metadata"]["dropped_assistant_text"] = dropped_text;
  return record;
}

}  // namespace pf::traj
