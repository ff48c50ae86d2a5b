// One message of an OpenAI chat-completions conversation, as the agent stores
// it and as it travels on the wire.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::llm {

//! A function call requested by the model. `arguments` is the raw JSON text the
//! model produced: it is kept verbatim (it may not be valid JSON; the agent
//! answers that with a corrective message, the client never rejects it).
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;

  bool operator==(const ToolCall&) const = default;
};

struct ChatMessage {
  std::string role;  // system | user | assistant | tool
  std::string content;
  std::string reasoning;  // reasoning_content / reasoning of the response, if any
  std::vector<ToolCall> tool_calls;
  std::string tool_call_id;  // role tool: the call being answered
  std::string name;          // optional participant / tool name

  bool operator==(const ChatMessage&) const = default;

  static ChatMessage system(std::string content);
  static ChatMessage user(std::string content);
  static ChatMessage assistant(std::string content);
  static ChatMessage tool(std::string tool_call_id, std::string content);

  //! OpenAI wire form. `reasoning_key` names the field the reasoning is sent
  //! in ("reasoning_content" suits vLLM/SGLang/DeepSeek); empty omits it.
  nlohmann::json to_json(const std::string& reasoning_key = "reasoning_content") const;

  //! Reads a message (request or response side). Accepts string, null or
  //! text-part-array content, `reasoning_content` or `reasoning`, and tool-call
  //! arguments given as a string or (non-standard) as a JSON object.
  static Result<ChatMessage> from_json(const nlohmann::json& j);
};

//! Whether a tool call's arguments parse as a JSON object.
bool arguments_are_json_object(const ToolCall& call);

}  // namespace pf::llm
