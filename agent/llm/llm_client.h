// OpenAI-compatible chat-completions client (vLLM, SGLang, llama.cpp server,
// OpenAI, ...): builds the request, applies the endpoint's concurrency and rate
// limits, retries what is worth retrying and returns either the assistant
// message or a typed failure, with every attempt recorded.
//
// Thread-safe: one LlmClient per endpoint is shared by all episodes; chat()
// and list_models() may run on any number of threads at once.
#pragma once

#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "agent/llm/cancel_token.h"
#include "agent/llm/chat_failure.h"
#include "agent/llm/chat_request.h"
#include "agent/llm/chat_response.h"
#include "agent/llm/clock.h"
#include "agent/llm/curl_transport.h"
#include "agent/llm/endpoint_limiter.h"
#include "agent/llm/endpoint_set.h"
#include "agent/llm/llm_options.h"
#include "common/result.h"

namespace pf::llm {

class LlmClient {
 public:
  //! Validates the options and reads the API key from the environment once.
  //! `clock` defaults to the system clock.
  static Result<std::unique_ptr<LlmClient>> create(LlmOptions options,
                                                   std::shared_ptr<Clock> clock = nullptr);

  //! One chat completion with retries (429, 5xx, timeouts, connection errors,
  //! malformed or truncated bodies), honouring Retry-After. Never throws.
  //! `cancel` ends waits and transfers early with ErrorKind::cancelled.
  ChatOutcome chat(const ChatRequest& request, const CancelToken* cancel = nullptr);

  //! Model ids from GET {base_url}/models, with the short models_timeout_s.
  Result<std::vector<std::string>> list_models();

  const LlmOptions& options() const { return options_; }
  bool has_api_key() const { return !auth_header_.empty(); }

 private:
  LlmClient(LlmOptions options, std::string auth_header, std::shared_ptr<Clock> clock);

  struct AttemptResult;
  AttemptResult evaluate(const HttpReply& reply) const;
  std::vector<std::string> http_headers(const ChatRequest* request) const;
  double jitter_sample();

  LlmOptions options_;
  std::string auth_header_;  // "Authorization: Bearer ..."; never logged
  std::shared_ptr<Clock> clock_;
  CurlTransport transport_;
  EndpointLimiter limiter_;
  EndpointSet servers_;  // base_urls (or base_url alone)
  std::mutex rng_mutex_;
  std::mt19937_64 rng_;
};

}  // namespace pf::llm
