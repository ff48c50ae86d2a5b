// The result of one chat-completions call: the assistant message plus what the
// trajectory store records about the call (usage, timing, every attempt, raw bodies).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/llm/chat_message.h"
#include "common/result.h"

namespace pf::llm {

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t total_tokens = 0;
  std::optional<int64_t> cached_tokens;     // prompt_tokens_details.cached_tokens
  std::optional<int64_t> reasoning_tokens;  // completion_tokens_details.reasoning_tokens
  //! True when the server reported no usage and the numbers are estimate_tokens() values.
  bool estimated = false;

  nlohmann::json to_json() const;
  //! Reads an OpenAI `usage` object; missing counts are 0, total defaults to the sum.
  static Usage from_json(const nlohmann::json& j);
};

//! How one HTTP attempt ended.
enum class AttemptOutcome {
  ok,
  rate_limited,      // 429
  server_error,      // 5xx, 408
  timeout,           // request or stream-idle timeout
  connection,        // refused, reset, DNS, TLS
  truncated,         // body cut short (connection dropped mid-body, stream without end)
  malformed,         // not JSON, no choices, unusable message
  context_overflow,  // 4xx saying the context / max tokens was exceeded
  unauthorized,      // 401, 403
  bad_request,       // other 4xx
  cancelled,         // the caller's CancelToken was set
};

const char* attempt_outcome_name(AttemptOutcome outcome);
bool is_retryable(AttemptOutcome outcome);

struct AttemptRecord {
  int number = 1;  // 1-based
  AttemptOutcome outcome = AttemptOutcome::ok;
  int http_status = 0;  // 0 when no HTTP response arrived
  double latency_s = 0;
  std::optional<double> retry_after_s;  // what the server asked for, if it did
  double wait_s = 0;                    // sleep before the next attempt (0 for the last)
  std::string detail;                   // short reason, no secrets

  nlohmann::json to_json() const;
};

struct ChatResponse {
  ChatMessage message;
  std::string finish_reason;  // stop | length | tool_calls | ... ("" if the server sent none)
  Usage usage;
  std::string id;
  std::string model;
  double latency_s = 0;     // the successful attempt
  double total_time_s = 0;  // the whole call: rate-limit waits, retries, backoff
  std::vector<AttemptRecord> attempts;
  int http_status = 0;
  std::string raw_request;   // the JSON body sent
  std::string raw_response;  // the body received (streaming: the assembled completion JSON)
};

//! Parses a non-streaming chat.completion body: choices[0].message,
//! finish_reason, usage (estimated from text lengths when absent), id, model.
//! Errors are parse_error (not JSON / no usable choice) or unavailable (the
//! body is an error object: its message is returned).
Result<ChatResponse> parse_chat_completion(std::string_view body);

//! Fills `usage` from text lengths when the server reported none.
void estimate_missing_usage(ChatResponse& response, std::string_view request_body);

}  // namespace pf::llm
