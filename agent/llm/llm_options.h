// Settings of one LLM endpoint, with every default in one place.
// The configuration loader maps TOML keys of the same names onto these fields.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "agent/llm/chat_request.h"
#include "common/result.h"

namespace pf::llm {

struct LlmOptions {
  //! OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1";
  //! "/chat/completions" and "/models" are appended.
  std::string base_url;
  //! Several servers of the same model (replicas): when non-empty, every call
  //! is balanced over these and fails over between them (EndpointSet), and
  //! base_url is the first of them (GET /models asks it).
  std::vector<std::string> base_urls;
  std::string model;
  //! Name of the environment variable holding the API key ("" or unset
  //! variable: no Authorization header, as local servers expect).
  std::string api_key_env = "OPENAI_API_KEY";
  std::vector<std::pair<std::string, std::string>> headers;  // sent with every request

  double request_timeout_s = 600;  // one attempt, including generation time
  double connect_timeout_s = 10;
  double models_timeout_s = 10;  // GET /models (doctor)
  bool stream = false;
  double stream_idle_timeout_s = 120;  // streaming: longest gap between chunks

  int max_attempts = 6;          // attempts per call, first one included
  double backoff_initial_s = 1;  // full-jitter exponential backoff ...
  double backoff_max_s = 60;     // ... capped here
  //! No retry wait may end later than this after the call began (0: no limit).
  double max_retry_time_s = 900;

  int max_concurrent = 64;         // requests in flight to this endpoint
  double requests_per_minute = 0;  // 0: unlimited
  double tokens_per_minute = 0;    // 0: unlimited (estimated before, corrected after)

  Sampling sampling;                                // defaults for every request
  nlohmann::json extra = nlohmann::json::object();  // merged into every body (top_k, ...)

  //! One message per problem, naming the field.
  Status validate() const;
};

}  // namespace pf::llm
