#include "agent/llm/chat_failure.h"

namespace pf::llm {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::rate_limited_exhausted:
      return "rate_limited_exhausted";
    case ErrorKind::server_error_exhausted:
      return "server_error_exhausted";
    case ErrorKind::timeout_exhausted:
      return "timeout_exhausted";
    case ErrorKind::connection_exhausted:
      return "connection_exhausted";
    case ErrorKind::context_overflow:
      return "context_overflow";
    case ErrorKind::unauthorized:
      return "unauthorized";
    case ErrorKind::bad_request:
      return "bad_request";
    case ErrorKind::malformed_response:
      return "malformed_response";
    case ErrorKind::cancelled:
      return "cancelled";
  }
  return "unknown";
}

const char* exit_reason(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::context_overflow:
      return "context_overflow";
    case ErrorKind::cancelled:
      return "interrupted";
    default:
      return "endpoint_error";
  }
}

ErrorKind error_kind_for(AttemptOutcome outcome) {
  switch (outcome) {
    case AttemptOutcome::rate_limited:
      return ErrorKind::rate_limited_exhausted;
    case AttemptOutcome::server_error:
      return ErrorKind::server_error_exhausted;
    case AttemptOutcome::timeout:
      return ErrorKind::timeout_exhausted;
    case AttemptOutcome::connection:
      return ErrorKind::connection_exhausted;
    case AttemptOutcome::context_overflow:
      return ErrorKind::context_overflow;
    case AttemptOutcome::unauthorized:
      return ErrorKind::unauthorized;
    case AttemptOutcome::bad_request:
      return ErrorKind::bad_request;
    case AttemptOutcome::cancelled:
      return ErrorKind::cancelled;
    case AttemptOutcome::truncated:
    case AttemptOutcome::malformed:
    case AttemptOutcome::ok:
      return ErrorKind::malformed_response;
  }
  return ErrorKind::malformed_response;
}

Error ChatFailure::to_error() const {
  ErrorCode code = ErrorCode::unavailable;
  switch (kind) {
    case ErrorKind::context_overflow:
    case ErrorKind::unauthorized:
    case ErrorKind::bad_request:
      code = ErrorCode::invalid_argument;
      break;
    case ErrorKind::timeout_exhausted:
      code = ErrorCode::timeout;
      break;
    default:
      break;
  }
  return make_error(code, std::string("LLM endpoint (") + error_kind_name(kind) + "): " + message);
}

}  // namespace pf::llm
