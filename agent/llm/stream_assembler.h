// Builds one ChatResponse from the chunks of a streamed chat completion
// (`stream: true`), so callers cannot tell streaming from non-streaming.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "agent/llm/chat_response.h"
#include "common/result.h"

namespace pf::llm {

//! Not thread-safe; one per stream.
class StreamAssembler {
 public:
  //! Adds one SSE `data:` payload: "[DONE]" or a chat.completion.chunk. Deltas
  //! of choice 0 accumulate: content, reasoning_content / reasoning, and tool
  //! calls by their index (arguments concatenated; a name repeated on later
  //! fragments counts once). A fragment whose id differs from the id of the
  //! call open at its index starts a new call: some servers stream every
  //! parallel call as index 0 and tell them apart only by id.
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
  // Keyed by (index, n-th call seen at that index): the order the calls end
  // up in is by index, then by arrival.
  std::map<std::pair<int, int>, ToolCall> tool_calls_;
  std::map<int, int> open_at_;  // index -> the n of the call open there
  std::string finish_reason_;
  std::string id_;
  std::string model_;
  nlohmann::json usage_;
  bool done_ = false;
  int chunks_ = 0;
};

}  // namespace pf::llm
