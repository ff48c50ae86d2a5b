// A chat-completions request as the agent builds it, and its wire body.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/llm/chat_message.h"

namespace pf::llm {

//! HTTP header naming the task of a request; the replay server selects its
//! script entry by it (docs/design.md "Agent protocol").
inline constexpr const char* kTaskHeader = "X-Passforge-Task";

//! Sampling parameters; unset fields are not sent (the server's default applies).
struct Sampling {
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int64_t> max_tokens;
  std::optional<int64_t> seed;
  std::vector<std::string> stop;

  //! Fields set here win; unset ones come from `defaults`.
  Sampling merged_over(const Sampling& defaults) const;
};

struct ChatRequest {
  std::string model;  // empty: LlmOptions::model
  std::vector<ChatMessage> messages;
  nlohmann::json tools;        // OpenAI tool schemas (array) or null for none
  nlohmann::json tool_choice;  // "auto" | "required" | "none" | object, or null to omit
  //! Sent as `parallel_tool_calls` with tools (OpenAI; vLLM, SGLang and llama.cpp accept it).
  std::optional<bool> parallel_tool_calls;
  Sampling sampling;     // per request (e.g. the episode's seed)
  nlohmann::json extra;  // merged (JSON merge patch) into the body last
  //! Field assistant reasoning is sent back in; empty drops it from the context.
  std::string reasoning_key = "reasoning_content";
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. {kTaskHeader, id}
};

//! What the client adds from its options when it builds the body.
struct RequestDefaults {
  std::string model;
  Sampling sampling;
  nlohmann::json extra;  // endpoint-wide knobs (top_k, chat_template_kwargs, ...)
  bool stream = false;
};

//! The JSON body of POST /chat/completions. Merge order: request fields, the
//! options' `extra`, then the request's `extra` (JSON merge patch, so a null
//! value deletes a key).
nlohmann::json build_request_body(const ChatRequest& request, const RequestDefaults& defaults);

//! A rough token count (bytes / 4, rounded up) for budgets and rate limits when
//! no tokenizer is at hand; documented as an estimate wherever it is reported.
int64_t estimate_tokens(std::string_view text);

}  // namespace pf::llm
