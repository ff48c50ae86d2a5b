// Builds one ChatResponse from the chunks of a streamed chat completion
// (`stream: true`), so callers cannot tell streaming from non-streaming.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "agent/llm/chat_response.h"
#include "common/result.h"

namespace pf::llm {

//! Not thread-safe; one per stream.
class StreamAssembler {
 public:
  //! Adds one SSE `data:` payload: "[DONE]" or a chat.completion.chunk. Deltas
  //! of choice 0 accumulate: content, reasoning_content / reasoning, and tool
  //! calls by their index (id and name set once, arguments concatenated).
  //! Errors: parse_error for a chunk that is not JSON; unavailable carrying the
  //! server's message for an in-stream {"error": ...} event.
  Status add(std::string_view data);

  //! Whether the stream said it ended ([DONE] or a finish_reason).
  bool complete() const { return done_ || !finish_reason_.empty(); }

  //! The assembled response; parse_error "stream ended early" when !complete().
  Result<ChatResponse> finish() const;

  //! The equivalent non-streaming chat.completion body (what is stored as raw).
  nlohmann::json as_completion_json() const;

 private:
  ChatMessage message_;
  std::map<int, ToolCall> tool_calls_;
  std::string finish_reason_;
  std::string id_;
  std::string model_;
  nlohmann::json usage_;
  bool done_ = false;
  int chunks_ = 0;
};

}  // namespace pf::llm
