#include "agent/llm/chat_message.h"

namespace pf::llm {
namespace {

Result<std::string> text_of(const nlohmann::json& content, const char* field) {
  if (content.is_null()) return std::string();
  if (content.is_string()) return content.get<std::string>();
  if (content.is_array()) {
    std::string text;
    for (const auto& part : content) {
      // Non-text parts (images, ...) have no place in a pass; they are skipped.
      if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        text += part["text"].get<std::string>();
      }
    }
    return text;
  }
  return make_error(ErrorCode::invalid_argument,
                    std::string("message field '") + field + "' is neither text nor null");
}

Result<ToolCall> tool_call_from_json(const nlohmann::json& j, size_t index) {
  if (!j.is_object()) {
    return make_error(ErrorCode::invalid_argument,
                      "tool_calls[" + std::to_string(index) + "] is not an object");
  }
  ToolCall call;
  if (j.contains("id") && j["id"].is_string()) call.id = j["id"].get<std::string>();
  if (call.id.empty()) call.id = "call_" + std::to_string(index);
  const auto fn = j.find("function");
  if (fn == j.end() || !fn->is_object() || !fn->contains("name") || !(*fn)["name"].is_string()) {
    return make_error(ErrorCode::invalid_argument,
                      "tool_calls[" + std::to_string(index) + "] has no function name");
  }
  call.name = (*fn)["name"].get<std::string>();
  if (fn->contains("arguments")) {
    const auto& args = (*fn)["arguments"];
    call.arguments = args.is_string() ? args.get<std::string>() : args.dump();
  }
  return call;
}

}  // namespace

ChatMessage ChatMessage::system(std::string content) {
  ChatMessage m;
  m.role = "system";
  m.content = std::move(content);
  return m;
}

ChatMessage ChatMessage::user(std::string content) {
  ChatMessage m;
  m.role = "user";
  m.content = std::move(content);
  return m;
}

ChatMessage ChatMessage::assistant(std::string content) {
  ChatMessage m;
  m.role = "assistant";
  m.content = std::move(content);
  return m;
}

ChatMessage ChatMessage::tool(std::string tool_call_id, std::string content) {
  ChatMessage m;
  m.role = "tool";
  m.tool_call_id = std::move(tool_call_id);
  m.content = std::move(content);
  return m;
}

nlohmann::json ChatMessage::to_json(const std::string& reasoning_key) const {
  nlohmann::json j = {{"role", role}};
  // An assistant turn that only calls tools carries content null, as OpenAI sends it.
  if (content.empty() && !tool_calls.empty()) {
    j["content"] = nullptr;
  } else {
    j["content"] = content;
  }
  if (!reasoning.empty() && !reasoning_key.empty()) j[reasoning_key] = reasoning;
  if (!tool_calls.empty()) {
    auto calls = nlohmann::json::array();
    for (const auto& call : tool_calls) {
      calls.push_back({{"id", call.id},
                       {"type", "function"},
                       {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
    }
    j["tool_calls"] = std::move(calls);
  }
  if (!tool_call_id.empty()) j["tool_call_id"] = tool_call_id;
  if (!name.empty()) j["name"] = name;
  return j;
}

Result<ChatMessage> ChatMessage::from_json(const nlohmann::json& j) {
  if (!j.is_object()) return make_error(ErrorCode::invalid_argument, "message is not an object");
  ChatMessage m;
  m.role = j.contains("role") && j["role"].is_string() ? j["role"].get<std::string>()
                                                       : std::string("assistant");
  if (j.contains("content")) {
    PF_ASSIGN(m.content, text_of(j["content"], "content"));
  }
  for (const char* key : {"reasoning_content", "reasoning"}) {
    if (m.reasoning.empty() && j.contains(key) && j[key].is_string()) {
      m.reasoning = j[key].get<std::string>();
    }
  }
  if (j.contains("tool_calls") && !j["tool_calls"].is_null()) {
    if (!j["tool_calls"].is_array()) {
      return make_error(ErrorCode::invalid_argument, "message tool_calls is not an array");
    }
    for (size_t i = 0; i < j["tool_calls"].size(); ++i) {
      PF_ASSIGN(auto call, tool_call_from_json(j["tool_calls"][i], i));
      m.tool_calls.push_back(std::move(call));
    }
  }
  if (j.contains("tool_call_id") && j["tool_call_id"].is_string()) {
    m.tool_call_id = j["tool_call_id"].get<std::string>();
  }
  if (j.contains("name") && j["name"].is_string()) m.name = j["name"].get<std::string>();
  return m;
}

bool arguments_are_json_object(const ToolCall& call) {
  auto parsed = nlohmann::json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
  return parsed.is_object();
}

}  // namespace pf::llm
