// The typed failure of a chat call: what went wrong after retries, mapped onto
// the agent's exit reasons (docs/design.md "Agent protocol").
#pragma once

#include <string>
#include <vector>

#include "agent/llm/chat_response.h"
#include "common/result.h"

namespace pf::llm {

enum class ErrorKind {
  rate_limited_exhausted,  // 429 until attempts or retry time ran out
  server_error_exhausted,  // 5xx until attempts or retry time ran out
  timeout_exhausted,       // request / stream-idle timeouts until ...
  connection_exhausted,    // connection failures until ...
  context_overflow,        // the prompt plus max_tokens exceed the model's context
  unauthorized,            // 401 / 403: the API key is missing or wrong
  bad_request,             // another 4xx: the request itself is wrong
  malformed_response,      // invalid / truncated bodies until ...
  cancelled,               // the caller's CancelToken was set (SIGINT)
};

const char* error_kind_name(ErrorKind kind);

//! The episode exit reason for a failure: "context_overflow", "interrupted"
//! (cancelled) or "endpoint_error" (all others).
const char* exit_reason(ErrorKind kind);

//! The failure kind once retrying stopped after an attempt with `outcome`.
ErrorKind error_kind_for(AttemptOutcome outcome);

struct ChatFailure {
  ErrorKind kind = ErrorKind::malformed_response;
  std::string message;  // what happened and what to do about it; never contains the API key
  int http_status = 0;  // of the last attempt, 0 if none answered
  double total_time_s = 0;
  std::vector<AttemptRecord> attempts;
  std::string raw_request;
  std::string raw_response;  // body of the last attempt, if any

  const char* exit_reason() const { return llm::exit_reason(kind); }
  //! As a pf::Error for code that only needs a message (code unavailable,
  //! invalid_argument, timeout ...).
  Error to_error() const;
};

//! A ChatResponse or a ChatFailure.
class [[nodiscard]] ChatOutcome {
 public:
  ChatOutcome(ChatResponse response) : ok_(true), response_(std::move(response)) {}  // NOLINT
  ChatOutcome(ChatFailure failure) : ok_(false), failure_(std::move(failure)) {}     // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  ChatResponse& response() { return response_; }
  const ChatResponse& response() const { return response_; }
  const ChatFailure& failure() const { return failure_; }
  //! Attempts of either side, for the trajectory store.
  const std::vector<AttemptRecord>& attempts() const {
    return ok_ ? response_.attempts : failure_.attempts;
  }

 private:
  bool ok_;
  ChatResponse response_;
  ChatFailure failure_;
};

}  // namespace pf::llm
