// Reading error answers of OpenAI-compatible servers: which HTTP statuses are
// worth retrying, what the server said, and whether it said the context was
// exceeded (a non-retryable end of the episode).
#pragma once

#include <string>
#include <string_view>

#include "agent/llm/chat_response.h"

namespace pf::llm {

//! The human message of an error body: error.message (OpenAI, llama.cpp,
//! SGLang), message (vLLM's older {"object": "error"}), detail (FastAPI), else
//! the body itself, trimmed and cut to a readable length.
std::string error_message_from_body(std::string_view body);

//! Whether an error text says the prompt plus requested tokens do not fit the
//! model's context. Knows the wordings of vLLM, SGLang, llama.cpp server, TGI,
//! OpenAI and common hosted gateways (case-insensitive substring match).
bool is_context_overflow_message(std::string_view text);

//! Classifies a non-2xx HTTP answer. 429 -> rate_limited; 408 and 5xx ->
//! server_error; 401/403 -> unauthorized; 413, and other 4xx whose body says
//! so, -> context_overflow; else bad_request.
AttemptOutcome classify_http_status(int status, std::string_view body);

}  // namespace pf::llm
