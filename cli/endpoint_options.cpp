#include "cli/endpoint_options.h"

#include <cstdlib>

namespace pf::cli {

llm::LlmOptions llm_options_from(const EndpointConfig& e) {
  llm::LlmOptions o;
  o.base_url = e.base_url;
  o.base_urls = e.base_urls;
  if (!o.base_urls.empty()) o.base_url = o.base_urls.front();  // not the replay endpoint
  while (!o.base_url.empty() && o.base_url.back() == '/') o.base_url.pop_back();
  o.model = e.model;
  o.api_key_env = e.api_key_env;
  for (const auto& [name, value] : e.headers.items()) {
    std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    // "env:NAME" keeps a gateway token out of the config (and so out of run records).
    if (text.starts_with("env:")) {
      const char* from_env = std::getenv(text.substr(4).c_str());
      text = from_env ? from_env : "";
    }
    o.headers.emplace_back(name, text);
  }
  o.request_timeout_s = e.request_timeout_s;
  o.connect_timeout_s = e.connect_timeout_s;
  o.stream = e.stream;
  o.stream_idle_timeout_s = e.stream_idle_timeout_s;
  o.max_attempts = e.max_attempts;
  o.backoff_initial_s = e.backoff_initial_s;
  o.backoff_max_s = e.backoff_max_s;
  o.max_retry_time_s = e.max_retry_time_s;
  o.max_concurrent = e.max_concurrent;
  o.requests_per_minute = e.requests_per_minute;
  o.tokens_per_minute = static_cast<double>(e.tokens_per_minute);
  o.sampling.temperature = e.sampling.temperature;
  o.sampling.top_p = e.sampling.top_p;
  o.sampling.max_tokens = e.sampling.max_tokens;
  o.sampling.seed = e.sampling.seed;
  o.sampling.stop = e.sampling.stop;
  o.extra = e.extra;
  return o;
}

}  // namespace pf::cli
